//===- AddressHash.cpp - Block address to node id, hashed ----------------===//
//
// Part of massif-native, under the MIT licence.
//
// The table's slow paths: growth, duplicate addresses and deletion.
// Deletion shifts later members of the probe cluster back (no tombstones),
// so a probe always ends at the first empty slot and the table never needs
// cleaning.
//
//===----------------------------------------------------------------------===//

#include "AddressHash.h"
#include "Memory.h"

namespace massif {
namespace {
constexpr uint32_t InitialBits = 12;
} // namespace

void AddressHash::discard() {
  freeArray(A, Keys, Keys ? Mask + 1 : 0);
  freeArray(A, Ids, Ids ? Mask + 1 : 0);
  Keys = nullptr;
  Ids = nullptr;
  Mask = Live = GrowAt = 0;
}

bool AddressHash::init(const Allocator &Alloc) {
  A = Alloc;
  size_t Cap = size_t(1) << InitialBits;
  Keys = allocArray<uint64_t>(A, Cap);
  Ids = allocArray<uint32_t>(A, Cap);
  if (!Keys || !Ids)
    return false;
  Mask = Cap - 1;
  Shift = 64 - InitialBits;
  Live = 0;
  GrowAt = Cap / 4 * 3;
  return true;
}

bool AddressHash::grow() {
  size_t OldCap = size_t(Mask + 1);
  size_t NewCap = OldCap * 2;
  uint64_t *OldKeys = Keys;
  uint32_t *OldIds = Ids;
  uint64_t *NewKeys = allocArray<uint64_t>(A, NewCap);
  uint32_t *NewIds = allocArray<uint32_t>(A, NewCap);
  if (!NewKeys || !NewIds) {
    freeArray(A, NewKeys, NewKeys ? NewCap : 0);
    freeArray(A, NewIds, NewIds ? NewCap : 0);
    return false;
  }
  Keys = NewKeys;
  Ids = NewIds;
  Mask = NewCap - 1;
  --Shift;
  GrowAt = NewCap / 4 * 3;
  // Visit every cluster from its start, so records of one address arrive
  // newest first and keep that order.
  size_t Start = 0;
  while (OldKeys[Start] != 0)
    ++Start;
  for (size_t K = 0; K < OldCap; ++K) {
    size_t From = (Start + K) & (OldCap - 1);
    if (OldKeys[From] != 0)
      place(OldKeys[From], OldIds[From], home(~OldKeys[From]),
            /*NewestFirst=*/false);
  }
  freeArray(A, OldKeys, OldCap);
  freeArray(A, OldIds, OldCap);
  return true;
}

void AddressHash::place(uint64_t Key, uint32_t Id, uint64_t I,
                       bool NewestFirst) {
  for (;; I = (I + 1) & Mask) {
    uint64_t K = Keys[I];
    if (K == 0) {
      Keys[I] = Key;
      Ids[I] = Id;
      return;
    }
    if (K == Key && NewestFirst) {
      // The same address again (Massif allows it): the newest record goes
      // first, like Massif's chained table that prepends.
      uint32_t Older = Ids[I];
      Ids[I] = Id;
      Id = Older;
    }
  }
}

void AddressHash::erase(uint64_t I) {
  // Pull later members of the cluster into the hole when their home does
  // not lie cyclically in (hole, their slot].
  for (uint64_t J = (I + 1) & Mask; Keys[J] != 0; J = (J + 1) & Mask) {
    if (distance(J) >= ((J - I) & Mask)) {
      Keys[I] = Keys[J];
      Ids[I] = Ids[J];
      I = J;
    }
  }
  Keys[I] = 0;
  --Live;
}

} // namespace massif
