//===- ClientArena.cpp - Valgrind's client arena, as book-keeping ---------===//
//
// Part of massif-native, under the MIT licence.
//
// The steps of Valgrind 3.19's m_mallocfree.c for the client arena, in its
// order, because the order of the free lists decides which block is reused:
//
//   malloc   payload rounded up to 16; lists from the request's own upward,
//            each walked from its head for the first big-enough block (at
//            most 99 per list but the last, then the head moves one on);
//            none: a new superblock. The block is split when the rest makes
//            a block of its own (>= 32 bytes) and the superblock is not a
//            dedicated one; otherwise it is handed out whole.
//   free     onto its list (at the tail), merged with a free successor,
//            then a free predecessor; a superblock left wholly free waits
//            as "deferred" until another one is deferred or a new one is
//            needed, and is unmapped then if still free. A dedicated
//            superblock (a block too big for 4 MiB) is unmapped at once.
//   memalign malloc(req + 32 + align) without dedicated superblocks, then
//            the front up to the first aligned payload becomes a free
//            block (not merged), the rest is the aligned block.
//
// Taking a block off a list leaves the list's head at its predecessor and
// then "swizzles": the lowest-addressed of the head and its five
// neighbours each way becomes the head. Superblocks are placed first-fit
// from HeapBase, as Valgrind's address-space manager places client heap.
//
//===----------------------------------------------------------------------===//

#include "ClientArena.h"
#include "Memory.h"

