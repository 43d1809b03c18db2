//===- BlockTable.h - Live heap blocks, keyed by address --------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Massif finds a live block's record by its address. This table maps the
// address to the block's node in the model's ClientArena (which holds the
// requested size, the allocation-tree entry and the simulated allocator's
// state).
//
// A hash of the address would put the records of neighbouring blocks on
// unrelated cache lines, and every event would miss. Instead each 32-byte
// granule of the address space has a 4-byte slot of its own, at an index
// that follows the address:
//
//   Top[Addr >> 28] --> Leaf[(Addr >> 5) & (2^23 - 1)] = Id << 1 | Addr bit 4
//                        (0: empty; 32 MiB each, pages untouched until used)
//
// glibc never hands out two blocks less than 32 bytes apart (its smallest
// chunk), so every block it returns has a slot to itself, and blocks made
// together share cache lines here as they do in the heap. The slot keeps
// bit 4 of the address, so a 16-aligned address finds exactly its own
// record. Resident cost: 4 bytes per 32 bytes of heap the program touches,
// and the leaves' virtual size, which the Allocator must hand out lazily
// zeroed (mmap'd) for the cost to stay that low.
//
// Whatever a slot cannot hold goes to an AddressHash: misaligned or
// too-high addresses, ids of 2^31 and more, a second block in a granule,
// and the older records of an address recorded twice (a client request can
// do that; lookups find the most recent record first, as in Massif).
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_BLOCKTABLE_H
#define MASSIF_CORE_BLOCKTABLE_H

#include "AddressHash.h"
#include "Base.h"

namespace massif {

class BlockTable {
public:
  /// Returns false when memory is exhausted.
  bool init(const Allocator &A);

  /// Records the block at Addr as node Id. Returns false (and records
  /// nothing) when memory is exhausted.
  MASSIF_ALWAYS_INLINE bool insert(uint64_t Addr, uint32_t Id) {
    uint32_t *S = slotFor(Addr);
    if (__builtin_expect(S && *S == 0 && fits(Id), 1)) {
      *S = Id << 1 | tagOf(Addr);
      ++DirectLive;
      return true;
    }
    return insertSlow(Addr, Id, S);
  }

  /// Removes the most recent record of Addr, giving its node; false when
  /// there is none.
  MASSIF_ALWAYS_INLINE bool remove(uint64_t Addr, uint32_t &Id) {
    uint32_t *S = lookupSlot(Addr);
    if (__builtin_expect(holds(S, Addr), 1)) {
      Id = *S >> 1;
      *S = 0;
      --DirectLive;
      if (__builtin_expect(Others.size() != 0, 0))
        refill(Addr, S);
      return true;
    }
    return Others.size() != 0 && Others.remove(Addr, Id);
  }

  /// Looks the most recent record of Addr up without removing it.
  bool find(uint64_t Addr, uint32_t &Id) const {
    const uint32_t *S = lookupSlot(Addr);
    if (holds(S, Addr)) {
      Id = *S >> 1;
      return true;
    }
    return Others.size() != 0 && Others.find(Addr, Id);
  }

  /// Number of live records.
  uint64_t size() const { return DirectLive + Others.size(); }

  /// Calls Fn(Ctx, Addr, Id) for every live record, in no particular
  /// order. Reads every slot of the leaves made: for reports, not events.
  void forEach(void (*Fn)(void *Ctx, uint64_t Addr, uint32_t Id),
               void *Ctx) const;

  /// Gives back the table's memory; no call may follow but discard().
  void discard();

  // The direct slots' geometry.
  static constexpr uint32_t GranuleBits = 5;
  static constexpr uint32_t LeafBits = 28; ///< address bits a leaf covers
  static constexpr uint32_t AddressBits = 47;
  static constexpr uint64_t SlotsPerLeaf = uint64_t(1)
                                           << (LeafBits - GranuleBits);
  static constexpr uint64_t NumLeaves = uint64_t(1) << (AddressBits - LeafBits);

private:
  static uint32_t tagOf(uint64_t Addr) { return uint32_t(Addr >> 4) & 1; }
  static bool fits(uint32_t Id) { return Id != 0 && Id < (1u << 31); }
  /// Whether slot S (or null) holds a record of Addr.
  static bool holds(const uint32_t *S, uint64_t Addr) {
    return S && *S != 0 && (*S & 1) == tagOf(Addr);
  }
  static bool direct(uint64_t Addr) {
    return (Addr & 15) == 0 && (Addr >> AddressBits) == 0;
  }
  /// The slot of Addr, or null when it has none yet.
  uint32_t *lookupSlot(uint64_t Addr) const {
    if (!direct(Addr))
      return nullptr;
    uint32_t *Leaf = Top[Addr >> LeafBits];
    return Leaf ? &Leaf[(Addr >> GranuleBits) & (SlotsPerLeaf - 1)] : nullptr;
  }
  /// The slot of Addr, its leaf made when needed; null when it can have
  /// none (or memory is exhausted).
  uint32_t *slotFor(uint64_t Addr) {
    uint32_t *S = lookupSlot(Addr);
    return S || !direct(Addr) ? S : newLeaf(Addr);
  }
  uint32_t *newLeaf(uint64_t Addr);
  bool insertSlow(uint64_t Addr, uint32_t Id, uint32_t *S);
  void refill(uint64_t Addr, uint32_t *S);

  Allocator A{};
  uint32_t **Top = nullptr; ///< NumLeaves leaf pointers
  static constexpr uint32_t MaxListed = 32;
  uint32_t Made[MaxListed] = {}; ///< the indices in Top of the leaves made
  uint32_t NumMade = 0;
  uint64_t DirectLive = 0;
  AddressHash Others;
};

} // namespace massif

#endif // MASSIF_CORE_BLOCKTABLE_H
