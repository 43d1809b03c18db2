//===- BlockTable.h - Live heap blocks, keyed by address --------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Massif keeps one record per live block: its address, requested bytes,
// slop bytes and the allocation-tree entry it is charged to. This is that
// table: open addressing with linear probing, 24-byte slots, at most 3/4
// full, so a live block costs 32..64 bytes including the table's slack.
// Sizes are stored in 48 bits (user-space blocks are far smaller than
// 2^48 bytes). A slot is empty when its Entry is 0; entries start at 1.
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
  uint32_t Entry; ///< allocation-tree entry charged; never 0
};

class BlockTable {
public:
  /// Returns false when memory is exhausted.
  bool init(const Allocator &A);

  /// Records a block. Returns false (and records nothing) when the table
  /// cannot grow.
  bool insert(const BlockRecord &B);

  /// Removes the block at Addr into Out; false when Addr is unknown.
  bool remove(uint64_t Addr, BlockRecord &Out);

  /// Looks the block at Addr up without removing it.
  bool find(uint64_t Addr, BlockRecord &Out) const;

  /// Number of live blocks.
  uint64_t size() const { return Live; }

  /// Bytes of table memory per slot (for the memory budget test).
  static constexpr size_t SlotSizeB = 24;

private:
  struct Slot {
    uint64_t Addr;
    uint32_t ReqLo;
    uint32_t SlopLo;
    uint32_t Entry;
    uint16_t ReqHi;
    uint16_t SlopHi;
  };
  static_assert(sizeof(Slot) == SlotSizeB, "a slot must stay 24 bytes");

  uint64_t home(uint64_t Addr) const {
    return ((Addr >> 4) * 0x9E3779B97F4A7C15ull) >> Shift;
  }
  bool grow();
  void place(const Slot &S, bool NewestFirst);
  static Slot pack(const BlockRecord &B);
  static void unpack(const Slot &S, BlockRecord &Out);

  Allocator A{};
  Slot *Slots = nullptr;
  uint64_t Mask = 0; ///< capacity - 1
  uint32_t Shift = 64;
  uint64_t Live = 0;
};

} // namespace massif

#endif // MASSIF_CORE_BLOCKTABLE_H
