//===- Profile.cpp - The model's events -----------------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Each event is Massif's record_block / unrecord_block / realloc_block /
// stack handler: update the block table, the allocation tree and the
// totals, advance byte time, and make the snapshot attempts in Massif's
// order (a Peak attempt before anything that releases memory, a Normal
// attempt after). The common path of an allocation is one hash insert,
// one array add and one time comparison.
//
// "Ignored" blocks (fully filtered by --alloc-fn/--ignore-fn, or charged to
// nothing) stay in the block table, so free/realloc/malloc_usable_size find
// them, but change no totals, take no snapshot and pass no time.
//
//===----------------------------------------------------------------------===//

#include "Memory.h"
#include "ProfileImpl.h"
#include "Sort.h"

#include <new>
#include <string.h>

namespace massif {
namespace {

uint64_t zeroClock(void *) { return 0; }

// The model's symbolizer: the engine's, the replacement frames
// (Symbolizer.h) named without asking it.
uint32_t describeFrame(void *Ctx, uint64_t Pc, FrameInfo *Out, uint32_t Max) {
  const Symbolizer &S = static_cast<Profile::Impl *>(Ctx)->EngineSym;
  if (const char *Name = replacement_pc::nameOf(Pc)) {
    if (!Max)
      return 0;
    Out[0] = FrameInfo{Name, nullptr, 0, nullptr};
    return 1;
  }
  if (!S.Describe)
    return 0;
  return S.Describe(S.Ctx, Pc, Out, Max);
}

const char *frameFunction(void *Ctx, uint64_t Pc) {
  const Symbolizer &S = static_cast<Profile::Impl *>(Ctx)->EngineSym;
  if (const char *Name = replacement_pc::nameOf(Pc))
    return Name;
  if (S.FunctionName)
    return S.FunctionName(S.Ctx, Pc);
  FrameInfo Frames[64];
  uint32_t N = S.Describe ? S.Describe(S.Ctx, Pc, Frames, 64) : 0;
  return N ? Frames[N - 1].Function : nullptr;
}

uint64_t printedAddress(void *Ctx, uint64_t Pc) {
  const Symbolizer &S = static_cast<Profile::Impl *>(Ctx)->EngineSym;
  return S.PrintedAddress && !replacement_pc::nameOf(Pc)
             ? S.PrintedAddress(S.Ctx, Pc)
             : Pc;
}

void prepareFrames(void *Ctx, const uint64_t *Pcs, uint32_t NumPcs) {
  const Symbolizer &S = static_cast<Profile::Impl *>(Ctx)->EngineSym;
  if (S.Prepare)
    S.Prepare(S.Ctx, Pcs, NumPcs);
}

/// A copy of S (or of the literal default) in the model's memory.
const char *keepString(const Allocator &A, const char *S) {
  if (!S)
    return nullptr;
  char *C = copyString(A, S, strlen(S));
  return C ? C : "";
}

bool keepList(const Allocator &A, StringList &L) {
  if (L.Count == 0) {
    L = StringList();
    return true;
  }
  auto **Items = allocArray<const char *>(A, L.Count);
  if (!Items)
    return false;
  for (uint32_t I = 0; I < L.Count; ++I)
    Items[I] = keepString(A, L.Items[I]);
  L.Items = Items;
  L.Capacity = L.Count;
  return true;
}

} // namespace

uint32_t Profile::Impl::createEntry(StackId Stack) {
  bool Created;
  uint32_t E = Tree.entryOf(Stack, Created);
  if (!E)
    return AllocTree::NoEntry; // out of memory: charged to nothing
  if (Created && EagerClassify)
    classify(E);
  return E;
}

void Profile::Impl::classify(uint32_t E) {
  uint32_t NumPcs = 0;
  const uint64_t *Pcs =
      Tree.Stacks[E] ? Depot->frames(Tree.Stacks[E], NumPcs) : nullptr;
  Tree.Class[E] = Pcs ? Filter.classify(Pcs, NumPcs) : entry_class::Ignored;
}

bool Profile::init(const Options &O, const Allocator &A, StackDepot &Depot,
                   const Symbolizer &Sym, const Clock &C) {
  void *Mem = A.allocate(sizeof(Impl));
  if (!Mem)
    return false;
  Impl *I = new (Mem) Impl();
  I->Opts = O;
  I->A = A;
  I->Depot = &Depot;
  I->EngineSym = Sym;
  I->Sym.Describe = describeFrame;
  I->Sym.Ctx = I;
  I->Sym.FunctionName = frameFunction;
  I->Sym.PrintedAddress = Sym.PrintedAddress ? printedAddress : nullptr;
  I->Sym.Prepare = Sym.Prepare ? prepareFrames : nullptr;
  I->Clk = C.Now ? C : Clock{zeroClock, nullptr};
  // Massif: --heap=no turns --pages-as-heap off; page mode has no admin.
  if (!O.Heap)
    I->Opts.PagesAsHeap = false;
  I->AdminB = I->Opts.PagesAsHeap ? 0 : uint64_t(O.HeapAdminB);
  I->Opts.OutFile = keepString(A, O.OutFile);
  I->Opts.XtreeMemoryFile = keepString(A, O.XtreeMemoryFile);
  I->Xt.setAllocator(A);
  I->XtFull = O.XtreeMemory == XtreeMode::Full && O.Heap;
  I->HashChains = valgrindHashChains(0);
  I->SeqLimit = 0xFFFFFFFFu; // the last number a record's 32 bits hold
  I->Large.init(A);
  if (!keepList(A, I->Opts.AllocFns) || !keepList(A, I->Opts.IgnoreFns) ||
      !keepList(A, I->Opts.FullpathAfter) || !keepList(A, I->Opts.Given))
    return false;
  I->Filter.init(I->Opts, I->Sym);
  I->EagerClassify = I->Filter.needsEagerClassification();
  if (!I->Blocks.init(A) || !I->Arena.init(A, uint64_t(O.AlignmentB)) ||
      !I->Tree.init(A) ||
      !I->Snaps.init(A, uint32_t(O.MaxSnapshots), uint32_t(O.DetailedFreq),
                     O.PeakInaccuracy, /*KeepTrees=*/O.Heap))
    return false;
  I->Hot.UnitB = I->Opts.TimeUnit == TimeUnit::Bytes;
  I->Snaps.setSkipCounter(&I->Hot.NumSkipped);
  I->syncThresholds();
  // In page mode Massif records the start-up mappings, and snapshots them,
  // before client code runs: time starts with the model.
  if (I->Opts.PagesAsHeap) {
    I->Hot.ClockBase = I->Clk.Now(I->Clk.Ctx);
    I->Started = true;
  }
  P = I;
  return true;
}

void Profile::setSnapshotTrace(const SnapshotTrace &T) {
  if (P)
    P->Snaps.setTrace(T);
}

void Profile::setClientHeapBase(uint64_t Addr) {
  ClientArena::setHeapBase(Addr);
}

void Profile::startup() {
  if (!P || P->StartupDone)
    return;
  P->StartupDone = true;
  P->Hot.CountStacks = P->Opts.Stacks;
  if (!P->Started) {
    P->Hot.ClockBase = P->Clk.Now(P->Clk.Ctx);
    P->Started = true;
  }
  P->syncThresholds();
  P->maybeNormal("startup");
}

MASSIF_ALWAYS_INLINE void
Profile::Impl::record(uint64_t Addr, uint32_t Id, uint64_t ReqB,
                           uint64_t SlopB, StackId Stack,
                           bool MaybeSnapshot) {
  recordIn(Addr, Id, ReqB, SlopB,
           Opts.Heap ? entryFor(Stack) : AllocTree::NoEntry, MaybeSnapshot);
}

MASSIF_ALWAYS_INLINE void
Profile::Impl::recordIn(uint64_t Addr, uint32_t Id, uint64_t ReqB,
                        uint64_t SlopB, uint32_t E, bool MaybeSnapshot) {
  if (!setRecord(Id, ReqB, SlopB, E) || !Blocks.insert(Addr, Id)) {
    forgetLarge(Id);
    Arena.release(Id);
    return; // out of memory: the block stays unknown, like a foreign one
  }
  noteInserted(Id);
  siteAllocated(E, ReqB);
  // Massif's full xtree counts every recorded block, ignored ones too.
  if (__builtin_expect(XtFull, 0))
    Xt.alloc(stackOf(E), ReqB);
  if (ignored(E)) {
    Counts.IgnoredAllocs += Opts.Heap; // --heap=no counts nothing
    return;
  }
  ++Counts.Allocs;
  Tree.add(E, ReqB);
  uint64_t ExtraB = AdminB + SlopB;
  Hot.HeapB += ReqB;
  Hot.ExtraB += ExtraB;
  Hot.TimeB += ReqB + ExtraB;
  if (MaybeSnapshot)
    maybeNormal("  alloc");
}

void Profile::onMalloc(uint64_t Addr, uint64_t ReqB, uint64_t AlignB,
                       StackId Stack) {
  Impl &I = *P;
  uint64_t UsableB, SlopB;
  uint32_t Id = I.Arena.allocate(ReqB, AlignB, UsableB);
  if (Id) {
    SlopB = UsableB - ReqB;
  } else {
    // The replay is out of memory (or the request beyond it): estimate.
    SlopB = modelSlopB(ReqB, AlignB ? AlignB : uint64_t(I.Opts.AlignmentB));
    if (!(Id = I.Arena.detached(SlopB)))
      return;
  }
  I.record(Addr, Id, ReqB, SlopB, Stack);
}

void Profile::onAlloc(uint64_t Addr, uint64_t ReqB, uint64_t SlopB,
                      StackId Stack) {
  Impl &I = *P;
  if (uint32_t Id = I.Arena.detached(SlopB))
    I.record(Addr, Id, ReqB, SlopB, Stack);
}

MASSIF_ALWAYS_INLINE bool
Profile::Impl::free(uint64_t Addr, bool MaybeSnapshot, StackId FreeStack) {
  uint32_t Id;
  if (!Blocks.remove(Addr, Id))
    return false;
  BlockInfo B = info(Id);
  // Massif unrecords the block and then frees it; the replay has no say
  // in the numbers, so the order does not matter here.
  forgetLarge(Id);
  Arena.release(Id);
  siteFreed(B.Entry, B.ReqB);
  if (ignored(B.Entry)) {
    Counts.IgnoredFrees += Opts.Heap;
    return true;
  }
  ++Counts.Frees;
  if (MaybeSnapshot)
    maybePeak("de-PEAK");
  uint64_t ExtraB = AdminB + B.SlopB;
  Hot.HeapB -= B.ReqB;
  Hot.ExtraB -= ExtraB;
  Tree.sub(B.Entry, B.ReqB);
  if (__builtin_expect(XtFull, 0) && B.ReqB > 0)
    Xt.free(stackOf(B.Entry), FreeStack, B.ReqB);
  Hot.TimeB += B.ReqB + ExtraB;
  if (MaybeSnapshot)
    maybeNormal("dealloc");
  return true;
}

bool Profile::onFree(uint64_t Addr, StackId FreeStack) {
  return P->free(Addr, true, FreeStack);
}

void Profile::onPages(uint64_t Addr, uint64_t LenB, StackId Stack) {
  Impl &I = *P;
  if (LenB < PageB)
    return;
  uint64_t Last = Addr + (LenB & ~(PageB - 1)) - PageB;
  // Every page is charged to the same stack: one entry for the mapping.
  uint32_t E = I.Opts.Heap ? I.entryFor(Stack) : AllocTree::NoEntry;
  for (uint64_t A = Addr; A <= Last; A += PageB)
    if (uint32_t Id = I.Arena.detached(0))
      I.recordIn(A, Id, PageB, 0, E, /*MaybeSnapshot=*/A == Last);
}

void Profile::onUnmapPages(uint64_t Addr, uint64_t LenB) {
  Impl &I = *P;
  if (LenB < PageB)
    return;
  uint64_t End = Addr + (LenB & ~(PageB - 1));
  for (uint64_t A = Addr; A < End; A += PageB)
    I.free(A, /*MaybeSnapshot=*/A == Addr);
}

bool Profile::onRealloc(uint64_t OldAddr, uint64_t NewAddr, uint64_t NewReqB,
                        uint64_t NewSlopB, StackId Stack) {
  return P->realloc(OldAddr, NewAddr, NewReqB, /*Replay=*/false, NewSlopB,
                    Stack);
}

bool Profile::onRealloc(uint64_t OldAddr, uint64_t NewAddr, uint64_t NewReqB,
                        StackId Stack) {
  return P->realloc(OldAddr, NewAddr, NewReqB, /*Replay=*/true, 0, Stack);
}

bool Profile::Impl::realloc(uint64_t OldAddr, uint64_t NewAddr,
                            uint64_t NewReqB, bool Replay, uint64_t GivenSlopB,
                            StackId Stack) {
  uint32_t Id;
  if (NewReqB == 0) {
    // Massif's realloc(p, 0) is free(p).
    if (!Blocks.find(OldAddr, Id))
      return false;
    free(OldAddr, true, Stack);
    return true;
  }
  if (!Blocks.remove(OldAddr, Id))
    return false;
  const BlockInfo Old = info(Id);

  // With --heap=no every block is charged to NoEntry, which is ignored.
  bool Ignored = ignored(Old.Entry);
  Counts.Reallocs += !Ignored;
  if (!Ignored && NewReqB < Old.ReqB)
    maybePeak("re-PEAK"); // shrinking is a deallocation

  // Shrinking and growing within the slop stay in place (logically: the
  // model decides from the block's own record, whatever the allocator did).
  uint64_t SlopB;
  uint32_t NewId = Id;
  if (NewReqB <= Old.ReqB + Old.SlopB) {
    SlopB = Old.SlopB + Old.ReqB - NewReqB;
    if (Arena.isDetached(Id))
      Arena.setDetachedSlopB(Id, SlopB);
  } else {
    // Massif allocates the new block, then frees the old one.
    uint64_t UsableB;
    NewId = Replay ? Arena.allocate(NewReqB, 0, UsableB) : 0;
    if (NewId) {
      SlopB = UsableB - NewReqB;
    } else {
      SlopB = Replay ? modelSlopB(NewReqB, uint64_t(Opts.AlignmentB))
                     : GivenSlopB;
      NewId = Arena.detached(SlopB);
    }
    forgetLarge(Id);
    Arena.release(Id);
  }

  uint32_t E = Old.Entry;
  if (Opts.Heap) {
    uint32_t NewE = entryFor(Stack);
    // The realloc's own stack always receives the new size.
    Tree.add(NewE, NewReqB);
    if (__builtin_expect(XtFull, 0))
      Xt.alloc(stackOf(NewE), NewReqB);
    if (!Ignored && !ignored(NewE)) {
      Tree.sub(Old.Entry, Old.ReqB);
      if (__builtin_expect(XtFull, 0) && Old.ReqB > 0)
        Xt.free(stackOf(Old.Entry), Stack, Old.ReqB);
      E = NewE;
    } else {
      // Ignored for the totals. The block moves to NEW unless that would
      // un-ignore a block whose allocation was ignored.
      E = (!ignored(NewE) && ignored(Old.Entry)) ? Old.Entry : NewE;
      Ignored = true;
      ++Counts.IgnoredReallocs;
    }
  }
  // heaptrack's figures: the old block freed, the new one allocated
  // when the model keeps it.
  siteFreed(Old.Entry, Old.ReqB);
  if (!NewId) {
    Ignored = true; // out of memory: the block is lost to the model
  } else {
    if (!setRecord(NewId, NewReqB, SlopB, E) ||
        !Blocks.insert(NewAddr, NewId)) {
      forgetLarge(NewId);
      Arena.release(NewId);
      Ignored = true;
    } else {
      noteInserted(NewId);
      siteAllocated(E, NewReqB);
    }
  }

  if (!Opts.Heap || Ignored)
    return true;
  int64_t DHeap = int64_t(NewReqB - Old.ReqB);
  int64_t DExtra = int64_t(SlopB - Old.SlopB);
  Hot.HeapB += uint64_t(DHeap);
  Hot.ExtraB += uint64_t(DExtra);
  int64_t DTotal = DHeap + DExtra;
  Hot.TimeB += uint64_t(DTotal < 0 ? -DTotal : DTotal);
  maybeNormal("realloc");
  return true;
}

void Profile::onStackDelta(int64_t DeltaB) {
  Impl &I = *P;
  if (!I.Opts.Stacks || !I.StartupDone || DeltaB == 0)
    return;
  StackHot &H = I.Hot;
  if (DeltaB > 0) {
    ++H.NumStackAllocs;
    H.StacksB += uint64_t(DeltaB);
    H.TimeB += uint64_t(DeltaB);
  } else {
    uint64_t Down = uint64_t(-DeltaB);
    I.maybePeak("stkPEAK");
    // Stacks never go below what was seen growing (events before start-up
    // are not counted, so an unmatched shrink must not wrap).
    H.StacksB -= Down < H.StacksB ? Down : H.StacksB;
    H.TimeB += Down;
  }
  I.maybeNormal(DeltaB > 0 ? "stk-new" : "stk-die");
}

bool Profile::started() const { return P && P->Started; }

StackHot *Profile::stackHot() { return P ? &P->Hot : nullptr; }

ProfileStats Profile::stats() const {
  ProfileStats S = {};
  if (!P)
    return S;
  const Impl::HeapCounts &C = P->Counts;
  S.HeapAllocs = C.Allocs;
  S.HeapReallocs = C.Reallocs;
  S.HeapFrees = C.Frees;
  S.IgnoredHeapAllocs = C.IgnoredAllocs;
  S.IgnoredHeapFrees = C.IgnoredFrees;
  S.IgnoredHeapReallocs = C.IgnoredReallocs;
  S.StackAllocs = P->Hot.NumStackAllocs;
  S.SkippedSnapshots = P->Hot.NumSkipped;
  S.RealSnapshots = P->Snaps.taken();
  S.DetailedSnapshots = P->Snaps.detailed();
  S.PeakSnapshots = P->Snaps.peaks();
  S.Cullings = P->Snaps.cullings();
  return S;
}

void Profile::discardBlocks() {
  if (!P || P->BlocksDiscarded)
    return;
  P->BlocksDiscarded = true;
  P->Blocks.discard();
  P->Arena.discard();
  P->Large.discard();
}

namespace {
struct Numbered {
  uint32_t Seq, Id;
};
struct NumberedList {
  Profile::Impl *I;
  Numbered *Next;
};
void collectNumbered(void *Ctx, uint64_t, uint32_t Id) {
  auto &L = *static_cast<NumberedList *>(Ctx);
  *L.Next++ = Numbered{uint32_t(L.I->insertionOf(Id)), Id};
}
} // namespace

// The live blocks numbered 1, 2, ... in the order of their numbers, and
// each growth of the table moved to the same place among them: a growth
// after insertion G now follows the live blocks numbered G or less. The
// order Valgrind's table gives the blocks depends on nothing else
// (XTree.h), and the numbers fit their 32 bits again. Without memory for
// the list the numbers go on, wrapping: an xtree's order may then differ
// from Massif's.
__attribute__((noinline, cold)) void Profile::Impl::renumberInserts() {
  size_t N = Blocks.size(), Cap = N ? N : 1;
  Numbered *List = allocArray<Numbered>(A, Cap);
  if (!List) {
    SeqLimit = ~uint64_t(0);
    return;
  }
  NumberedList L{this, List};
  Blocks.forEach(collectNumbered, &L);
  N = size_t(L.Next - List);
  heapSort(List, N,
           [](const Numbered &L, const Numbered &R) { return L.Seq < R.Seq; });
  for (uint32_t G = 0; G < HashGrown; ++G) {
    size_t Lo = 0, Hi = N; // the live blocks numbered HashGrownAt[G] or less
    while (Lo < Hi) {
      size_t Mid = (Lo + Hi) / 2;
      if (List[Mid].Seq <= HashGrownAt[G])
        Lo = Mid + 1;
      else
        Hi = Mid;
    }
    HashGrownAt[G] = Lo;
  }
  for (size_t K = 0; K < N; ++K)
    Arena.ownerY(List[K].Id) = uint32_t(K + 1);
  Inserts = N;
  freeArray(A, List, Cap);
}

void Profile::setInsertionLimitForTesting(uint64_t Limit) {
  P->SeqLimit = Limit < 0xFFFFFFFFu ? Limit : 0xFFFFFFFFu;
}

bool Profile::findBlock(uint64_t Addr, uint64_t &ReqB, uint64_t &SlopB) const {
  uint32_t Id;
  if (!P || P->BlocksDiscarded || !P->Blocks.find(Addr, Id))
    return false;
  Impl::BlockInfo B = P->info(Id);
  ReqB = B.ReqB;
  SlopB = B.SlopB;
  return true;
}

} // namespace massif
