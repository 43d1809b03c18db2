//===- XTree.cpp - Execution trees of heap memory -------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The rows of an xtree (one per stack, in order of first use) and the
// order in which Massif's block hash table visits live blocks, which is
// the order of an `allocs` report's rows.
//
//===----------------------------------------------------------------------===//

#include "XTree.h"

#include "Memory.h"
#include "Sort.h"

namespace massif {

XtreeRow *XtreeCounters::newRow(StackId Stack) {
  if (Stack >= IndexCap) {
    size_t Want = IndexCap ? IndexCap : 1024;
    while (Want <= Stack)
      Want *= 2;
    if (!growArray(A, IndexOf, IndexCap, IndexCap, Want))
      return nullptr;
  }
  if (NumRows == RowCap) {
    size_t Want = RowCap ? RowCap * 2 : 256;
    if (!growArray(A, Rows, NumRows, RowCap, Want))
      return nullptr;
  }
  if (NumRows == StackCap &&
      !growArray(A, Stacks, NumRows, StackCap, RowCap))
    return nullptr;
  Stacks[NumRows] = Stack;
  Rows[NumRows] = XtreeRow{};
  IndexOf[Stack] = ++NumRows;
  return &Rows[NumRows - 1];
}

void XtreeCounters::release() {
  freeArray(A, IndexOf, IndexCap);
  freeArray(A, Rows, RowCap);
  freeArray(A, Stacks, StackCap);
  IndexOf = nullptr;
  Rows = nullptr;
  Stacks = nullptr;
  IndexCap = RowCap = StackCap = 0;
  NumRows = 0;
}

namespace {

// m_hashtable.c's chain counts: the table starts with the first and moves
// to the next whenever it holds more records than chains.
constexpr uint64_t Primes[] = {
    769,      1543,     3079,      6151,      12289,     24593,     49157,
    98317,    196613,   393241,    786433,    1572869,   3145739,   6291469,
    12582917, 25165843, 50331653,  100663319, 201326611, 402653189};

} // namespace

uint64_t valgrindHashChains(uint32_t Grown) {
  return Primes[Grown < MaxHashGrowths ? Grown : MaxHashGrowths];
}

void sortAsValgrindHashTable(XtreeBlock *Blocks, size_t N,
                             const uint64_t *GrownAt, uint32_t NumGrown) {
  static_assert(sizeof(Primes) / sizeof(Primes[0]) == MaxHashGrowths + 1,
                "one chain count per growth, and the first");
  if (NumGrown > MaxHashGrowths)
    NumGrown = MaxHashGrowths;
  // Replay the insertions in order. Within a chain a lower Rank comes
  // first: an insertion's rank is below every rank given before it (and
  // below any position), a growth ranks each record by its position in
  // the walk, the last walked first.
  heapSort(Blocks, N, [](const XtreeBlock &L, const XtreeBlock &R) {
    return L.Seq < R.Seq;
  });
  uint32_t Grown = 0;
  uint64_t Chains = Primes[0];
  auto Order = [&Chains](const XtreeBlock &L, const XtreeBlock &R) {
    uint64_t CL = L.Key % Chains, CR = R.Key % Chains;
    if (CL != CR)
      return CL < CR;
    return L.Rank < R.Rank;
  };
  // The growth after the records Blocks[0..Upto) were inserted.
  auto Grow = [&](size_t Upto) {
    heapSort(Blocks, Upto, Order); // the walk's order: the iteration's
    for (size_t I = 0; I < Upto; ++I)
      Blocks[I].Rank = -int64_t(I);
    Chains = Primes[++Grown];
  };
  for (size_t I = 0; I < N; ++I) {
    while (Grown < NumGrown && GrownAt[Grown] < Blocks[I].Seq)
      Grow(I);
    Blocks[I].Rank = -int64_t(N) - int64_t(Blocks[I].Seq);
  }
  while (Grown < NumGrown)
    Grow(N);
  heapSort(Blocks, N, Order);
}

} // namespace massif
