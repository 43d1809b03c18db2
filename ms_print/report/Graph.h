//===- Graph.h - The ASCII graph and the snapshot counts ------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The graph phase of the script, run after the whole file has been read:
// one bar per snapshot (':' normal, '@' detailed, '#' the peak), placed at
// column int(time / end * X) + 1 where end is the time of the last
// snapshot, as tall as the number of rows of height peak / Y it fills,
// with a horizontal line from each bar's top to the next bar; then the
// axis labels (bytes in B, KB, MB, ... by 1024; instructions in i, ki, Mi,
// ... also by 1024; milliseconds in ms, s, h) and the "Number of
// snapshots" / "Detailed snapshots" lines. It re-reads the file's snapshot
// fields instead of keeping them, so memory does not grow with the file.
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_GRAPH_H
#define MSPRINT_GRAPH_H

#include "PerlNumber.h"

#include <string>

namespace msprint {

class Diagnostics;
class InputFile;
class OutputBuffer;
struct Options;
struct ProfileSummary;

/// An axis label: the number as the script formats it, and its unit.
struct AxisLabel {
  std::string Text;
  std::string Unit;
};

/// max_label_2(): "%5d" below 1000 units, else "%5.3f", "%5.2f" or "%5.1f"
/// of the scaled value by its magnitude.
std::string maxLabelText(const PerlNumber &Value, const PerlNumber &Scaled);
/// Bytes: B, KB, MB, ..., YB, dividing by 1024 while the value is >= 1000.
AxisLabel bytesLabel(const PerlNumber &Value);
/// Instructions: i, ki, Mi, ..., Yi, also dividing by 1024.
AxisLabel instructionsLabel(const PerlNumber &Value);
/// Milliseconds: ms, then s (/1000), then h (/3600).
AxisLabel millisecondsLabel(const PerlNumber &Value);

/// Prints the graph and the snapshot counts for a file that passed the
/// check pass; dies where the script's graph phase dies.
void printGraph(const InputFile &In, const ProfileSummary &Summary,
                const Options &Opts, Diagnostics &Diag, OutputBuffer &Out);

} // namespace msprint

#endif // MSPRINT_GRAPH_H
