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
#include "Profile.h"
#include "SnapshotEngine.h"
#include "StackFilter.h"

namespace massif {

struct Profile::Impl {
  Options Opts; ///< a deep copy; its strings live in the model's memory
  Allocator A;
  StackDepot *Depot;
  Symbolizer Sym;
  Clock Clk;

  BlockTable Blocks;
  AllocTree Tree;
  SnapshotEngine Snaps;
  StackFilter Filter;

  uint64_t HeapB;   ///< useful bytes of live non-ignored blocks
  uint64_t ExtraB;  ///< admin + slop bytes of the same blocks
  uint64_t StacksB; ///< --stacks=yes
  uint64_t TimeB;   ///< bytes allocated + freed so far (--time-unit=B)
  uint64_t ClockBase;
  uint64_t AdminB;
  bool Started;     ///< snapshots may be taken (after start-up)
  bool StartupDone; ///< startup() was called
  bool EagerClassify;

  /// The current time in the selected unit.
  int64_t now() const {
    if (Opts.TimeUnit == TimeUnit::Bytes)
      return int64_t(TimeB);
    return int64_t(Clk.Now(Clk.Ctx) - ClockBase);
  }
  Totals totals() const { return Totals{HeapB, ExtraB, StacksB}; }

  void maybeNormal() {
    if (!Started)
      return;
    int64_t T = now();
    if (Snaps.normalDue(T))
      Snaps.takeNormal(T, totals(), Tree.Values, Tree.numEntries());
  }
  void maybePeak() {
    if (Started && Snaps.peakDue(HeapB + ExtraB + StacksB))
      Snaps.takePeak(now(), totals(), Tree.Values, Tree.numEntries());
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
  bool ignored(uint32_t E) const {
    return entry_class::isIgnored(Tree.Class[E]);
  }
};

} // namespace massif

#endif // MASSIF_CORE_PROFILEIMPL_H
