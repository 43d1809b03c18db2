//===- XTree.h - Execution trees of heap memory (--xtree-memory) -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Valgrind's xtree memory report (spec section 7.3) is a flat list of
// stacks, each with a few counters, in the order each stack was first
// charged. With --xtree-memory=full the counters are kept during the run
// (XtreeCounters, fed by the Profile's events); with `allocs`, and for a
// report asked for while the mode is `none`, they are summed at report time
// from the live blocks, visited in the order Massif's block hash table
// would give them (XtreeLiveOrder). XTreeWriter.cpp prints either in
// callgrind or in Massif format.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_XTREE_H
#define MASSIF_CORE_XTREE_H

#include "Base.h"

namespace massif {

/// The six counters of a `full` row; an `allocs` row uses the first two.
struct XtreeRow {
  uint64_t CurB, CurBk;   ///< currently allocated bytes and blocks
  uint64_t TotB, TotBk;   ///< allocated in total
  uint64_t FdB, FdBk;     ///< freed in total by this stack
};

/// One row per stack, in order of first use.
class XtreeCounters {
public:
  explicit XtreeCounters(const Allocator &A) : A(A) {}
  XtreeCounters() = default;
  void setAllocator(const Allocator &NewA) { A = NewA; }
  void release();

  /// A block of B bytes allocated at Stack (0: none, not counted).
  void alloc(StackId Stack, uint64_t B) {
    if (XtreeRow *R = rowOf(Stack)) {
      R->CurB += B;
      R->CurBk += 1;
      R->TotB += B;
      R->TotBk += 1;
    }
  }
  /// A block of B > 0 bytes allocated at AllocStack, freed at FreeStack.
  void free(StackId AllocStack, StackId FreeStack, uint64_t B) {
    if (XtreeRow *R = rowOf(AllocStack)) {
      R->CurB -= B;
      R->CurBk -= 1;
    }
    if (XtreeRow *R = rowOf(FreeStack)) {
      R->FdB += B;
      R->FdBk += 1;
    }
  }
  /// A live block, for an `allocs` report.
  void live(StackId Stack, uint64_t B) {
    if (XtreeRow *R = rowOf(Stack)) {
      R->CurB += B;
      R->CurBk += 1;
    }
  }

  uint32_t size() const { return NumRows; }
  StackId stack(uint32_t I) const { return Stacks[I]; }
  const XtreeRow &row(uint32_t I) const { return Rows[I]; }

private:
  /// The row of Stack, made at first use; null for stack 0 or when memory
  /// is exhausted.
  XtreeRow *rowOf(StackId Stack) {
    if (Stack == 0)
      return nullptr;
    if (Stack < IndexCap && IndexOf[Stack])
      return &Rows[IndexOf[Stack] - 1];
    return newRow(Stack);
  }
  XtreeRow *newRow(StackId Stack);

  Allocator A{};
  uint32_t *IndexOf = nullptr; ///< StackId -> row index + 1
  size_t IndexCap = 0;
  XtreeRow *Rows = nullptr;
  StackId *Stacks = nullptr;
  size_t RowCap = 0, StackCap = 0;
  uint32_t NumRows = 0;
};

/// A live block as Massif's block table holds it: the address Valgrind
/// gave it (the key of the table), when it entered the table, and what it
/// charges to which stack.
struct XtreeBlock {
  uint64_t Key;
  uint64_t Seq; ///< its insertion's number: 1, 2, ... in table order
  StackId Stack;
  uint64_t ReqB;
  int64_t Rank; ///< sortAsValgrindHashTable's scratch
};

/// Valgrind's VgHashTable (m_hashtable.c) has this many chains after
/// growing Grown times (the first count is 769; it moves to the next prime
/// of its list whenever an insertion leaves more records than chains).
uint64_t valgrindHashChains(uint32_t Grown);
/// How many times the table can grow.
constexpr uint32_t MaxHashGrowths = 19;

/// Sorts Blocks into the order Valgrind's VgHashTable iterates them: by
/// chain (key modulo the chain count), and within a chain as the table's
/// history left it: an insertion goes to the front of its chain, and each
/// growth walks the old chains in order and pushes every record onto the
/// front of its new chain. GrownAt[K] is the Seq of the insertion after
/// which the table grew for the (K+1)th time, for K < NumGrown. Records
/// removed meanwhile change nothing in the order of the others, so the live
/// blocks and the growths are the whole history that matters.
void sortAsValgrindHashTable(XtreeBlock *Blocks, size_t N,
                             const uint64_t *GrownAt, uint32_t NumGrown);

} // namespace massif

#endif // MASSIF_CORE_XTREE_H
