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
  // needs: the insertions so far (each live block keeps its number, in
  // Arena.ownerSeq), the chains now and when the table grew (XTree.h).
  uint64_t Inserts;
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
    Arena.ownerSeq(Id) = ++Inserts;
    if (__builtin_expect(Blocks.size() > HashChains, 0))
      growHashTable();
  }
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
  /// entry in X, the requested bytes in Y and the node's high bits. The
  /// slop of an arena block is its usable size minus the request (Massif
  /// keeps req + slop equal to the usable size across in-place reallocs).
  struct BlockInfo {
    uint64_t ReqB, SlopB;
    uint32_t Entry;
  };
  BlockInfo info(uint32_t Id) {
    uint64_t ReqB = uint64_t(Arena.ownerHigh(Id)) << 32 | Arena.ownerY(Id);
    uint64_t SlopB = Arena.isDetached(Id) ? Arena.detachedSlopB(Id)
                                          : Arena.usableB(Id) - ReqB;
    return BlockInfo{ReqB, SlopB, Arena.ownerX(Id)};
  }
  void setRecord(uint32_t Id, uint64_t ReqB, uint32_t Entry) {
    Arena.ownerX(Id) = Entry;
    Arena.ownerY(Id) = uint32_t(ReqB);
    Arena.setOwnerHigh(Id, uint32_t(ReqB >> 32));
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
