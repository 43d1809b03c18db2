//===- DebugIndex.cpp - Compile units and functions sorted by address -----===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "DebugIndex.h"

#include "Arena.h"

#include <dwarf.h>
#include <stdlib.h>

using namespace massif;
using namespace massif::symbolizer;

namespace {

/// An address range of a unit or a function, and the DIE it belongs to.
struct Range {
  Dwarf_Addr Lo, Hi;
  Dwarf_Off Die;
};

using RangeList = ArenaVector<Range>;

int compareRanges(const void *A, const void *B) {
  const Range &X = *(const Range *)A, &Y = *(const Range *)B;
  return X.Lo < Y.Lo ? -1 : X.Lo > Y.Lo ? 1 : 0;
}

void pushRanges(Dwarf_Die *Die, RangeList &Out) {
  Dwarf_Addr Base, Lo, Hi;
  ptrdiff_t At = 0;
  while ((At = dwarf_ranges(Die, At, &Base, &Lo, &Hi)) > 0)
    if (Lo < Hi)
      Out.push(Range{Lo, Hi, dwarf_dieoffset(Die)});
}

/// The DIE of the range containing A, searched among sorted ranges. Ranges
/// may nest (a unit's whole span around the pieces of another), so a few
/// earlier starts are tried too.
bool lookup(const RangeList &L, Dwarf_Addr A, Dwarf_Off &Die) {
  size_t After = L.partition([&](const Range &R) { return R.Lo <= A; });
  for (size_t I = After, Seen = 0; I-- > 0 && Seen < 64; ++Seen)
    if (A < L.Items[I].Hi) {
      Die = L.Items[I].Die;
      return true;
    }
  return false;
}

/// Collects the ranges of the functions under Parent, looking into
/// namespaces (where C++ definitions live) but not into functions.
void collectFunctions(Dwarf_Die *Parent, RangeList &Out, int Depth) {
  Dwarf_Die Child;
  if (Depth > 16 || dwarf_child(Parent, &Child) != 0)
    return;
  do {
    int Tag = dwarf_tag(&Child);
    if (Tag == DW_TAG_subprogram)
      pushRanges(&Child, Out);
    else if (Tag == DW_TAG_namespace || Tag == DW_TAG_module)
      collectFunctions(&Child, Out, Depth + 1);
  } while (dwarf_siblingof(&Child, &Child) == 0);
}

/// The functions of one unit.
struct UnitFunctions {
  Dwarf_Off Unit; // 0: free slot
  RangeList Functions;
};

} // namespace

struct massif::symbolizer::DebugIndex {
  Dwarf *Dw;
  RangeList Units;
  UnitFunctions *Table; // open addressing by unit offset
  uint32_t TableCap, TableCount;
};

DebugIndex *symbolizer::buildDebugIndex(Dwarf *Dw) {
  DebugIndex *Index = (DebugIndex *)arenaAllocate(sizeof(DebugIndex));
  if (!Index)
    return nullptr;
  *Index = DebugIndex{Dw, RangeList(), nullptr, 0, 0};
  Dwarf_Off Off = 0, Next;
  size_t HeaderB;
  while (dwarf_nextcu(Dw, Off, &Next, &HeaderB, nullptr, nullptr, nullptr) ==
         0) {
    Dwarf_Die Cu;
    if (dwarf_offdie(Dw, Off + HeaderB, &Cu))
      pushRanges(&Cu, Index->Units);
    Off = Next;
  }
  qsort(Index->Units.Items, Index->Units.Count, sizeof(Range), compareRanges);
  return Index;
}

void symbolizer::freeDebugIndex(DebugIndex *Index) {
  if (!Index)
    return;
  Index->Units.release();
  for (uint32_t I = 0; I < Index->TableCap; ++I)
    Index->Table[I].Functions.release();
  arenaDeallocate(Index->Table, Index->TableCap * sizeof(UnitFunctions));
  arenaDeallocate(Index, sizeof(DebugIndex));
}

bool symbolizer::findUnit(DebugIndex *Index, Dwarf_Addr A, Dwarf_Die &Cu) {
  Dwarf_Off Die;
  return Index && lookup(Index->Units, A, Die) &&
         dwarf_offdie(Index->Dw, Die, &Cu) != nullptr;
}

/// The function ranges of the unit Cu, indexed the first time they are
/// needed; null when memory ran out.
static RangeList *functionsOf(DebugIndex &Index, Dwarf_Die &Cu) {
  Dwarf_Off Unit = dwarf_dieoffset(&Cu);
  if ((Index.TableCount + 1) * 2 > Index.TableCap) {
    uint32_t NewCap = Index.TableCap ? Index.TableCap * 2 : 64;
    UnitFunctions *New =
        (UnitFunctions *)arenaAllocate(NewCap * sizeof(UnitFunctions));
    if (!New)
      return nullptr;
    for (uint32_t I = 0; I < Index.TableCap; ++I) {
      if (!Index.Table[I].Unit)
        continue;
      uint32_t S = (uint32_t)(Index.Table[I].Unit * 2654435761u) & (NewCap - 1);
      while (New[S].Unit)
        S = (S + 1) & (NewCap - 1);
      New[S] = Index.Table[I];
    }
    arenaDeallocate(Index.Table, Index.TableCap * sizeof(UnitFunctions));
    Index.Table = New;
    Index.TableCap = NewCap;
  }
  uint32_t S = (uint32_t)(Unit * 2654435761u) & (Index.TableCap - 1);
  while (Index.Table[S].Unit && Index.Table[S].Unit != Unit)
    S = (S + 1) & (Index.TableCap - 1);
  UnitFunctions &U = Index.Table[S];
  if (!U.Unit) {
    U.Unit = Unit;
    ++Index.TableCount;
    collectFunctions(&Cu, U.Functions, 0);
    qsort(U.Functions.Items, U.Functions.Count, sizeof(Range), compareRanges);
  }
  return &U.Functions;
}

int symbolizer::scopesAt(DebugIndex *Index, Dwarf_Die &Cu, Dwarf_Addr A,
                     Dwarf_Die *Out, int Max) {
  RangeList *Functions = Index ? functionsOf(*Index, Cu) : nullptr;
  Dwarf_Off Die;
  if (!Functions || Max < 1 || !lookup(*Functions, A, Die) ||
      !dwarf_offdie(Index->Dw, Die, &Out[0]))
    return 0;
  // Down from the function through the scopes that contain A.
  int N = 1;
  while (N < Max) {
    Dwarf_Die Child;
    if (dwarf_child(&Out[N - 1], &Child) != 0)
      break;
    bool Found = false;
    do {
      int Tag = dwarf_tag(&Child);
      if ((Tag == DW_TAG_inlined_subroutine || Tag == DW_TAG_lexical_block ||
           Tag == DW_TAG_try_block || Tag == DW_TAG_catch_block) &&
          dwarf_haspc(&Child, A) > 0) {
        Out[N++] = Child;
        Found = true;
        break;
      }
    } while (dwarf_siblingof(&Child, &Child) == 0);
    if (!Found)
      break;
  }
  // Innermost first.
  for (int I = 0, J = N - 1; I < J; ++I, --J) {
    Dwarf_Die T = Out[I];
    Out[I] = Out[J];
    Out[J] = T;
  }
  return N;
}
