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
static_assert(sizeof(ListEnds) / sizeof(ListEnds[0]) == 47,
              "lists 64..110 each need their end");

/// Larger requests could not be simulated in 48-bit addresses.
constexpr uint64_t MaxReqB = uint64_t(1) << 40;
constexpr uint32_t SearchLimit = 100;
constexpr uint32_t SwizzleSteps = 5;

} // namespace

uint32_t ClientArena::listOf(uint64_t PayloadB) {
  uint64_t N = PayloadB / MinAlignB;
  if (N < 64)
    return uint32_t(N);
  uint32_t Lo = 0, Hi = 47; // first end > N
  while (Lo < Hi) {
    uint32_t Mid = (Lo + Hi) / 2;
    if (ListEnds[Mid] > N)
      Hi = Mid;
    else
      Lo = Mid + 1;
  }
  return 64 + Lo;
}

bool ClientArena::init(const Allocator &Alloc, uint64_t AlignB) {
  A = Alloc;
  DefaultAlignB = AlignB < MinAlignB ? MinAlignB : AlignB;
  return reserveNodes(1024);
}

//===-- Nodes --------------------------------------------------------------===//

bool ClientArena::reserveNodes(uint32_t Count) {
  if (uint64_t(NumFreeNodes) + NodeCap >= uint64_t(NodesUsed) + Count)
    return true;
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

uint32_t ClientArena::newNode(uint64_t Addr, uint64_t Flags) {
  uint32_t Id;
  if (FreeNodes) {
    Id = FreeNodes;
    FreeNodes = Nodes[Id].X;
    --NumFreeNodes;
  } else {
    Id = NodesUsed++;
  }
  Nodes[Id] = Node{Addr | Flags, 0, 0, 0, 0};
  return Id;
}

void ClientArena::freeNode(uint32_t Id) {
  Nodes[Id] = Node{0, 0, 0, FreeNodes, 0};
  FreeNodes = Id;
  ++NumFreeNodes;
}

uint32_t ClientArena::splitAt(uint32_t Id, uint64_t Addr, uint64_t Flags) {
  uint32_t N = newNode(Addr, Flags);
  uint32_t After = Nodes[Id].Next;
  Nodes[N].Prev = Id;
  Nodes[N].Next = After;
  Nodes[After].Prev = N;
  Nodes[Id].Next = N;
  return N;
}

void ClientArena::unchain(uint32_t Id) {
  uint32_t Before = Nodes[Id].Prev, After = Nodes[Id].Next;
  if (Before)
    Nodes[Before].Next = After;
  Nodes[After].Prev = Before;
  freeNode(Id);
}

//===-- Free lists ---------------------------------------------------------===//

// A free list is circular and doubly linked through X (previous) and Y
// (next); a block joins just before the head, i.e. at the tail.
void ClientArena::linkFree(uint32_t Id, uint32_t List) {
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

void ClientArena::unlinkFree(uint32_t Id, uint32_t List) {
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

void ClientArena::swizzle(uint32_t List) {
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

uint32_t ClientArena::firstNonEmpty(uint32_t From) const {
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
  uint64_t Align = AlignB ? AlignB : DefaultAlignB;
  if (Align < MinAlignB)
    Align = MinAlignB;
  if (Align & (Align - 1))
    Align = uint64_t(1) << (64 - __builtin_clzll(Align));
  if (ReqB > MaxReqB || Align > MaxReqB)
    return 0;
  // The most one request takes: a superblock's block and sentinel, a
  // split-off rest and memalign's second block.
  if (!reserveNodes(4))
    return 0;
  if (NumSbs == SbCap) {
    size_t Cap = SbCap;
    if (!growArray(A, Sbs, NumSbs, Cap, Cap ? Cap * 2 : 64))
      return 0;
    SbCap = uint32_t(Cap);
  }
  return Align == MinAlignB ? mallocBlock(ReqB, /*MayBeUnsplittable=*/true)
                            : memalignBlock(ReqB, Align);
}

uint32_t ClientArena::mallocBlock(uint64_t ReqB, bool MayBeUnsplittable) {
  uint64_t PayloadB = roundUp(ReqB, MinAlignB);
  uint64_t BlockB = PayloadB + OverheadB;
  uint32_t B = 0, List;
  for (List = firstNonEmpty(listOf(PayloadB)); List < NumLists;
       List = firstNonEmpty(List + 1)) {
    uint32_t Head = Heads[List];
    B = Head;
    for (uint32_t Searched = 1;; ++Searched) {
      if (Searched >= SearchLimit && List < NumLists - 1) {
        // Move the head on, so later searches see the rest of the list.
        Heads[List] = Nodes[Head].Y;
        break;
      }
      // Lists below 64 hold one payload size each, at least the request's.
      if (List < 64 || sizeB(B) >= BlockB)
        goto Found;
      B = Nodes[B].Y;
      if (B == Head)
        break;
    }
  }
  B = newSuperblock(BlockB, MayBeUnsplittable);
  if (!B)
    return 0;
  List = listOf(sizeB(B) - OverheadB);

Found:
  uint64_t HaveB = sizeB(B);
  // A dedicated superblock is never split.
  bool Split = HaveB - BlockB >= OverheadB &&
               !(Nodes[Nodes[B].Next].Word & Unsplittable);
  unlinkFree(B, List);
  Nodes[B].Word |= InUse;
  if (Split) {
    uint32_t Rest = splitAt(B, addr(B) + BlockB, 0);
    linkFree(Rest, listOf(HaveB - BlockB - OverheadB));
  }
  return B;
}

uint32_t ClientArena::memalignBlock(uint64_t ReqB, uint64_t AlignB) {
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

uint32_t ClientArena::newSuperblock(uint64_t BlockB, bool MayBeUnsplittable) {
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
  Nodes[First].Next = End;
  Nodes[End].Prev = First;
  linkFree(First, listOf(SizeB - SbHeaderB - OverheadB));
  return First;
}

//===-- Release ------------------------------------------------------------===//

uint32_t ClientArena::detached(uint64_t SlopB) {
  if (!reserveNodes(1))
    return 0;
  uint32_t Id = newNode(0, InUse | Detached);
  setDetachedSlopB(Id, SlopB);
  return Id;
}

void ClientArena::release(uint32_t Id) {
  if (Nodes[Id].Word & Detached) {
    freeNode(Id);
    return;
  }
  if (Nodes[Nodes[Id].Next].Word & Unsplittable) {
    reclaim(Id); // a dedicated superblock goes at once
    return;
  }
  mergeFree(Id);
}

void ClientArena::mergeFree(uint32_t B) {
  uint32_t List = listOf(sizeB(B) - OverheadB);
  linkFree(B, List);
  uint32_t After = Nodes[B].Next; // the sentinel counts as in use
  if (!inUse(After)) {
    unlinkFree(B, List);
    unlinkFree(After, listOf(sizeB(After) - OverheadB));
    unchain(After);
    List = listOf(sizeB(B) - OverheadB);
    linkFree(B, List);
  }
  uint32_t Before = Nodes[B].Prev;
  if (Before && !inUse(Before)) {
    unlinkFree(B, List);
    unlinkFree(Before, listOf(sizeB(Before) - OverheadB));
    unchain(B);
    B = Before;
    List = listOf(sizeB(B) - OverheadB);
    linkFree(B, List);
  }
  // The first block of a superblock keeps its node for the superblock's
  // life, so it names the superblock.
  if (!Nodes[B].Prev && (Nodes[Nodes[B].Next].Word & Sentinel))
    deferReclaim(B);
}

void ClientArena::deferReclaim(uint32_t First) {
  uint32_t D = Deferred;
  if (D && D != First && !inUse(D) && (Nodes[Nodes[D].Next].Word & Sentinel)) {
    unlinkFree(D, listOf(sizeB(D) - OverheadB));
    reclaim(D);
  }
  Deferred = First;
}

void ClientArena::reclaim(uint32_t First) {
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
