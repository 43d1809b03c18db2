//===- ProfileImpl.h - The state behind Profile -----------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Profile::Impl holds the model's parts; Profile.cpp drives them on events
// and Writer.cpp prints them. Private to runtime/core.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_PROFILEIMPL_H
#define MASSIF_CORE_PROFILEIMPL_H

#include "AllocTree.h"
#include "BlockTable.h"
#include "ClientArenaHot.h"
#include "LargeValues.h"
#include "Profile.h"
#include "SnapshotEngine.h"
#include "StackFilter.h"
#include "XTree.h"

namespace massif {

struct Profile::Impl {
  Options Opts; ///< a deep copy; its strings live in the model's memory
  Allocator A;
  StackDepot *Depot;
  Symbolizer Sym;       ///< EngineSym, replacement frames named first
  Symbolizer EngineSym; ///< the engine's
  Clock Clk;

  BlockTable Blocks;  ///< address -> node in Arena
  ClientArena Arena; ///< Valgrind's allocator, and each block's record
  LargeValues Large; ///< the records' values too large for their node
  AllocTree Tree;
  SnapshotEngine Snaps;
  StackFilter Filter;

  StackHot Hot; ///< the totals, the clock's base, the thresholds' copies
  /// Massif's --stats=yes counts of heap events (ProfileStats).
  struct HeapCounts {
    uint64_t Allocs, Reallocs, Frees;
    uint64_t IgnoredAllocs, IgnoredFrees, IgnoredReallocs;
  } Counts;
  SiteStats Sites; ///< heaptrack's figures: sizes, the last allocation
  XtreeCounters Xt;    ///< --xtree-memory=full: counters per stack
  bool XtFull;         ///< --xtree-memory=full, with --heap=yes
  // Massif's block table (a VgHashTable) as far as its iteration order
  // needs: the insertions so far (each live block keeps its number, 32
  // bits in its record), the chains now and when the table grew (XTree.h).
  // Only the order of the live blocks' numbers and the growths among them
  // matters, so when the numbers reach SeqLimit they are renumbered
  // 1, 2, ... in that order (renumberInserts).
  uint64_t Inserts;
  uint64_t SeqLimit;
  uint64_t HashChains;
  uint32_t HashGrown;
  uint64_t HashGrownAt[MaxHashGrowths];
  uint64_t AdminB;
  bool Started;     ///< snapshots may be taken (after start-up)
  bool StartupDone; ///< startup() was called
  bool EagerClassify;
  bool BlocksDiscarded; ///< discardBlocks ran: no event may follow

  /// After Blocks.insert(..., Id): numbers the insertion, and grows the
  /// table as Valgrind's would when it holds more records than chains.
  void noteInserted(uint32_t Id) {
    Arena.ownerY(Id) = uint32_t(++Inserts);
    if (__builtin_expect(Blocks.size() > HashChains, 0))
      growHashTable();
    if (__builtin_expect(Inserts >= SeqLimit, 0))
      renumberInserts();
  }
  uint64_t insertionOf(uint32_t Id) { return Arena.ownerY(Id); }
  void renumberInserts();
  void growHashTable() {
    if (HashGrown == MaxHashGrowths) {
      HashChains = ~uint64_t(0); // the last prime: it grows no more
      return;
    }
    HashGrownAt[HashGrown++] = Inserts;
    HashChains = valgrindHashChains(HashGrown);
  }

  /// The current time in the selected unit.
  int64_t now() const {
    if (Opts.TimeUnit == TimeUnit::Bytes)
      return int64_t(Hot.TimeB);
    return int64_t(Clk.Now(Clk.Ctx) - Hot.ClockBase);
  }
  Totals totals() const { return Totals{Hot.HeapB, Hot.ExtraB, Hot.StacksB}; }

  /// Copies the engine's thresholds into Hot, after a snapshot moved them.
  void syncThresholds() {
    Hot.EarliestNext = Snaps.earliestNext();
    Hot.PeakLimitB = Snaps.peakLimitB();
  }
  /// What names the event in Massif's -v -v lines.
  void maybeNormal(const char *What) {
    if (!Started)
      return;
    int64_t T = now();
    if (Snaps.normalDue(T)) {
      Snaps.takeNormal(T, totals(), Tree.live(), What);
      syncThresholds();
    } else {
      ++Hot.NumSkipped;
    }
  }
  void maybePeak(const char *What) {
    if (Started && Snaps.peakDue(Hot.HeapB + Hot.ExtraB + Hot.StacksB)) {
      Snaps.takePeak(now(), totals(), Tree.live(), What);
      syncThresholds();
    }
  }

