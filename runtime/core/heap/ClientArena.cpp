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

#include "ClientArenaHot.h"
#include "Memory.h"

namespace massif {

using namespace client_arena;

// The hot paths are inline in ClientArenaHot.h; these are the rare steps.
#define COLD __attribute__((noinline, cold))

namespace {
/// Where superblocks start (setHeapBase); constant-initialised.
uint64_t HeapBase = ClientArena::DefaultHeapBase;
} // namespace

void ClientArena::setHeapBase(uint64_t Base) { HeapBase = Base; }

bool ClientArena::init(const Allocator &Alloc, uint64_t AlignB) {
  A = Alloc;
  DefaultAlignB = AlignB < MinAlignB ? MinAlignB : AlignB;
  return reserveNodes(1024);
}

//===-- Nodes -------------------------------------------------------------===//

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
  // Node 0 ("none") is never handed out.
  SpareNodes += uint32_t(Cap - NodeCap) - (NodeCap == 0 ? 1 : 0);
  NodeCap = uint32_t(Cap);
  return true;
}

//===-- Free lists --------------------------------------------------------===//

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

//===-- Allocation --------------------------------------------------------===//

COLD uint32_t ClientArena::memalignBlock(uint64_t ReqB, uint64_t AlignB,
                                         uint64_t &UsableB) {
  uint64_t PayloadB = roundUp(ReqB, MinAlignB);
  uint32_t Base = mallocBlock(PayloadB + OverheadB + AlignB,
                              /*MayBeUnsplittable=*/false, UsableB);
  if (!Base)
    return 0;
  // The first aligned payload that leaves room for a block in front.
  uint64_t BaseAddr = addr(Base);
  uint64_t At =
      roundUp(BaseAddr + 2 * OverheadLoB + (OverheadB - OverheadLoB), AlignB) -
      OverheadLoB;
  uint32_t Aligned = splitAt(Base, At, InUse);
  linkFree(Base, listOf(At - BaseAddr - OverheadB));
  UsableB = sizeB(Aligned) - OverheadB;
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

//===-- Release -----------------------------------------------------------===//

void ClientArena::discard() {
  freeArray(A, Nodes, Nodes ? NodeCap : 0);
  freeArray(A, Sbs, Sbs ? SbCap : 0);
  Nodes = nullptr;
  Sbs = nullptr;
  NodeCap = SpareNodes = NumSbs = SbCap = 0;
}

uint32_t ClientArena::detached(uint64_t SlopB) {
  if (!reserveNodes(1))
    return 0;
  uint32_t Id = newNode(0, InUse | Detached);
  setDetachedSlopB(Id, SlopB);
  Nodes[Id].X = Nodes[Id].Y = 0;
  return Id;
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