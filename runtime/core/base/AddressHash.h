//===- AddressHash.h - Block address to node id, hashed ---------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// A map from any block address to a node id, for the records the
// BlockTable's direct slots cannot hold: open addressing with linear
// probing over an array of keys, with the node ids in a parallel array, so
// a probe reads eight keys per cache line. Deletion shifts the rest of the
// probe cluster back, leaving no tombstones. (Robin Hood ordering was
// tried: it costs more instructions per insert/erase pair than it saves in
// probes at these load factors.)
//
//   Keys[i] = ~address (0: empty slot; no block lives at address ~0)
//   Ids[i]  = node id                                      12 bytes a slot
//
// At most 3/4 full, an address costs 16..32 bytes here.
//
// As in Massif, the same address may be recorded twice (a client request
// can do that); lookups then find the most recently recorded one.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_ADDRESSHASH_H
#define MASSIF_CORE_ADDRESSHASH_H

#include "Base.h"

namespace massif {

class AddressHash {
public:
  /// Returns false when memory is exhausted.
  bool init(const Allocator &A);

  /// Records the block at Addr as node Id. Returns false (and records
  /// nothing) when the table cannot grow.
  MASSIF_ALWAYS_INLINE bool insert(uint64_t Addr, uint32_t Id) {
    if (Live >= GrowAt && !grow())
      return false;
    uint64_t I = home(Addr);
    if (Keys[I] == 0) { // the common case: the home slot is free
      Keys[I] = ~Addr;
      Ids[I] = Id;
    } else {
      place(~Addr, Id, I, /*NewestFirst=*/true);
    }
    ++Live;
    return true;
  }

  /// Calls Fn(Ctx, Addr, Id) for every record, in no particular order.
  void forEach(void (*Fn)(void *Ctx, uint64_t Addr, uint32_t Id),
               void *Ctx) const {
    for (uint64_t I = 0; Keys && I <= Mask; ++I)
      if (Keys[I])
        Fn(Ctx, ~Keys[I], Ids[I]);
  }

  /// Removes the block at Addr, giving its node; false when unknown.
  MASSIF_ALWAYS_INLINE bool remove(uint64_t Addr, uint32_t &Id) {
    uint64_t I;
    if (!slotOf(Addr, I))
      return false;
    Id = Ids[I];
    erase(I);
    return true;
  }

  /// Looks the block at Addr up without removing it.
  bool find(uint64_t Addr, uint32_t &Id) const {
    uint64_t I;
    if (!slotOf(Addr, I))
      return false;
    Id = Ids[I];
    return true;
  }

  /// Number of records.
  uint64_t size() const { return Live; }

  /// Gives back the table's memory; no call may follow but discard().
  void discard();

private:
  uint64_t home(uint64_t Addr) const {
    // Fibonacci hashing of the address without its low four bits, which
    // are zero for every malloc'd block.
    return ((Addr >> 4) * 0x9E3779B97F4A7C15ull) >> Shift;
  }
  /// The slot of Addr's most recent record, if it has one.
  MASSIF_ALWAYS_INLINE bool slotOf(uint64_t Addr, uint64_t &I) const {
    uint64_t Key = ~Addr;
    for (I = home(Addr); Keys[I] != Key; I = (I + 1) & Mask)
      if (Keys[I] == 0)
        return false;
    return true;
  }
  /// How far the key in slot I is from its home slot.
  uint64_t distance(uint64_t I) const { return (I - home(~Keys[I])) & Mask; }
  bool grow();
  void place(uint64_t Key, uint32_t Id, uint64_t I, bool NewestFirst);
  void erase(uint64_t I);

  Allocator A{};
  uint64_t *Keys = nullptr;
  uint32_t *Ids = nullptr;
  uint64_t Mask = 0; ///< capacity - 1
  uint32_t Shift = 64;
  uint64_t Live = 0;
  uint64_t GrowAt = 0; ///< 3/4 of the capacity
};

} // namespace massif

#endif // MASSIF_CORE_ADDRESSHASH_H
