//===- Canvas.cpp - The graph's character grid ----------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Implements Canvas.h. Index arithmetic follows Perl's arrays: a negative
// index adds the current length, a write or a nested read past the end
// extends the array (Perl autovivifies $graph[$x] even to read
// $graph[$x][$y]), and reading a cell that was never assigned warns "Use
// of uninitialized value in string ne".
//
//===----------------------------------------------------------------------===//

#include "Canvas.h"

#include "Diagnostics.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace msprint {

namespace {

/// Bounds for horizontal lines over absurd ranges; the script would loop
/// for centuries before reaching them.
constexpr int64_t RangeCap = int64_t(1) << 62;

int rankOf(char C) { return C == '#' ? 2 : C == '@' ? 1 : 0; }

} // namespace

Canvas::Canvas(int64_t Width, int64_t Height)
    : Width(Width), Height(Height), Length(Width + 1),
      Cells(size_t(Width + 1) * size_t(Height + 1), ' '),
      Pending(size_t(Width + 1), std::array<uint16_t, 3>{0, 0, 0}),
      SparseRuns(size_t(Height + 1)) {
  at(0, 0) = '+';
  for (int64_t X = 1; X <= Width; ++X)
    at(X, 0) = '-';
  for (int64_t Y = 1; Y <= Height; ++Y)
    at(0, Y) = '|';
  at(Width, 0) = '>';
  at(0, Height) = '^';
}

int64_t Canvas::resolve(int64_t Index, int PerlLine, Diagnostics &Diag) {
  if (Index >= 0)
    return Index;
  int64_t Mapped = Index + Length;
  // Perl formats the IV subscript with "%d", which reads an int: only the
  // low 32 bits show.
  if (Mapped < 0)
    Diag.die("Modification of non-creatable array value attempted, "
             "subscript " +
                 std::to_string(int32_t(uint32_t(uint64_t(Index)))),
             PerlLine);
  return Mapped;
}

void Canvas::touch(int64_t Col) {
  if (Col >= Length)
    Length = Col == INT64_MAX ? INT64_MAX : Col + 1;
}

void Canvas::flush(int64_t Col) {
  std::array<uint16_t, 3> &P = Pending[size_t(Col)];
  int64_t Top = std::max({P[0], P[1], P[2]});
  for (int64_t Row = 1; Row <= Top; ++Row) {
    char &C = at(Col, Row);
    if (Row <= P[2])
      C = '#';
    else if (Row <= P[1] && C != '#')
      C = '@';
    else if (Row <= P[0] && C != '#' && C != '@')
      C = ':';
  }
  P = {0, 0, 0};
}

char Canvas::cell(int64_t Col, int64_t Row) {
  flush(Col);
  return at(Col, Row);
}

bool Canvas::sparseDefined(int64_t Col, int64_t Row) const {
  auto It = SparseCells.find(Col);
  if (It != SparseCells.end() && It->second[size_t(Row)])
    return true;
  for (const auto &Run : SparseRuns[size_t(Row)])
    if (Col >= Run.first && Col <= Run.second)
      return true;
  return false;
}

void Canvas::setSparse(int64_t Col, int64_t Row) {
  std::vector<bool> &Rows = SparseCells[Col];
  if (Rows.empty())
    Rows.assign(size_t(Height + 1), false);
  Rows[size_t(Row)] = true;
}

void Canvas::fillColumns(int64_t First, int64_t Last, int64_t Row, char C) {
  for (int64_t Col = First; Col <= std::min(Last, Width); ++Col) {
    flush(Col);
    at(Col, Row) = C;
  }
  int64_t SparseFirst = std::max(First, Width + 1);
  if (SparseFirst > Last)
    return;
  auto &Runs = SparseRuns[size_t(Row)];
  if (!Runs.empty() && SparseFirst <= Runs.back().second + 1 &&
      Last >= Runs.back().first - 1) {
    Runs.back().first = std::min(Runs.back().first, SparseFirst);
    Runs.back().second = std::max(Runs.back().second, Last);
  } else {
    Runs.emplace_back(SparseFirst, Last);
  }
}

void Canvas::drawHorizontal(const PerlNumber &From, const PerlNumber &To,
                            int64_t Row, char C, Diagnostics &Diag) {
  PerlNumber Start = perlAdd(From, PerlNumber::integer(1));
  if (!perlLt(Start, To))
    return;
  if (!Start.ivPleasable()) {
    // A double too large to step by one: the script would rewrite this one
    // cell for ever; write it once.
    int64_t Col = resolve(perlCastToIv(Start), perl_line::HorizontalLine,
                          Diag);
    touch(Col);
    fillColumns(Col, Col, Row, C);
    return;
  }
  WideInt S = Start.intValue();
  WideInt E;
  if (To.ivPleasable()) {
    E = To.intValue();
  } else {
    double D = To.toDouble();
    E = D >= double(RangeCap) ? WideInt(RangeCap) : WideInt(std::ceil(D));
  }
  E = std::min<WideInt>(E, RangeCap);
  if (S < 0) {
    // S is an IV here; the first (most negative) index decides whether
    // Perl dies, and the rest map into the array.
    int64_t First = resolve(int64_t(S), perl_line::HorizontalLine, Diag);
    int64_t NegEnd = int64_t(std::min<WideInt>(E, 0));
    fillColumns(First, NegEnd + Length - 1, Row, C);
  }
  WideInt P0 = std::max<WideInt>(S, 0);
  if (P0 < E) {
    fillColumns(int64_t(P0), int64_t(E - 1), Row, C);
    touch(int64_t(E - 1));
  }
}

void Canvas::drawBar(const PerlNumber &Column, int64_t BarHeight, char C,
                     Diagnostics &Diag) {
  if (BarHeight == 0)
    return;
  int PerlLine = C == '#' ? perl_line::DrawPeak : perl_line::DrawDecision;
  int64_t Col = resolve(perlCastToIv(Column), PerlLine, Diag);
  touch(Col);
  if (Col <= Width) {
    uint16_t &H = Pending[size_t(Col)][size_t(rankOf(C))];
    H = std::max(H, uint16_t(BarHeight));
    return;
  }
  // Beyond the printed columns only definedness matters: reading an
  // unassigned cell warns once for '@' and twice for ':'.
  int Reads = C == '#' ? 0 : C == '@' ? 1 : 2;
  for (int64_t Row = 1; Row <= BarHeight; ++Row) {
    if (!sparseDefined(Col, Row))
      for (int I = 0; I < Reads; ++I)
        Diag.warn("Use of uninitialized value in string ne",
                  perl_line::DrawDecision);
    setSparse(Col, Row);
  }
}

} // namespace msprint
