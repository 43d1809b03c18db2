//===- Options.h - ms_print's command line --------------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The command line of the reference script: --threshold=<m.n>[%],
// --x=<4..1000>, --y=<4..1000>, --version, and a file name; anything else
// starting with '-' (including -h and --help) prints the usage text. Each
// argument is examined left to right and the first failure wins. Like
// Perl's regular expressions ending in '$', an option may carry one
// trailing newline.
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_OPTIONS_H
#define MSPRINT_OPTIONS_H

#include "PerlNumber.h"

#include <cstdint>
#include <string>
#include <vector>

namespace msprint {

class Diagnostics;

/// The version the reference script reports.
inline constexpr char ReferenceVersion[] = "3.19.0";

/// ms_print's settings after the command line.
struct Options {
  /// The threshold as the user spelled it ("1.5" from --threshold=1.5%),
  /// numified when first compared, like the Perl scalar.
  std::string ThresholdText;
  bool ThresholdGiven = false;
  int64_t GraphX = 72;
  int64_t GraphY = 20;
  /// The first non-option argument.
  std::string InputFile;
  /// " arg1 arg2 ...": every argument, for the preamble.
  std::string ArgsText;
};

/// The usage message, printed to stderr for bad options.
const std::string &usageText();

/// Parses Args like the script's process_cmd_line(). Prints and exits
/// (through Diag.die) on --version, usage errors and a missing file name.
Options parseOptions(const std::vector<std::string> &Args, Diagnostics &Diag);

} // namespace msprint

#endif // MSPRINT_OPTIONS_H
