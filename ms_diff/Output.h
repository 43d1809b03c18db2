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

/// The gates on the site statistics.
enum class SiteGateKind {
  Calls,     ///< --fail-if-calls-grow=: allocation calls, A and B
  Temporary, ///< --fail-if-temporary-grows=: temporary allocations
  LeaksGrow, ///< --fail-if-leaks-grow=: leaked bytes, A and B
  Leaks,     ///< --fail-if-leaks: any block leaked in B
};

struct SiteGate {
  SiteGateKind Kind = SiteGateKind::Leaks;
  /// The limit (not for Leaks).
  GateLimit Limit;
  /// A's and B's figures (for Leaks, the leaked blocks; A's is 0 when A
  /// has no site statistics), the growth allowed, the verdict.
  GateResult Result;
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
  /// The gates on the site statistics given, in the order of
  /// SiteGateKind.
  std::vector<SiteGate> SiteGates;

  /// Whether any gate failed.
  bool failed() const {
    bool F = HasGate && Gate.Failed;
    for (const SiteGate &G : SiteGates)
      F |= G.Result.Failed;
    return F;
  }
};

/// The text report.
std::string renderText(const Report &R);

/// The JSON object, one line per row, ending in a newline.
std::string renderJson(const Report &R);

/// The gate's verdict in one line, without a newline: "PASS: ..." or
/// "FAIL: ...". Only when R.HasGate.
std::string gateVerdict(const Report &R);

/// A site statistics gate's verdict in one line, the same way.
std::string siteGateVerdict(const Report &R, const SiteGate &G);

/// The option of a site statistics gate: "--fail-if-calls-grow=" (with
/// its limit when WithLimit), "--fail-if-leaks".
std::string siteGateOption(const SiteGate &G, bool WithLimit);

/// 1234567 -> "1,234,567".
std::string commified(uint64_t V);

/// "+1,024", "-512", "0".
std::string signedCommified(uint64_t A, uint64_t B);

/// The delta of B over A in percent: "+5.30%", "-100.00%", "0.00%", or
/// "n/a" when A is 0 and B is not.
std::string percentText(uint64_t A, uint64_t B);

} // namespace msdiff

#endif // MSDIFF_OUTPUT_H
