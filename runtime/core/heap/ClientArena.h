//===- ClientArena.h - Valgrind's client arena, as book-keeping -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Under Valgrind, a block's slop is what Valgrind's own allocator (the
// client arena of m_mallocfree.c) handed out beyond the request, and that
// depends on the history: a freed block is reused whole when the rest would
// be too small to split off. This class replays that allocator as pure
// book-keeping over simulated addresses, so that for the same sequence of
// requests it gives every block the usable size Valgrind 3.19 gives it on
// amd64 under Massif. docs/DESIGN-core.md, "The client arena", lists the
// rules it follows.
//
// Every block, live or free, is a 24-byte Node in one growable pool,
// named by its index (0: none). Each superblock ends with a sentinel node
// at its end address, so a block's size is always the distance to the
// next node's address.
//
//   Word  = owner's high bits:16 | address:44 | flags:4
//   Prev, Next   neighbours in address order (Prev 0: first of its
//                superblock; the last block's Next is the sentinel)
//   X, Y         a free block's free-list links; for a live block, two
//                words its owner (the Profile) keeps there
//
// A "detached" node is a live block outside the arena (the engine gave its
// slop); its Prev and Next hold that slop, and the 60 bits of its Word
// above the flags are the owner's.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_CLIENTARENA_H
#define MASSIF_CORE_CLIENTARENA_H

#include "Base.h"

namespace massif {

class ClientArena {
public:
  struct Node {
    uint64_t Word;
    uint32_t Prev, Next;
    uint32_t X, Y;
  };
  static_assert(sizeof(Node) == 24, "a node must stay 24 bytes");

  /// DefaultAlignB is --alignment, the alignment of plain allocations.
  /// Returns false when memory is exhausted.
  bool init(const Allocator &A, uint64_t DefaultAlignB);

  /// malloc (AlignB 0: aligned to --alignment) or memalign (AlignB as the
  /// program asked; below 16 is 16, others round up to a power of two).
  /// Returns the live block and sets UsableB to what Valgrind's
  /// malloc_usable_size says of it, or returns 0 when the model's memory
  /// is exhausted. Inline, in ClientArenaHot.h.
  uint32_t allocate(uint64_t ReqB, uint64_t AlignB, uint64_t &UsableB);

  /// A live block outside the arena, whose slop the engine knows.
  uint32_t detached(uint64_t SlopB);

  /// free of a live block (arena or detached). Inline, in ClientArenaHot.h.
  void release(uint32_t Id);

  /// Gives back the replay's memory; no call may follow but discard().
  void discard();

  bool isDetached(uint32_t Id) const { return Nodes[Id].Word & Detached; }
  /// What Valgrind's malloc_usable_size says of an arena block.
  uint64_t usableB(uint32_t Id) const { return sizeB(Id) - OverheadB; }
  /// The slop of a detached block.
  uint64_t detachedSlopB(uint32_t Id) const {
    return uint64_t(Nodes[Id].Next) << 32 | Nodes[Id].Prev;
  }
  void setDetachedSlopB(uint32_t Id, uint64_t SlopB) {
    Nodes[Id].Prev = uint32_t(SlopB);
    Nodes[Id].Next = uint32_t(SlopB >> 32);
  }

  /// The owner's fields of a live block: 16 high bits and two words.
  uint32_t ownerHigh(uint32_t Id) const { return uint32_t(Nodes[Id].Word >> 48); }
  uint32_t &ownerX(uint32_t Id) { return Nodes[Id].X; }
  uint32_t &ownerY(uint32_t Id) { return Nodes[Id].Y; }
  void setOwnerHigh(uint32_t Id, uint32_t High) {
    Nodes[Id].Word = (Nodes[Id].Word & LowMask) | uint64_t(High & 0xFFFF) << 48;
  }
  /// The owner's 60 bits of a detached block's Word.
  uint64_t detachedOwnerBits(uint32_t Id) const {
    return Nodes[Id].Word >> FlagBits;
  }
  void setDetachedOwnerBits(uint32_t Id, uint64_t Bits) {
    Nodes[Id].Word = Bits << FlagBits | (Nodes[Id].Word & FlagMask);
  }
  static constexpr uint64_t MaxDetachedOwnerBits = ~uint64_t(0) >> 4;

