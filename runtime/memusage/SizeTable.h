//===- SizeTable.h - The requested size of each counted block ---*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// memusage learns a block's size at free and realloc from a 16-byte header
// it puts in front of every block, which changes what the program gets from
// malloc (its addresses, malloc_usable_size, which requests glibc serves
// with mmap). The program must get glibc's answers, so the size is kept
// beside the heap instead: one 8-byte slot for each 32-byte granule of the
// address space, at an index that follows the address.
//
//   Leaves --> Leaf[Addr >> 30] --> Slot[(Addr >> 5) & (2^25 - 1)]
//              (mapped on first use; leaves of 256 MiB of address space,
//               whose pages stay untouched until a block lies there)
//
// A slot holds (size + 1) << 1 | bit 4 of the address, 0 when empty. glibc
// never hands out two blocks less than 32 bytes apart, so each live block
// has a slot to itself and bit 4 tells its start from the other 16-aligned
// address of the granule. Neighbouring blocks share cache lines here as in
// the heap. Resident cost: 8 bytes per 32 bytes of heap touched, half of
// what memusage's headers cost small blocks.
//
// A slot belongs to its block from the moment glibc returns the block until
// the call that frees it, which clears the slot before glibc sees the free:
// glibc's own ordering of the free and of the next allocation at that
// address orders the slot's stores, and they need no atomics. Leaves are
// published with a compare-and-swap. Zero-initialised as a global.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_MEMUSAGE_SIZETABLE_H
#define MASSIF_MEMUSAGE_SIZETABLE_H

#include <stddef.h>
#include <stdint.h>

namespace massif {
namespace memusage {

class SizeTable {
public:
  static constexpr unsigned AddressBits = 47, LeafBits = 30, GranuleBits = 5;
  static constexpr uint64_t NumLeaves = uint64_t(1) << (AddressBits - LeafBits);
  static constexpr uint64_t SlotsPerLeaf = uint64_t(1)
                                           << (LeafBits - GranuleBits);

  /// Records that the block at P was asked for with Len bytes. False when
  /// the table cannot hold it (no memory, or not a heap address).
  bool insert(const void *P, size_t Len) {
    uint64_t *S = slot(P, /*Create=*/true);
    if (!S)
      return false;
    __atomic_store_n(S, ((uint64_t)Len + 1) << 1 | tag(P), __ATOMIC_RELAXED);
    return true;
  }

  /// Takes the record of the block at P: its size in Len. False when no
  /// counted block begins at P.
  bool remove(const void *P, size_t &Len) {
    uint64_t *S = slot(P, /*Create=*/false);
    if (!S)
      return false;
    uint64_t V = __atomic_load_n(S, __ATOMIC_RELAXED);
    if (V == 0 || (V & 1) != tag(P))
      return false;
    __atomic_store_n(S, (uint64_t)0, __ATOMIC_RELAXED);
    Len = (size_t)((V >> 1) - 1);
    return true;
  }

private:
  static uint64_t tag(const void *P) { return ((uintptr_t)P >> 4) & 1; }
  uint64_t *slot(const void *P, bool Create) {
    uintptr_t A = (uintptr_t)P;
    if ((A & 15) != 0 || (A >> AddressBits) != 0)
      return nullptr;
    uint64_t **Top = __atomic_load_n(&Leaves, __ATOMIC_ACQUIRE);
    if (__builtin_expect(!Top, 0) && !(Create && (Top = mapTop())))
      return nullptr;
    uint64_t *Leaf = __atomic_load_n(&Top[A >> LeafBits], __ATOMIC_ACQUIRE);
    if (__builtin_expect(!Leaf, 0) &&
        !(Create && (Leaf = mapLeaf(Top[A >> LeafBits]))))
      return nullptr;
    return &Leaf[(A >> GranuleBits) & (SlotsPerLeaf - 1)];
  }
  uint64_t **mapTop();
  uint64_t *mapLeaf(uint64_t *&Entry);

  uint64_t **Leaves;
};

} // namespace memusage
} // namespace massif

#endif // MASSIF_MEMUSAGE_SIZETABLE_H
