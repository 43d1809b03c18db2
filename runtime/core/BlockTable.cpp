//===- BlockTable.cpp - Live heap blocks, keyed by address ----------------===//
//
// Part of massif-native, under the MIT licence.
//
// Linear probing with backward-shift deletion (no tombstones), so a probe
// sequence always ends at the first empty slot and the table never needs
// cleaning. Multiplicative hashing of the address without its low four
// bits, which are zero for every malloc'd block.
//
//===----------------------------------------------------------------------===//

#include "BlockTable.h"
#include "Memory.h"

namespace massif {
namespace {
constexpr uint32_t InitialBits = 12;
} // namespace

bool BlockTable::init(const Allocator &Alloc) {
  A = Alloc;
  Slots = allocArray<Slot>(A, size_t(1) << InitialBits);
  if (!Slots)
    return false;
  Mask = (uint64_t(1) << InitialBits) - 1;
  Shift = 64 - InitialBits;
  Live = 0;
  return true;
}

BlockTable::Slot BlockTable::pack(const BlockRecord &B) {
  Slot S;
  S.Addr = B.Addr;
  S.ReqLo = uint32_t(B.ReqB);
  S.ReqHi = uint16_t(B.ReqB >> 32);
  S.SlopLo = uint32_t(B.SlopB);
  S.SlopHi = uint16_t(B.SlopB >> 32);
  S.Entry = B.Entry;
  return S;
}

void BlockTable::unpack(const Slot &S, BlockRecord &Out) {
  Out.Addr = S.Addr;
  Out.ReqB = uint64_t(S.ReqHi) << 32 | S.ReqLo;
  Out.SlopB = uint64_t(S.SlopHi) << 32 | S.SlopLo;
  Out.Entry = S.Entry;
}

void BlockTable::place(const Slot &S, bool NewestFirst) {
  Slot Cur = S;
  for (uint64_t I = home(Cur.Addr);; I = (I + 1) & Mask) {
    Slot &T = Slots[I];
    if (T.Entry == 0) {
      T = Cur;
      return;
    }
    if (NewestFirst && T.Addr == Cur.Addr) {
      // Keep the newest record first in the probe order, like Massif's
      // chained table that prepends; the older one moves on.
      Slot Older = T;
      T = Cur;
      Cur = Older;
    }
  }
}

bool BlockTable::grow() {
  uint64_t OldCap = Mask + 1;
  Slot *Old = Slots;
  Slot *New = allocArray<Slot>(A, size_t(OldCap * 2));
  if (!New)
    return false;
  Slots = New;
  Mask = OldCap * 2 - 1;
  --Shift;
  // Visit every cluster from its start so equal addresses keep their order.
  uint64_t Start = 0;
  while (Old[Start].Entry != 0)
    ++Start;
  for (uint64_t K = 0; K < OldCap; ++K) {
    const Slot &S = Old[(Start + K) & (OldCap - 1)];
    if (S.Entry != 0)
      place(S, /*NewestFirst=*/false);
  }
  freeArray(A, Old, size_t(OldCap));
  return true;
}

bool BlockTable::insert(const BlockRecord &B) {
  if ((Live + 1) * 4 > (Mask + 1) * 3 && !grow())
    return false;
  place(pack(B), /*NewestFirst=*/true);
  ++Live;
  return true;
}

bool BlockTable::find(uint64_t Addr, BlockRecord &Out) const {
  for (uint64_t I = home(Addr);; I = (I + 1) & Mask) {
    const Slot &S = Slots[I];
    if (S.Entry == 0)
      return false;
    if (S.Addr == Addr) {
      unpack(S, Out);
      return true;
    }
  }
}

bool BlockTable::remove(uint64_t Addr, BlockRecord &Out) {
  uint64_t I = home(Addr);
  for (;; I = (I + 1) & Mask) {
    const Slot &S = Slots[I];
    if (S.Entry == 0)
      return false;
    if (S.Addr == Addr)
      break;
  }
  unpack(Slots[I], Out);
  // Backward shift: pull later members of the cluster into the hole when
  // their home position does not lie cyclically in (hole, their slot].
  for (uint64_t J = (I + 1) & Mask;; J = (J + 1) & Mask) {
    Slot &S = Slots[J];
    if (S.Entry == 0)
      break;
    uint64_t H = home(S.Addr);
    if (((J - H) & Mask) >= ((J - I) & Mask)) {
      Slots[I] = S;
      I = J;
    }
  }
  Slots[I].Entry = 0;
  --Live;
  return true;
}

} // namespace massif
