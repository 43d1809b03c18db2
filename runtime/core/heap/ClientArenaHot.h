//===- ClientArenaHot.h - The replayed allocator's hot paths ----*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// ClientArena's malloc and free (allocate, release) and the steps they
// take every time, inline, so that the model's events (Profile.cpp)
// compile them into themselves: out of line, the two calls and the
// registers they save were a tenth of a malloc/free pair's cost. The rare
// steps (new superblocks, memalign, reclaiming, the node pool's growth,
// the swizzle) stay in ClientArena.cpp, whose header lists Valgrind's
// rules.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_CLIENTARENAHOT_H
#define MASSIF_CORE_CLIENTARENAHOT_H

#include "ClientArena.h"

namespace massif {
namespace client_arena {

constexpr uint64_t roundUp(uint64_t V, uint64_t To) {
  return (V + To - 1) & ~(To - 1);
}

/// Payload sizes / 16 below which lists 64..110 end (list 111 takes the
/// rest): Valgrind's pszB_to_listNo, a slope of factors 1.05, 1.1, 1.2.
inline constexpr uint32_t ListEnds[] = {
    67,   70,   74,   77,   81,   85,   90,   94,   99,   104,  109,  114,
    120,  126,  133,  139,  153,  169,  185,  204,  224,  247,  272,  299,
    329,  362,  398,  438,  482,  530,  583,  641,  770,  924,  1109, 1331,
    1597, 1916, 2300, 2760, 3312, 3974, 4769, 5723, 6868, 8241, 9890};
inline constexpr uint32_t NumListEnds = sizeof(ListEnds) / sizeof(ListEnds[0]);
static_assert(NumListEnds == 47, "lists 64..110 each need their end");
inline constexpr uint32_t LastListStart = ListEnds[NumListEnds - 1];

/// The list of every payload size / 16 below LastListStart, in one load.
struct ListTable {
  uint8_t Of[LastListStart];
  constexpr ListTable() : Of() {
    uint32_t List = 64;
    for (uint32_t N = 0; N < LastListStart; ++N) {
      while (List < 64 + NumListEnds && N >= ListEnds[List - 64])
        ++List;
      Of[N] = uint8_t(N < 64 ? N : List);
    }
  }
};
inline constexpr ListTable Lists;

/// Larger requests could not be simulated in 48-bit addresses.
inline constexpr uint64_t MaxReqB = uint64_t(1) << 40;
inline constexpr uint32_t SearchLimit = 100;
inline constexpr uint32_t SwizzleSteps = 5;

} // namespace client_arena

MASSIF_ALWAYS_INLINE uint32_t ClientArena::listOf(uint64_t PayloadB) {
  uint64_t N = PayloadB / MinAlignB;
  return N < client_arena::LastListStart ? client_arena::Lists.Of[N]
                                         : NumLists - 1;
}

MASSIF_ALWAYS_INLINE uint32_t ClientArena::newNode(uint64_t Addr,
                                                   uint64_t Flags) {
  uint32_t Id;
  if (FreeNodes) {
    Id = FreeNodes;
    FreeNodes = Nodes[Id].X;
  } else {
    Id = NodesUsed++;
  }
  --SpareNodes;
  // The links are the caller's to set.
  Nodes[Id].Word = Addr | Flags;
  return Id;
}

MASSIF_ALWAYS_INLINE void ClientArena::freeNode(uint32_t Id) {
  Nodes[Id].Word = 0;
  Nodes[Id].X = FreeNodes;
  FreeNodes = Id;
  ++SpareNodes;
}

MASSIF_ALWAYS_INLINE uint32_t ClientArena::splitAt(uint32_t Id, uint64_t Addr,
                                                   uint64_t Flags) {
  uint32_t N = newNode(Addr, Flags);
  uint32_t After = Nodes[Id].Next;
  Nodes[N].Prev = Id;
  Nodes[N].Next = After;
  Nodes[After].Prev = N;
  Nodes[Id].Next = N;
  return N;
}

MASSIF_ALWAYS_INLINE void ClientArena::unchain(uint32_t Id) {
  uint32_t Before = Nodes[Id].Prev, After = Nodes[Id].Next;
  if (Before)
    Nodes[Before].Next = After;
  Nodes[After].Prev = Before;
  freeNode(Id);
}

//===-- Free lists --------------------------------------------------------===//

// A free list is circular and doubly linked through X (previous) and Y
// (next); a block joins just before the head, i.e. at the tail.
MASSIF_ALWAYS_INLINE void ClientArena::linkFree(uint32_t Id, uint32_t List) {
  Nodes[Id].Word &= ~InUse;
  uint32_t Head = Heads[List];
  if (!Head) {
    Nodes[Id].X = Nodes[Id].Y = Id;
    Heads[List] = Id;
    NonEmpty[List >> 6] |= uint64_t(1) << (List & 63);
    return;
  }
  uint32_t Tail = Nodes[Head].X;
  Nodes[Tail].Y = Id;
  Nodes[Head].X = Id;
  Nodes[Id].Y = Head;
  Nodes[Id].X = Tail;
}

MASSIF_ALWAYS_INLINE void ClientArena::unlinkFree(uint32_t Id, uint32_t List) {
  uint32_t Before = Nodes[Id].X;
  if (Before == Id) {
    Heads[List] = 0;
    NonEmpty[List >> 6] &= ~(uint64_t(1) << (List & 63));
    return;
  }
  uint32_t After = Nodes[Id].Y;
  Heads[List] = Before;
  Nodes[Before].Y = After;
  Nodes[After].X = Before;
  swizzle(List);
}

MASSIF_ALWAYS_INLINE void ClientArena::takeOver(uint32_t Id, uint32_t List) {
  // What unlinking the list's one block and linking Id leaves: Id alone.
  // A split or merge at the end of a superblock does this every time.
  Nodes[Id].X = Nodes[Id].Y = Id;
  Heads[List] = Id;
}

MASSIF_ALWAYS_INLINE void ClientArena::rejoin(uint32_t List) {
  // A block linked at the tail and unlinked again: the head moves to the
  // tail, then the list swizzles.
  if (uint32_t Head = Heads[List]) {
    Heads[List] = Nodes[Head].X;
    swizzle(List);
  }
}

MASSIF_ALWAYS_INLINE uint32_t ClientArena::firstNonEmpty(uint32_t From) const {
  if (From >= NumLists)
    return NumLists;
  uint32_t W = From >> 6;
  uint64_t Bits = NonEmpty[W] & (~uint64_t(0) << (From & 63));
  while (!Bits) {
    if (++W == 2)
      return NumLists;
    Bits = NonEmpty[W];
  }
  return W * 64 + uint32_t(__builtin_ctzll(Bits));
}

//===-- Allocation --------------------------------------------------------===//

MASSIF_ALWAYS_INLINE uint32_t ClientArena::allocate(uint64_t ReqB,
                                                    uint64_t AlignB,
                                                    uint64_t &UsableB) {
  // The most one request takes: a superblock's block and sentinel, a
  // split-off rest and memalign's second block.
  if (!reserveNodes(4) || ReqB > client_arena::MaxReqB)
    return 0;
  uint64_t Align = AlignB ? AlignB : DefaultAlignB;
  if (Align <= MinAlignB)
    return mallocBlock(ReqB, /*MayBeUnsplittable=*/true, UsableB);
  if (Align & (Align - 1))
    Align = uint64_t(1) << (64 - __builtin_clzll(Align));
  if (Align > client_arena::MaxReqB)
    return 0;
  return memalignBlock(ReqB, Align, UsableB);
}

MASSIF_ALWAYS_INLINE uint32_t ClientArena::mallocBlock(uint64_t ReqB,
                                                       bool MayBeUnsplittable,
                                                       uint64_t &UsableB) {
  uint64_t PayloadB = client_arena::roundUp(ReqB, MinAlignB);
  uint64_t BlockB = PayloadB + OverheadB;
  uint32_t B, List = firstNonEmpty(listOf(PayloadB));
  uint64_t HaveB;
  if (List < 64) {
    // Lists below 64 hold one payload size each, at least the request's:
    // the head fits.
    B = Heads[List];
    HaveB = List * MinAlignB + OverheadB;
  } else {
    for (; List < NumLists; List = firstNonEmpty(List + 1)) {
      uint32_t Head = Heads[List];
      B = Head;
      for (uint32_t Searched = 1;; ++Searched) {
        if (Searched >= client_arena::SearchLimit && List < NumLists - 1) {
          // Move the head on, so later searches see the rest of the list.
          Heads[List] = Nodes[Head].Y;
          break;
        }
        HaveB = sizeB(B);
        if (HaveB >= BlockB)
          goto Found;
        B = Nodes[B].Y;
        if (B == Head)
          break;
      }
    }
    B = newSuperblock(BlockB, MayBeUnsplittable);
    if (!B)
      return 0;
    HaveB = sizeB(B);
    List = listOf(HaveB - OverheadB);
    if (Nodes[Nodes[B].Next].Word & Unsplittable) {
      unlinkFree(B, List); // a dedicated superblock is never split
      Nodes[B].Word |= InUse;
      UsableB = HaveB - OverheadB;
      return B;
    }
  }

Found:
  if (HaveB - BlockB < OverheadB) {
    unlinkFree(B, List);
    Nodes[B].Word |= InUse;
  } else {
    uint32_t RestList = listOf(HaveB - BlockB - OverheadB);
    bool Alone = Nodes[B].X == B;
    Nodes[B].Word |= InUse;
    uint32_t Rest = splitAt(B, addr(B) + BlockB, 0);
    if (Alone && RestList == List) {
      takeOver(Rest, List);
    } else {
      unlinkFree(B, List);
      linkFree(Rest, RestList);
    }
    HaveB = BlockB;
  }
  UsableB = HaveB - OverheadB;
  return B;
}

//===-- Release -----------------------------------------------------------===//

MASSIF_ALWAYS_INLINE void ClientArena::release(uint32_t B) {
  uint64_t Word = Nodes[B].Word;
  if (Word & Detached) {
    freeNode(B);
    return;
  }
  uint32_t After = Nodes[B].Next, Before = Nodes[B].Prev;
  uint64_t AfterWord = Nodes[After].Word;
  if (AfterWord & Unsplittable) {
    reclaim(B); // a dedicated superblock goes at once
    return;
  }
  // The addresses that bound B, its free neighbours and the merged block;
  // the sizes and lists follow from them without reading nodes again.
  const uint64_t Start = Word & AddrMask, AfterAddr = AfterWord & AddrMask;
  bool MergeAfter = !(AfterWord & InUse); // the sentinel counts as in use
  bool MergeBefore = Before && !inUse(Before);
  uint32_t List = listOf(AfterAddr - Start - OverheadB);
  if (!MergeAfter && !MergeBefore) {
    linkFree(B, List);
    if (!Before && (AfterWord & Sentinel))
      deferReclaim(B); // the superblock is wholly free
    return;
  }
  // Valgrind puts B on its list and merges it with its free neighbours:
  // each merge takes B off again, which leaves the list as it was but for
  // its head.
  rejoin(List);
  uint32_t Next = After; // the merged block's successor
  uint64_t End = AfterAddr;
  if (MergeAfter) {
    Next = Nodes[After].Next;
    End = addr(Next);
    uint32_t AfterList = listOf(End - AfterAddr - OverheadB);
    List = listOf(End - Start - OverheadB);
    if (!MergeBefore && AfterList == List && Nodes[After].X == After) {
      Nodes[B].Word &= ~InUse;
      takeOver(B, List);
      unchain(After);
    } else {
      unlinkFree(After, AfterList);
      unchain(After);
      if (MergeBefore)
        rejoin(List);
      else
        linkFree(B, List);
    }
  }
  if (MergeBefore) {
    uint64_t BeforeAddr = addr(Before);
    unlinkFree(Before, listOf(Start - BeforeAddr - OverheadB));
    unchain(B);
    B = Before;
    linkFree(B, listOf(End - BeforeAddr - OverheadB));
  }
  // The first block of a superblock keeps its node for the superblock's
  // life, so it names the superblock.
  if (!Nodes[B].Prev && (Nodes[Next].Word & Sentinel))
    deferReclaim(B);
}

} // namespace massif

#endif // MASSIF_CORE_CLIENTARENAHOT_H
