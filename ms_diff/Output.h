//===- Output.h - What ms_diff writes: text and JSON ----------------------===//
//
// Part of massif-native, under the MIT licence.
//
// A Report is the comparison with what the outputs say around it: the two
// files and the gate's verdict. renderText (TextOutput.cpp) writes aligned
// columns for people; renderJson (JsonOutput.cpp) the versioned object of
// docs/VIEWS.md for scripts.
//
//===----------------------------------------------------------------------===//

#ifndef MSDIFF_OUTPUT_H
#define MSDIFF_OUTPUT_H

#include "Diff.h"
#include "Gate.h"

#include <string>

namespace msdiff {

/// The version of the JSON object; bumped when a field changes meaning or
/// goes away (new fields may appear without a bump).
inline constexpr int JsonVersion = 1;

/// One input as the outputs name it.
struct FileInfo {
  /// The path as given on the command line.
  std::string Path;
  std::string Cmd;
  std::string Desc;
  std::string TimeUnit;
};

struct Report {
  FileInfo A;
  FileInfo B;
  Comparison C;
  /// --all: rows whose bytes did not change are shown too.
  bool ShowAll = false;
  /// --fail-if-peak-grows= was given.
  bool HasGate = false;
  GateLimit Limit;
  GateResult Gate;
};

/// The text report.
std::string renderText(const Report &R);

/// The JSON object, one line per row, ending in a newline.
std::string renderJson(const Report &R);

/// The gate's verdict in one line, without a newline: "PASS: ..." or
/// "FAIL: ...". Only when R.HasGate.
std::string gateVerdict(const Report &R);

/// 1234567 -> "1,234,567".
std::string commified(uint64_t V);

/// "+1,024", "-512", "0".
std::string signedCommified(uint64_t A, uint64_t B);

/// The delta of B over A in percent: "+5.30%", "-100.00%", "0.00%", or
/// "n/a" when A is 0 and B is not.
std::string percentText(uint64_t A, uint64_t B);

} // namespace msdiff

#endif // MSDIFF_OUTPUT_H
