//===- Report.h - ms_print from command line to exit status ---------------===//
//
// Part of massif-native, under the MIT licence.
//
// The whole program as a library call, so tests can drive it. The output
// is the script's, in the script's order:
//
//   preamble    80 dashes, Command:, Massif arguments:, ms_print arguments:
//   graph       see Graph.h
//   counts      Number of snapshots / Detailed snapshots
//   listing     per snapshot a table row, and the tree of detailed ones
//
// The script reads the whole file before printing anything, so an input
// error leaves stdout empty. Here a check pass over the mapped file finds
// every such error first; the listing is then rendered by a second pass
// straight to stdout instead of through a temporary file.
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_REPORT_H
#define MSPRINT_REPORT_H

#include <string>
#include <vector>

namespace msprint {

/// Runs ms_print with the arguments after the program name, writing the
/// report to StdoutFd (-1 discards it) and messages to stderr. Returns the
/// exit status; on errors the process exits from inside with the status
/// the script would have (see Diagnostics::setDeathHandler).
int runMsPrint(const std::vector<std::string> &Args, int StdoutFd = 1);

} // namespace msprint

#endif // MSPRINT_REPORT_H
