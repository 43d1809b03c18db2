//===- Canvas.h - The graph's character grid, with Perl's array semantics -===//
//
// Part of massif-native, under the MIT licence.
//
// The script draws into a Perl array of arrays, $graph[$x][$y], with
// columns 0..X (column 0 is the y axis) and rows 0..Y (row 0 is the x
// axis). Only those cells are printed, but a hand-made file can make the
// script touch other columns: times beyond the last snapshot's give
// columns past X (new, undefined cells, which warn when compared), and
// negative times give negative indices, which Perl counts from the end of
// the array (or dies on, when too negative). Canvas reproduces all of it:
//
//      col 0     1 .. X          X+1 ..          (sparse: only which cells
//   row Y  ^  | dense grid of  |  are defined matters; long horizontal
//   ...    |  | characters     |  lines are kept as row intervals)
//   row 0  +  - - - - - - - >  |
//
// Bars are the hot path: with thousands of snapshots per column a bar is
// recorded as a pending height per character and applied lazily, which is
// exact because bars drawn with the script's priorities (':' < '@' < '#')
// commute; only a horizontal line (an unconditional write) forces them out.
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_CANVAS_H
#define MSPRINT_CANVAS_H

#include "PerlNumber.h"

#include <array>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace msprint {

class Diagnostics;

/// The graph array of the script.
class Canvas {
public:
  Canvas(int64_t Width, int64_t Height);

  /// for ($x2 = $From + 1; $x2 < $To; $x2++) { $graph[$x2][$Row] = $C }
  void drawHorizontal(const PerlNumber &From, const PerlNumber &To,
                      int64_t Row, char C, Diagnostics &Diag);

  /// Draws the bar of one snapshot: rows 1..Height of column Column with
  /// character C, keeping '#' over '@' over ':'.
  void drawBar(const PerlNumber &Column, int64_t Height, char C,
               Diagnostics &Diag);

  /// The printed cell (Col in 0..Width, Row in 0..Height).
  char cell(int64_t Col, int64_t Row);

private:
  /// Maps a Perl index to a column, dying like Perl when it is negative
  /// beyond the start of the array.
  int64_t resolve(int64_t Index, int PerlLine, Diagnostics &Diag);
  void touch(int64_t Col);
  void flush(int64_t Col);
  char &at(int64_t Col, int64_t Row) {
    return Cells[size_t(Col) * size_t(Height + 1) + size_t(Row)];
  }
  bool sparseDefined(int64_t Col, int64_t Row) const;
  void setSparse(int64_t Col, int64_t Row);
  void fillColumns(int64_t First, int64_t Last, int64_t Row, char C);

  int64_t Width, Height;
  /// scalar(@graph): one past the highest column touched.
  int64_t Length;
  std::vector<char> Cells;
  /// Pending bar heights per printed column: ':' '@' '#'.
  std::vector<std::array<uint16_t, 3>> Pending;
  /// Defined cells of columns beyond Width.
  std::unordered_map<int64_t, std::vector<bool>> SparseCells;
  /// Per row: [first, last] column intervals written by horizontal lines
  /// beyond Width.
  std::vector<std::vector<std::pair<int64_t, int64_t>>> SparseRuns;
};

} // namespace msprint

#endif // MSPRINT_CANVAS_H
