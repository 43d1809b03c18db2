//===- BlockTable.h - Live heap blocks, keyed by address --------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Massif keeps one record per live block: its address, requested bytes,
// slop bytes and the allocation-tree entry it is charged to. This is that
// table: open addressing with linear probing over an array of keys, with
// the records in a parallel array, so a probe reads eight keys per cache
// line and touches the record only once found. Deletion shifts the rest of
// the probe cluster back, leaving no tombstones. (Robin Hood ordering was
// tried: it costs more instructions per insert/erase pair than it saves in
// probes at these load factors.)
//
//   Keys[i]  = ~address (0: empty slot; no block lives at address ~0)
//   Recs[i]  = { ReqLo, ReqHi:16 | SlopHi:16, SlopLo, Entry }   16 bytes
//
// 24 bytes per slot, at most 3/4 full: a live block costs 32..64 bytes
// including the table's slack. Sizes are kept in 48 bits (user-space blocks
// are far smaller than 2^48 bytes).
//
// As in Massif, the same address may be recorded twice (a client request
// can do that); lookups then find the most recently recorded one.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_BLOCKTABLE_H
#define MASSIF_CORE_BLOCKTABLE_H

#include "Base.h"

namespace massif {

/// A live block as the model sees it.
struct BlockRecord {
  uint64_t Addr;
  uint64_t ReqB;
  uint64_t SlopB;
  uint32_t Entry; ///< allocation-tree entry charged
};

class BlockTable {
public:
  /// Returns false when memory is exhausted.
  bool init(const Allocator &A);

  /// Records a block. Returns false (and records nothing) when the table
  /// cannot grow.
  __attribute__((always_inline)) bool insert(const BlockRecord &B) {
    if (Live >= GrowAt && !grow())
      return false;
    uint64_t I = home(B.Addr);
    if (Keys[I] == 0) { // the common case: the home slot is free
      Keys[I] = ~B.Addr;
      Recs[I] = pack(B);
    } else {
      place(~B.Addr, pack(B), I, /*NewestFirst=*/true);
    }
    ++Live;
    return true;
  }

  /// Removes the block at Addr into Out; false when Addr is unknown.
  __attribute__((always_inline)) bool remove(uint64_t Addr, BlockRecord &Out) {
    uint64_t Key = ~Addr;
    uint64_t I = home(Addr);
    for (; Keys[I] != Key; I = (I + 1) & Mask)
      if (Keys[I] == 0)
        return false;
    unpack(Addr, Recs[I], Out);
    erase(I);
    return true;
  }

  /// Looks the block at Addr up without removing it.
  bool find(uint64_t Addr, BlockRecord &Out) const {
    uint64_t Key = ~Addr;
    uint64_t I = home(Addr);
    for (; Keys[I] != Key; I = (I + 1) & Mask)
      if (Keys[I] == 0)
        return false;
    unpack(Addr, Recs[I], Out);
    return true;
  }

  /// Number of live blocks.
  uint64_t size() const { return Live; }

private:
  struct Rec {
    uint32_t ReqLo;
    uint16_t ReqHi;
    uint16_t SlopHi;
    uint32_t SlopLo;
    uint32_t Entry;
  };
  static_assert(sizeof(Rec) == 16, "a record must stay 16 bytes");

  uint64_t home(uint64_t Addr) const {
    // Fibonacci hashing of the address without its low four bits, which
    // are zero for every malloc'd block.
    return ((Addr >> 4) * 0x9E3779B97F4A7C15ull) >> Shift;
  }
  static Rec pack(const BlockRecord &B) {
    return Rec{uint32_t(B.ReqB), uint16_t(B.ReqB >> 32),
               uint16_t(B.SlopB >> 32), uint32_t(B.SlopB), B.Entry};
  }
  static void unpack(uint64_t Addr, const Rec &R, BlockRecord &Out) {
    Out.Addr = Addr;
    Out.ReqB = uint64_t(R.ReqHi) << 32 | R.ReqLo;
    Out.SlopB = uint64_t(R.SlopHi) << 32 | R.SlopLo;
    Out.Entry = R.Entry;
  }
  /// How far the key in slot I is from its home slot.
  uint64_t distance(uint64_t I) const { return (I - home(~Keys[I])) & Mask; }
  bool grow();
  void place(uint64_t Key, Rec R, uint64_t I, bool NewestFirst);
  void erase(uint64_t I);

  Allocator A{};
  uint64_t *Keys = nullptr;
  Rec *Recs = nullptr;
  uint64_t Mask = 0; ///< capacity - 1
  uint32_t Shift = 64;
  uint64_t Live = 0;
  uint64_t GrowAt = 0; ///< 3/4 of the capacity
};

} // namespace massif

#endif // MASSIF_CORE_BLOCKTABLE_H