  /// The simulated address of a live block's payload (for tests).
  uint64_t payloadAddr(uint32_t Id) const { return addr(Id) + OverheadLoB; }
  /// Number of superblocks currently mapped (for tests).
  uint32_t numSuperblocks() const { return NumSbs; }

  // Valgrind 3.19, amd64, client arena under Massif (no redzone asked).
  static constexpr uint64_t MinAlignB = 16;
  static constexpr uint64_t OverheadLoB = 16; ///< size word + 8-byte redzone
  static constexpr uint64_t OverheadB = 32;   ///< also the smallest block
  static constexpr uint64_t SbHeaderB = 32;
  static constexpr uint64_t MinSbB = 4194304;
  static constexpr uint64_t PageB = 4096;
  static constexpr uint32_t NumLists = 112;
  /// Where the first superblock lands for a C program linked with glibc
  /// 2.36 alone when the loader's cache (/etc/ld.so.cache) takes 11 pages.
  /// Only the order of an xtree of the live blocks (Massif's hash table is
  /// keyed by address) and alignments above a page depend on it.
  static constexpr uint64_t DefaultHeapBase = 0x4A3A000;

  /// Places the first superblock of the arenas made from now on at Base
  /// (one process has one model); before any block.
  static void setHeapBase(uint64_t Base);

private:
  static constexpr uint64_t InUse = 1, Sentinel = 2, Unsplittable = 4,
                            Detached = 8;
  static constexpr unsigned FlagBits = 4;
  static constexpr uint64_t FlagMask = (uint64_t(1) << FlagBits) - 1;
  static constexpr uint64_t AddrMask = 0x0000FFFFFFFFFFF0ull;
  static constexpr uint64_t LowMask = 0x0000FFFFFFFFFFFFull;

  struct Superblock {
    uint64_t Base, SizeB;
  };

  uint64_t addr(uint32_t Id) const { return Nodes[Id].Word & AddrMask; }
  uint64_t sizeB(uint32_t Id) const { return addr(Nodes[Id].Next) - addr(Id); }
  bool inUse(uint32_t Id) const { return Nodes[Id].Word & InUse; }
  static uint32_t listOf(uint64_t PayloadB);

  bool reserveNodes(uint32_t Count) {
    return SpareNodes >= Count || growNodes(Count);
  }
  bool growNodes(uint32_t Count);
  uint32_t newNode(uint64_t Addr, uint64_t Flags);
  void freeNode(uint32_t Id);
  uint32_t splitAt(uint32_t Id, uint64_t Addr, uint64_t Flags);
  void unchain(uint32_t Id);

  void linkFree(uint32_t Id, uint32_t List);
  void unlinkFree(uint32_t Id, uint32_t List);
  void takeOver(uint32_t Id, uint32_t List);
  void rejoin(uint32_t List);
  void swizzle(uint32_t List);
  uint32_t firstNonEmpty(uint32_t From) const;

  uint32_t mallocBlock(uint64_t ReqB, bool MayBeUnsplittable,
                       uint64_t &UsableB);
  uint32_t memalignBlock(uint64_t ReqB, uint64_t AlignB, uint64_t &UsableB);
  uint32_t newSuperblock(uint64_t BlockB, bool MayBeUnsplittable);
  void deferReclaim(uint32_t First);
  void reclaim(uint32_t First);

  Allocator A{};
  uint64_t DefaultAlignB = MinAlignB;
  Node *Nodes = nullptr;
  uint32_t NodeCap = 0;
  uint32_t NodesUsed = 1; ///< node 0 is "none"
  uint32_t FreeNodes = 0; ///< recycled nodes, chained through X
  uint32_t SpareNodes = 0; ///< nodes newNode can hand out without growing
  uint32_t Heads[NumLists] = {};
  uint64_t NonEmpty[2] = {};
  Superblock *Sbs = nullptr; ///< sorted by address
  uint32_t NumSbs = 0, SbCap = 0;
  uint32_t Deferred = 0; ///< first block of the superblock awaiting reclaim
};

} // namespace massif

#endif // MASSIF_CORE_CLIENTARENA_H
