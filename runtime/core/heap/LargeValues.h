//===- LargeValues.h - Record values too large for a node ----*- C++ -*-===//
//-*-===//
//
// Part of massif-native, under the MIT licence.
//
// A block's record lives in its node of the replayed allocator
// (ClientArena.h), where the slop of an arena block has 16 bits and the
// request of a detached block 60. The rare value that does not fit (an
// in-place realloc that shrank a large block, a client request's huge
// block) is kept here instead, by node id: open addressing with linear
// probing, id 0 marking an empty slot (node 0 is never handed out), at
// most half full; deletion shifts the rest of the probe cluster back.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_LARGEVALUES_H
#define MASSIF_CORE_LARGEVALUES_H

#include "Base.h"
#include "Memory.h"

namespace massif {

class LargeValues {
public:
  void init(const Allocator &Alloc) { A = Alloc; }

  /// The value kept for Id, which must have one.
  uint64_t get(uint32_t Id) const {
    uint32_t S = home(Id);
    while (Slots[S].Id != Id)
      S = (S + 1) & (Cap - 1);
    return Slots[S].Value;
  }

  /// Keeps Value for Id, replacing any it had. False when memory is
  /// exhausted.
  bool set(uint32_t Id, uint64_t Value) {
    if ((Live + 1) * 2 > Cap && !grow())
      return false;
    uint32_t S = home(Id);
    while (Slots[S].Id && Slots[S].Id != Id)
      S = (S + 1) & (Cap - 1);
    Live += Slots[S].Id == 0;
    Slots[S] = Slot{Id, Value};
    return true;
  }

  /// Forgets Id's value, if it has one.
  void erase(uint32_t Id) {
    if (!Live)
      return;
    const uint32_t Mask = Cap - 1;
    uint32_t S = home(Id);
    while (Slots[S].Id && Slots[S].Id != Id)
      S = (S + 1) & Mask;
    if (!Slots[S].Id)
      return;
    uint32_t Hole = S;
    for (uint32_t J = (S + 1) & Mask; Slots[J].Id; J = (J + 1) & Mask) {
      uint32_t Home = home(Slots[J].Id);
      if (((J - Home) & Mask) >= ((J - Hole) & Mask)) {
        Slots[Hole] = Slots[J];
        Hole = J;
      }
    }
    Slots[Hole] = Slot{};
    --Live;
  }

  uint32_t size() const { return Live; }

  void discard() {
    freeArray(A, Slots, Cap);
    Slots = nullptr;
    Cap = Live = 0;
  }

private:
  struct Slot {
    uint32_t Id;
    uint64_t Value;
  };

  uint32_t home(uint32_t Id) const {
    return uint32_t((uint64_t(Id) * 0x9E3779B97F4A7C15ull) >> 32) & (Cap - 1);
  }

  bool grow() {
    uint32_t NewCap = Cap ? Cap * 2 : 16;
    Slot *New = allocArray<Slot>(A, NewCap);
    if (!New)
      return false; // (allocArray's slots are zero: empty)
    Slot *Old = Slots;
    uint32_t OldCap = Cap;
    Slots = New;
    Cap = NewCap;
    for (uint32_t I = 0; I < OldCap; ++I)
      if (Old[I].Id) {
        uint32_t S = home(Old[I].Id);
        while (Slots[S].Id)
          S = (S + 1) & (Cap - 1);
        Slots[S] = Old[I];
      }
    freeArray(A, Old, OldCap);
    return true;
  }

  Allocator A{};
  Slot *Slots = nullptr;
  uint32_t Cap = 0, Live = 0;
};

} // namespace massif

#endif // MASSIF_CORE_LARGEVALUES_H
