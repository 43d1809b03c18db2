//===- LiveStarts.h - Which addresses begin a live heap block ---*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// glibc aborts the program at a second free of a block, or at a free or
// realloc of an address that begins no block. Massif's allocator does not:
// it ignores a second free and returns NULL from such a realloc (and dies
// itself at a free inside a block). The runtime answers as Massif does, so
// it must know, at the call, whether an address begins a live block of
// glibc's. The model cannot tell at once (with threads, its events wait in
// the rings), and it does not know the blocks the runtime's own guard let
// through unrecorded (dlsym's, libdw's, the C++ operators' inner mallocs).
//
// So every block glibc hands out through the interposers, recorded or not,
// is marked here from the moment it is returned until the call that frees
// it claims it, before glibc sees the free. Two bits a 16-byte granule
// (glibc's blocks begin 16-aligned, at least 32 bytes apart), in leaves of
// 16 MiB that cover 1 GiB of address space each, mapped on first use and
// touched only where the heap is (a 4 KiB page of marks per 256 KiB):
//
//   Leaves[Addr >> 30] --> word[(Addr >> 9) & (2^21 - 1)], bits 2 * ((Addr >> 4) & 31)
//                          Live = 01, Freed = 10 (a block began there and was freed)
//
// While the process has one thread the marks are plain stores; with
// threads, a compare-and-swap on the word. A leaf that cannot be mapped
// leaves its addresses unmarked, and claims there are then let through,
// as before this map existed. Constant-initialised; works from the first
// malloc of the process, before the runtime starts, and after it ends.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_LIVESTARTS_H
#define MASSIF_NATIVE_LIVESTARTS_H

#include "Base.h"
#include "Lock.h"

#include <stdint.h>

namespace massif {
namespace native {

/// What a claim found at an address.
enum class Claim : uint8_t {
  Live,    ///< a live block began there: now claimed, free it
  Freed,   ///< a block began there and was freed already (a second free)
  Unknown, ///< no block began there (inside a block, or not heap at all)
};

class LiveStarts {
public:
  static constexpr uint32_t LeafBits = 30;
  static constexpr uint32_t AddressBits = 47;
  static constexpr uint64_t NumLeaves = uint64_t(1) << (AddressBits - LeafBits);
  static constexpr uint64_t WordsPerLeaf = uint64_t(1) << (LeafBits - 9);

  /// Marks P, just returned by glibc, as the start of a live block.
  MASSIF_ALWAYS_INLINE void mark(const void *P) {
    uint64_t A = (uint64_t)P;
    uint64_t *W = word(A);
    if (!W && !(W = makeLeaf(A)))
      return;
    update(W, shift(A), LiveBits);
  }

  /// Claims P for a free or realloc: Live when a live block began there
  /// (its mark is now Freed), else what was found. An address the map
  /// cannot cover is Live: glibc decides, as before.
  MASSIF_ALWAYS_INLINE Claim claim(const void *P) {
    uint64_t A = (uint64_t)P;
    if (A & 15)
      return Claim::Unknown;
    uint64_t *W = word(A);
    if (!W)
      return uncovered(A);
    uint32_t S = shift(A);
    if (__atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED)) {
      uint64_t Old = *W;
      uint64_t Bits = (Old >> S) & 3;
      if (Bits != LiveBits)
        return Bits == FreedBits ? Claim::Freed : Claim::Unknown;
      *W = Old ^ (uint64_t(3) << S);
      return Claim::Live;
    }
    uint64_t Old = __atomic_load_n(W, __ATOMIC_RELAXED);
    for (;;) {
      uint64_t Bits = (Old >> S) & 3;
      if (Bits != LiveBits)
        return Bits == FreedBits ? Claim::Freed : Claim::Unknown;
      if (__atomic_compare_exchange_n(W, &Old, Old ^ (uint64_t(3) << S), true,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return Claim::Live;
    }
  }

  /// Whether a live block begins at P (no change).
  bool isLive(const void *P) const {
    uint64_t A = (uint64_t)P;
    if (A & 15)
      return false;
    const uint64_t *W = word(A);
    if (!W)
      return uncovered(A) == Claim::Live;
    return ((__atomic_load_n(W, __ATOMIC_RELAXED) >> shift(A)) & 3) ==
           LiveBits;
  }

private:
  static constexpr uint64_t LiveBits = 1, FreedBits = 2;

  static uint32_t shift(uint64_t A) { return uint32_t((A >> 4) & 31) * 2; }

  uint64_t *word(uint64_t A) const {
    if (A >> AddressBits)
      return nullptr;
    uint64_t *Leaf = __atomic_load_n(&Leaves[A >> LeafBits], __ATOMIC_ACQUIRE);
    return Leaf ? &Leaf[(A >> 9) & (WordsPerLeaf - 1)] : nullptr;
  }

  /// Sets the two bits at S of *W to Bits.
  MASSIF_ALWAYS_INLINE static void update(uint64_t *W, uint32_t S,
                                          uint64_t Bits) {
    uint64_t Mask = uint64_t(3) << S;
    if (__atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED)) {
      *W = (*W & ~Mask) | Bits << S;
      return;
    }
    uint64_t Old = __atomic_load_n(W, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(W, &Old, (Old & ~Mask) | Bits << S,
                                        true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED))
      ;
  }

  uint64_t *makeLeaf(uint64_t A);
  Claim uncovered(uint64_t A) const;

  uint64_t *Leaves[NumLeaves] = {};
  /// Some leaf could not be mapped: addresses without a leaf are unknown
  /// to the map, not free of blocks.
  bool Incomplete = false;
};

/// The process's map (LiveStarts.cpp).
extern LiveStarts TheLiveStarts __attribute__((visibility("hidden")));

/// Says once on stderr that a free of P was ignored because no block
/// began there (where Valgrind's allocator would abort).
void warnIgnoredFree(const void *P);

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_LIVESTARTS_H