namespace massif {
namespace {

constexpr uint64_t roundUp(uint64_t V, uint64_t To) {
  return (V + To - 1) & ~(To - 1);
}

/// Payload sizes / 16 below which lists 64..110 end (list 111 takes the
/// rest): Valgrind's pszB_to_listNo, a slope of factors 1.05, 1.1, 1.2.
constexpr uint32_t ListEnds[] = {
    67,   70,   74,   77,   81,   85,   90,   94,   99,   104,  109,  114,
    120,  126,  133,  139,  153,  169,  185,  204,  224,  247,  272,  299,
    329,  362,  398,  438,  482,  530,  583,  641,  770,  924,  1109, 1331,
    1597, 1916, 2300, 2760, 3312, 3974, 4769, 5723, 6868, 8241, 9890};
constexpr uint32_t NumListEnds = sizeof(ListEnds) / sizeof(ListEnds[0]);
static_assert(NumListEnds == 47, "lists 64..110 each need their end");
constexpr uint32_t LastListStart = ListEnds[NumListEnds - 1];

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
constexpr ListTable Lists;

/// Larger requests could not be simulated in 48-bit addresses.
constexpr uint64_t MaxReqB = uint64_t(1) << 40;
constexpr uint32_t SearchLimit = 100;
constexpr uint32_t SwizzleSteps = 5;

} // namespace

// The helpers of the hot paths are folded into allocate and release; the
// rare steps stay out of their way.
#define HOT __attribute__((always_inline)) inline
#define COLD __attribute__((noinline, cold))

HOT uint32_t ClientArena::listOf(uint64_t PayloadB) {
  uint64_t N = PayloadB / MinAlignB;
  return N < LastListStart ? Lists.Of[N] : NumLists - 1;
}

bool ClientArena::init(const Allocator &Alloc, uint64_t AlignB) {
  A = Alloc;
  DefaultAlignB = AlignB < MinAlignB ? MinAlignB : AlignB;
  return reserveNodes(1024);
}

//===-- Nodes --------------------------------------------------------------===//

COLD bool ClientArena::growNodes(uint32_t Count) {
  uint64_t Want = uint64_t(NodesUsed) + Count;
  uint64_t NewCap = NodeCap < 4096 ? 4096 : uint64_t(NodeCap) + NodeCap / 4;
  if (NewCap < Want)
    NewCap = Want;
  if (NewCap > 0xFFFFFFFFull)
    return false;
  size_t Cap = NodeCap;
  if (!growArray(A, Nodes, Nodes ? NodesUsed : 0, Cap, size_t(NewCap)))
    return false;
  NodeCap = uint32_t(Cap);
  return true;
}

HOT uint32_t ClientArena::newNode(uint64_t Addr, uint64_t Flags) {
  uint32_t Id;
  if (FreeNodes) {
    Id = FreeNodes;
    FreeNodes = Nodes[Id].X;
    --NumFreeNodes;
  } else {
    Id = NodesUsed++;
  }
  // The links are the caller's to set.
  Nodes[Id].Word = Addr | Flags;
  return Id;
}

HOT void ClientArena::freeNode(uint32_t Id) {
  Nodes[Id].Word = 0;
  Nodes[Id].X = FreeNodes;
  FreeNodes = Id;
  ++NumFreeNodes;
}

HOT uint32_t ClientArena::splitAt(uint32_t Id, uint64_t Addr, uint64_t Flags) {
  uint32_t N = newNode(Addr, Flags);
  uint32_t After = Nodes[Id].Next;
  Nodes[N].Prev = Id;
  Nodes[N].Next = After;
  Nodes[After].Prev = N;
  Nodes[Id].Next = N;
  return N;
}

HOT void ClientArena::unchain(uint32_t Id) {
  uint32_t Before = Nodes[Id].Prev, After = Nodes[Id].Next;
  if (Before)
    Nodes[Before].Next = After;
  Nodes[After].Prev = Before;
  freeNode(Id);
}

//===-- Free lists ---------------------------------------------------------===//

// A free list is circular and doubly linked through X (previous) and Y
// (next); a block joins just before the head, i.e. at the tail.
HOT void ClientArena::linkFree(uint32_t Id, uint32_t List) {
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

HOT void ClientArena::unlinkFree(uint32_t Id, uint32_t List) {
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

HOT void ClientArena::rejoin(uint32_t List) {
  // A block linked at the tail and unlinked again: the head moves to the
  // tail, then the list swizzles.
  if (uint32_t Head = Heads[List]) {
    Heads[List] = Nodes[Head].X;
    swizzle(List);
  }
}

__attribute__((noinline)) void ClientArena::swizzle(uint32_t List) {
  uint32_t Head = Heads[List];
  uint32_t Best = Head, Fwd = Head, Back = Head;
  uint64_t BestAddr = addr(Head);
  for (uint32_t I = 0; I < SwizzleSteps; ++I) {
    Fwd = Nodes[Fwd].Y;
    Back = Nodes[Back].X;
    if (addr(Fwd) < BestAddr) {
      Best = Fwd;
      BestAddr = addr(Fwd);
    }
    if (addr(Back) < BestAddr) {
      Best = Back;
      BestAddr = addr(Back);
    }
  }
  Heads[List] = Best;
}

HOT uint32_t ClientArena::firstNonEmpty(uint32_t From) const {
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

//===-- Allocation ---------------------------------------------------------===//

uint32_t ClientArena::allocate(uint64_t ReqB, uint64_t AlignB) {
  // The most one request takes: a superblock's block and sentinel, a
  // split-off rest and memalign's second block.
  if (!reserveNodes(4) || ReqB > MaxReqB)
    return 0;
  uint64_t Align = AlignB ? AlignB : DefaultAlignB;
  if (Align <= MinAlignB)
    return mallocBlock(ReqB, /*MayBeUnsplittable=*/true);
  if (Align & (Align - 1))
    Align = uint64_t(1) << (64 - __builtin_clzll(Align));
  if (Align > MaxReqB)
    return 0;
  return memalignBlock(ReqB, Align);
}

HOT uint32_t ClientArena::mallocBlock(uint64_t ReqB, bool MayBeUnsplittable) {
  uint64_t PayloadB = roundUp(ReqB, MinAlignB);
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
        if (Searched >= SearchLimit && List < NumLists - 1) {
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
      return B;
    }
  }

Found:
  unlinkFree(B, List);
  Nodes[B].Word |= InUse;
  if (HaveB - BlockB >= OverheadB) {
    uint32_t Rest = splitAt(B, addr(B) + BlockB, 0);
    linkFree(Rest, listOf(HaveB - BlockB - OverheadB));
  }
  return B;
}

COLD uint32_t ClientArena::memalignBlock(uint64_t ReqB, uint64_t AlignB) {
  uint64_t PayloadB = roundUp(ReqB, MinAlignB);
  uint32_t Base = mallocBlock(PayloadB + OverheadB + AlignB,
                              /*MayBeUnsplittable=*/false);
  if (!Base)
    return 0;
  // The first aligned payload that leaves room for a block in front.
  uint64_t BaseAddr = addr(Base);
  uint64_t At =
      roundUp(BaseAddr + 2 * OverheadLoB + (OverheadB - OverheadLoB), AlignB) -
      OverheadLoB;
  uint32_t Aligned = splitAt(Base, At, InUse);
  linkFree(Base, listOf(At - BaseAddr - OverheadB));
  return Aligned;
}

COLD uint32_t ClientArena::newSuperblock(uint64_t BlockB, bool MayBeUnsplittable) {
  if (NumSbs == SbCap) {
    size_t Cap = SbCap;
    if (!growArray(A, Sbs, NumSbs, Cap, Cap ? Cap * 2 : 64))
      return 0;
    SbCap = uint32_t(Cap);
  }
  deferReclaim(0);
  uint64_t SizeB = BlockB + SbHeaderB;
  if (SizeB < MinSbB)
    SizeB = MinSbB;
  SizeB = roundUp(SizeB, PageB);
  bool Dedicated = MayBeUnsplittable && SizeB > MinSbB;

  // First fit from HeapBase among the superblocks mapped now.
  uint64_t Pos = HeapBase;
  uint32_t I = 0;
  for (; I < NumSbs; ++I) {
    if (Sbs[I].Base >= Pos + SizeB)
      break;
    Pos = Sbs[I].Base + Sbs[I].SizeB;
  }
  for (uint32_t J = NumSbs; J > I; --J)
    Sbs[J] = Sbs[J - 1];
  Sbs[I] = Superblock{Pos, SizeB};
  ++NumSbs;

  uint32_t First = newNode(Pos + SbHeaderB, 0);
  uint32_t End = newNode(Pos + SizeB,
                         InUse | Sentinel | (Dedicated ? Unsplittable : 0));
  Nodes[First].Prev = 0;
  Nodes[First].Next = End;
  Nodes[End].Prev = First;
  Nodes[End].Next = 0;
  linkFree(First, listOf(SizeB - SbHeaderB - OverheadB));
  return First;
}

//===-- Release ------------------------------------------------------------===//

void ClientArena::discard() {
  freeArray(A, Nodes, Nodes ? NodeCap : 0);
  freeArray(A, Sbs, Sbs ? SbCap : 0);
  Nodes = nullptr;
  Sbs = nullptr;
  NodeCap = NumSbs = SbCap = 0;
}

uint32_t ClientArena::detached(uint64_t SlopB) {
  if (!reserveNodes(1))
    return 0;
  uint32_t Id = newNode(0, InUse | Detached);
  setDetachedSlopB(Id, SlopB);
  Nodes[Id].X = Nodes[Id].Y = 0;
  return Id;
}

void ClientArena::release(uint32_t B) {
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
  uint32_t List = listOf((AfterWord & AddrMask) - (Word & AddrMask) - OverheadB);
  bool MergeAfter = !(AfterWord & InUse); // the sentinel counts as in use
  bool MergeBefore = Before && !inUse(Before);
  if (!MergeAfter && !MergeBefore) {
    linkFree(B, List);
  } else {
    // Valgrind puts B on its list and merges it with its free neighbours:
    // each merge takes B off again, which leaves the list as it was but
    // for its head.
    rejoin(List);
    if (MergeAfter) {
      unlinkFree(After, listOf(sizeB(After) - OverheadB));
      unchain(After);
      List = listOf(sizeB(B) - OverheadB);
      if (MergeBefore)
        rejoin(List);
      else
        linkFree(B, List);
    }
    if (MergeBefore) {
      unlinkFree(Before, listOf(sizeB(Before) - OverheadB));
      unchain(B);
      B = Before;
      linkFree(B, listOf(sizeB(B) - OverheadB));
    }
  }
  // The first block of a superblock keeps its node for the superblock's
  // life, so it names the superblock.
  if (!Nodes[B].Prev && (Nodes[Nodes[B].Next].Word & Sentinel))
    deferReclaim(B);
}

COLD void ClientArena::deferReclaim(uint32_t First) {
  uint32_t D = Deferred;
  if (D && D != First && !inUse(D) && (Nodes[Nodes[D].Next].Word & Sentinel)) {
    unlinkFree(D, listOf(sizeB(D) - OverheadB));
    reclaim(D);
  }
  Deferred = First;
}

COLD void ClientArena::reclaim(uint32_t First) {
  uint64_t Base = addr(First) - SbHeaderB;
  uint32_t Lo = 0, Hi = NumSbs;
  while (Lo < Hi) {
    uint32_t Mid = (Lo + Hi) / 2;
    if (Sbs[Mid].Base < Base)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  if (Lo < NumSbs && Sbs[Lo].Base == Base) {
    for (uint32_t J = Lo; J + 1 < NumSbs; ++J)
      Sbs[J] = Sbs[J + 1];
    --NumSbs;
  }
  freeNode(Nodes[First].Next);
  freeNode(First);
}

} // namespace massif
