//===- AllocTree.cpp - Bytes per call stack: the allocation tree ----------===//
//
// Part of massif-native, under the MIT licence.
//
// The slow path of entry lookup: a stack seen for the first time gets the
// next entry index; the arrays double when full.
//
//===----------------------------------------------------------------------===//

#include "AllocTree.h"
#include "Memory.h"

namespace massif {

bool AllocTree::init(const Allocator &Alloc) {
  A = Alloc;
  EntryCap = 1024;
  static_assert(1024 % ValueChunkEntries == 0, "whole chunks");
  Values = allocArray<uint64_t>(A, EntryCap);
  Dirty = allocArray<uint8_t>(A, EntryCap / ValueChunkEntries);
  Class = allocArray<uint32_t>(A, EntryCap);
  Stacks = allocArray<StackId>(A, EntryCap);
  Sites = allocArray<SiteCounts>(A, EntryCap);
  StackCap = 1024;
  EntryOf = allocArray<uint32_t>(A, StackCap);
  if (!Values || !Dirty || !Class || !Stacks || !Sites || !EntryOf)
    return false;
  Class[NoEntry] = entry_class::Ignored;
  EntryOf[0] = NoEntry; // stack 0: no stack could be captured
  NumEntries = 2;
  return true;
}

bool AllocTree::growEntries() {
  // All five arrays or none, so they always share one capacity.
  size_t Want = EntryCap * 2;
  uint64_t *V = allocArray<uint64_t>(A, Want);
  uint8_t *D = allocArray<uint8_t>(A, Want / ValueChunkEntries);
  uint32_t *C = allocArray<uint32_t>(A, Want);
  StackId *S = allocArray<StackId>(A, Want);
  SiteCounts *N = allocArray<SiteCounts>(A, Want);
  if (!V || !D || !C || !S || !N) {
    freeArray(A, V, V ? Want : 0);
    freeArray(A, D, D ? Want / ValueChunkEntries : 0);
    freeArray(A, C, C ? Want : 0);
    freeArray(A, S, S ? Want : 0);
    freeArray(A, N, N ? Want : 0);
    return false;
  }
  memcpy(V, Values, NumEntries * sizeof(*V));
  memcpy(D, Dirty, EntryCap / ValueChunkEntries);
  memcpy(C, Class, NumEntries * sizeof(*C));
  memcpy(S, Stacks, NumEntries * sizeof(*S));
  memcpy(N, Sites, NumEntries * sizeof(*N));
  freeArray(A, Values, EntryCap);
  freeArray(A, Dirty, EntryCap / ValueChunkEntries);
  freeArray(A, Class, EntryCap);
  freeArray(A, Stacks, EntryCap);
  freeArray(A, Sites, EntryCap);
  Values = V;
  Dirty = D;
  Class = C;
  Stacks = S;
  Sites = N;
  EntryCap = Want;
  return true;
}

uint32_t AllocTree::create(StackId Stack, bool &Created) {
  if (Stack >= StackCap) {
    size_t Cap = StackCap;
    size_t Want = Cap;
    while (Want <= Stack)
      Want *= 2;
    if (!growArray(A, EntryOf, Cap, Cap, Want))
      return 0;
    StackCap = Cap;
  }
  if (NumEntries == EntryCap && !growEntries())
    return 0;
  uint32_t E = NumEntries++;
  Values[E] = 0;
  Sites[E] = SiteCounts{};
  Class[E] = entry_class::Unclassified;
  Stacks[E] = Stack;
  EntryOf[Stack] = E;
  Created = true;
  return E;
}

} // namespace massif
