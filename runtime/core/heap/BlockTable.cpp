//===- BlockTable.cpp - Live heap blocks, keyed by address ----------------===//
//
// Part of massif-native, under the MIT licence.
//
// The slow paths: new leaves, and the records a direct slot cannot hold.
// One invariant keeps lookups to "the slot, then the hash": when the slot
// of an address holds a record of that address, it is the address's most
// recent one.
//
//===----------------------------------------------------------------------===//

#include "BlockTable.h"
#include "Memory.h"

namespace massif {

bool BlockTable::init(const Allocator &Alloc) {
  A = Alloc;
  Top = allocArray<uint32_t *>(A, NumLeaves);
  return Top && Others.init(A);
}

void BlockTable::discard() {
  // The leaves made, when they were few enough to list: the array of all
  // their pointers is 4 MiB, and scanning it cost a miss per 8 of them.
  if (NumMade <= MaxListed) {
    for (uint32_t I = 0; Top && I < NumMade; ++I)
      freeArray(A, Top[Made[I]], SlotsPerLeaf);
  } else {
    for (uint64_t I = 0; Top && I < NumLeaves; ++I)
      freeArray(A, Top[I], Top[I] ? SlotsPerLeaf : 0);
  }
  NumMade = 0;
  freeArray(A, Top, Top ? NumLeaves : 0);
  Top = nullptr;
  DirectLive = 0;
  Others.discard();
}

void BlockTable::forEach(void (*Fn)(void *Ctx, uint64_t Addr, uint32_t Id),
                         void *Ctx) const {
  auto Scan = [&](uint64_t LeafIndex) {
    const uint32_t *Leaf = Top[LeafIndex];
    if (!Leaf)
      return;
    // Eight slots at a time: most of a leaf is empty.
    const uint64_t *Words = reinterpret_cast<const uint64_t *>(Leaf);
    for (uint64_t W = 0; W < SlotsPerLeaf / 2; W += 4) {
      if ((Words[W] | Words[W + 1] | Words[W + 2] | Words[W + 3]) == 0)
        continue;
      for (uint64_t K = 2 * W; K < 2 * W + 8; ++K)
        if (uint32_t S = Leaf[K])
          Fn(Ctx,
             LeafIndex << LeafBits | K << GranuleBits | uint64_t(S & 1) << 4,
             S >> 1);
    }
  };
  if (Top && NumMade <= MaxListed) {
    for (uint32_t I = 0; I < NumMade; ++I)
      Scan(Made[I]);
  } else {
    for (uint64_t I = 0; Top && I < NumLeaves; ++I)
      Scan(I);
  }
  Others.forEach(Fn, Ctx);
}

uint32_t *BlockTable::newLeaf(uint64_t Addr) {
  uint32_t *Leaf = allocArray<uint32_t>(A, SlotsPerLeaf);
  if (!Leaf)
    return nullptr; // every record of this leaf goes to the hash
  Top[Addr >> LeafBits] = Leaf;
  if (NumMade < MaxListed)
    Made[NumMade] = uint32_t(Addr >> LeafBits);
  ++NumMade;
  return &Leaf[(Addr >> GranuleBits) & (SlotsPerLeaf - 1)];
}

bool BlockTable::insertSlow(uint64_t Addr, uint32_t Id, uint32_t *S) {
  if (holds(S, Addr)) {
    // Addr recorded again: its older record moves to the hash, where it
    // comes before any still older one.
    if (!Others.insert(Addr, *S >> 1))
      return false;
    --DirectLive;
    *S = 0;
  }
  if (S && *S == 0 && fits(Id)) {
    *S = Id << 1 | tagOf(Addr);
    ++DirectLive;
    return true;
  }
  // No slot, another block's slot, or an id too large for one.
  return Others.insert(Addr, Id);
}

void BlockTable::refill(uint64_t Addr, uint32_t *S) {
  // The slot's record was Addr's most recent; an older one may wait in
  // the hash, and becomes the most recent now.
  uint32_t Older;
  if (Others.find(Addr, Older) && fits(Older)) {
    Others.remove(Addr, Older);
    *S = Older << 1 | tagOf(Addr);
    ++DirectLive;
  }
}

} // namespace massif