  /// Massif's record of a live block (HP_Chunk), kept in its node: the
  /// entry in X, the insertion's number in Y (noteInserted). An arena
  /// block keeps its slop in the node's 16 high bits, and its request is
  /// its usable size less the slop (Massif keeps req + slop equal to the
  /// usable size across in-place reallocs); a detached block keeps its
  /// request in its Word, beside the slop the arena keeps. A value that
  /// does not fit reads Escape there and lives in Large.
  struct BlockInfo {
    uint64_t ReqB, SlopB;
    uint32_t Entry;
  };
  static constexpr uint32_t SlopEscape = 0xFFFF;
  static constexpr uint64_t ReqEscape = ClientArena::MaxDetachedOwnerBits;
  BlockInfo info(uint32_t Id) {
    uint32_t E = Arena.ownerX(Id);
    if (__builtin_expect(Arena.isDetached(Id), 0)) {
      uint64_t ReqB = Arena.detachedOwnerBits(Id);
      if (ReqB == ReqEscape)
        ReqB = Large.get(Id);
      return BlockInfo{ReqB, Arena.detachedSlopB(Id), E};
    }
    uint64_t SlopB = Arena.ownerHigh(Id);
    if (__builtin_expect(SlopB == SlopEscape, 0))
      SlopB = Large.get(Id);
    return BlockInfo{Arena.usableB(Id) - SlopB, SlopB, E};
  }
  /// Records ReqB bytes charged to Entry in node Id, a fresh node or a
  /// block reallocated in place; SlopB is its usable size less ReqB (a
  /// detached node holds its slop already). False when memory is
  /// exhausted: the caller releases the node.
  MASSIF_ALWAYS_INLINE bool setRecord(uint32_t Id, uint64_t ReqB,
                                      uint64_t SlopB, uint32_t Entry) {
    Arena.ownerX(Id) = Entry;
    forgetLarge(Id); // a block reallocated in place had one
    if (__builtin_expect(Arena.isDetached(Id), 0)) {
      Arena.setDetachedOwnerBits(Id, ReqB < ReqEscape ? ReqB : ReqEscape);
      return ReqB < ReqEscape || Large.set(Id, ReqB);
    }
    Arena.setOwnerHigh(Id, uint32_t(SlopB < SlopEscape ? SlopB : SlopEscape));
    return SlopB < SlopEscape || Large.set(Id, SlopB);
  }
  /// Before node Id's record goes (its block freed or moved): forgets a
  /// value it kept in Large.
  void forgetLarge(uint32_t Id) {
    if (__builtin_expect(Large.size() != 0, 0) &&
        (Arena.isDetached(Id) ? Arena.detachedOwnerBits(Id) == ReqEscape
                              : Arena.ownerHigh(Id) == SlopEscape))
      Large.erase(Id);
  }
  /// Records node Id (allocated for ReqB bytes with SlopB) at Addr. The
  /// snapshot attempts are skipped when MaybeSnapshot is false (the inner
  /// pages of a mapping, as Massif's record_block).
  void record(uint64_t Addr, uint32_t Id, uint64_t ReqB, uint64_t SlopB,
              StackId Stack, bool MaybeSnapshot = true);
  /// The same, for a block charged to entry E (record finds E for Stack).
  void recordIn(uint64_t Addr, uint32_t Id, uint64_t ReqB, uint64_t SlopB,
                uint32_t E, bool MaybeSnapshot);
  bool free(uint64_t Addr, bool MaybeSnapshot = true, StackId FreeStack = 0);
  bool realloc(uint64_t OldAddr, uint64_t NewAddr, uint64_t NewReqB,
               bool Replay, uint64_t GivenSlopB, StackId Stack);

  /// heaptrack's figures of entry E (SiteStats.h); none for NoEntry.
  void siteAllocated(uint32_t E, uint64_t ReqB) {
    if (E != AllocTree::NoEntry)
      Sites.allocated(Tree.Sites[E], E, ReqB);
  }
  void siteFreed(uint32_t E, uint64_t ReqB) {
    if (E != AllocTree::NoEntry)
      Sites.freed(Tree.Sites[E], E, ReqB);
  }

  /// The entry for Stack, classified at first sight when names decide
  /// what is ignored. NoEntry when memory is exhausted.
  uint32_t entryFor(StackId Stack) {
    if (uint32_t E = Tree.find(Stack))
      return E;
    return createEntry(Stack);
  }
  uint32_t createEntry(StackId Stack);
  void classify(uint32_t E);
  StackId stackOf(uint32_t E) const { return E > AllocTree::NoEntry ? Tree.Stacks[E] : 0; }
  bool ignored(uint32_t E) const {
    return entry_class::isIgnored(Tree.Class[E]);
  }
};

/// The cmd: line of massif.out and of the sites file (Writer.cpp).
void writeCmdLine(class TextWriter &W, const RunInfo &Run);

} // namespace massif

#endif // MASSIF_CORE_PROFILEIMPL_H
