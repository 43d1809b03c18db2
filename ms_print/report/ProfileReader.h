//===- ProfileReader.h - Reading a massif.out file as ms_print does -------===//
//
// Part of massif-native, under the MIT licence.
//
// ProfileReader is the script's read_input_file() loop: the header (desc:,
// cmd:, time_unit:), then snapshot after snapshot, each with its six
// "key=value" lines and, when detailed, a heap tree read recursively
// (iteratively here, so no input can exhaust the stack). The report runs
// it twice over the same mapped file:
//
//   Check pass   validates, prints the script's warnings and dies exactly
//                where and how the script would, and gathers the summary
//                the graph needs; stdout stays untouched.
//   Render pass  (warnings silenced, input known good) writes the snapshot
//                listing and the trees straight to stdout.
//
// Nothing is kept per snapshot, so memory is bounded by the deepest tree.
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_PROFILEREADER_H
#define MSPRINT_PROFILEREADER_H

#include "InputFile.h"
#include "PerlNumber.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace msprint {

class Diagnostics;
class OutputBuffer;

/// What the check pass learns about a file.
struct ProfileSummary {
  /// The concatenated remainders of the desc: lines, newlines included.
  std::string Desc;
  std::string_view Cmd;
  std::string_view TimeUnit;
  uint64_t NumSnapshots = 0;
  /// The largest snapshot total, by Perl's ">", starting from 0.
  PerlNumber PeakTotal;
  /// The time field of the last snapshot.
  std::string_view LastTime;
  /// The snapshot= field of the last "heap_tree=peak" snapshot.
  bool HasPeak = false;
  std::string_view PeakNum;
  /// Where the first snapshot starts, and Perl's $. there.
  const char *BodyStart = nullptr;
  uint64_t BodyLineNo = 0;
};

/// The six fields of one snapshot, as text.
struct SnapshotFields {
  std::string_view Num, Time, Heap, Extra, Stacks, HeapTree;
};

/// The snapshot's total: mem_heap_B + mem_heap_extra_B + mem_stacks_B with
/// Perl's arithmetic, warning (unless silent) for non-numeric fields in
/// Perl's order (right operand first).
PerlNumber snapshotTotal(const SnapshotFields &F, Diagnostics &Diag);

/// Matches a tree line against /^\s*n(\d+):\s*(\d+)(.*)$/.
bool parseTreeLine(std::string_view Text, std::string_view &Children,
                   std::string_view &Bytes, std::string_view &Details);

/// Numifies S on its first numeric use, warning like Perl if it is not a
/// number.
const PerlNumber &numifyScalar(PerlScalar &S, Diagnostics &Diag,
                               std::string_view OpDesc, int PerlLine);

/// Reads a whole massif.out file; see the file comment.
class ProfileReader {
public:
  /// Listing null means the check pass; otherwise the render pass writes
  /// the snapshot listing to it.
  ProfileReader(const InputFile &In, Diagnostics &Diag, PerlScalar &Threshold,
                OutputBuffer *Listing);

  /// Reads the header and every snapshot, filling Summary.
  void read(ProfileSummary &Summary);

private:
  struct Frame {
    uint64_t NumChildren;
    uint64_t NextChild;
    bool Significant;
    uint64_t NumInsignificant;
    PerlNumber InsignificantBytes;
    PerlNumber Bytes;
    size_t PrefixLenBefore;
  };

  bool getLine(Line &L);
  void readHeader(ProfileSummary &Summary, Line &L, bool &HaveLine);
  std::string_view expectField(bool HaveLine, const Line &L,
                               std::string_view Key);
  void writeRow(const SnapshotFields &F, const PerlNumber &Total);
  void readHeapTree(const PerlNumber &Total);
  void enterNode(bool IsTop, std::string_view Midfix,
                 const PerlNumber &Total);
  void finishNode(const PerlNumber &Total);
  PerlNumber percentOf(const PerlNumber &Bytes, const PerlNumber &Total);
  const PerlNumber &thresholdNumber();

  const InputFile &In;
  Diagnostics &Diag;
  PerlScalar &Threshold;
  OutputBuffer *Listing;
  LineReader Reader;
  bool EofSeen = false;
  std::string TableHeader;
  std::string Prefix;
  std::vector<Frame> Stack;
};

} // namespace msprint

#endif // MSPRINT_PROFILEREADER_H
