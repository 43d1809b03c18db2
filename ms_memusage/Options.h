//===- Options.h - ms_memusage's command line, as memusage reads it -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// memusage(1)'s options, with its abbreviations (every prefix its script
// accepts, and the ones it calls ambiguous), its way of taking a value
// (the next word, or after the last '=' of the same word) and its errors.
// The first word that is not an option begins the program and its
// arguments. ms_memusage adds --svg=FILE.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_MEMUSAGE_OPTIONS_H
#define MASSIF_MEMUSAGE_OPTIONS_H

#include "Graph.h"

#include <string>
#include <vector>

namespace massif {
namespace memusage {

struct RunOptions {
  std::string ProgName;  ///< -n: count only the program of that name
  std::string Png;       ///< -p
  std::string Svg;       ///< --svg
  std::string Data;      ///< -d
  std::string Buffer;    ///< -b (or 1 for -u), as given
  bool NoTimer = false;  ///< --no-timer
  bool TraceMmap = false;///< -m
  GraphOptions Graph;    ///< -t, -T, --title, -x, -y
  std::vector<std::string> Program; ///< the program and its arguments
};

/// What the command line asks for.
enum class Parsed { Run, Exit };

/// Parses argv. On Parsed::Exit, ExitStatus is what to exit with: help,
/// usage and version are written to standard output (0), errors to
/// standard error (1).
Parsed parseCommandLine(int Argc, char **Argv, RunOptions &O, int &ExitStatus);

} // namespace memusage
} // namespace massif

#endif // MASSIF_MEMUSAGE_OPTIONS_H
