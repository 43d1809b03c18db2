//===- SnapshotEngine.h - Massif's snapshots, peaks and culling -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Overview of operation (Massif's maybe_take_snapshot and cull_snapshots):
//
// After every event the model makes a Normal attempt; before every
// deallocation it first makes a Peak attempt.
//
//  * Normal: skipped while time < EarliestNext, the one comparison on the
//    common path. Otherwise taken; it is detailed when SinceDetailed has
//    reached --detailed-freq - 1.
//  * Peak: taken (always detailed, ignoring EarliestNext) only when the
//    current total exceeds the last peak by more than --peak-inaccuracy
//    percent; the previous peak snapshot becomes Normal (still detailed).
//
// Taking a snapshot appends it; when the array reaches --max-snapshots it
// is culled at once: max/2 times, the cullable snapshot (not the first,
// not the last, not the peak) whose neighbours are closest in time is
// deleted; the survivors slide down, and the smallest remaining gap
// between neighbours (ignoring gaps between two uncullable snapshots)
// becomes the new minimum interval. EarliestNext = time + that interval.
//
// A detailed snapshot owns a copy of the allocation tree's values as they
// were (AllocTree.h); nothing else of the tree is copied. A culled
// snapshot's array is kept for the next detailed one: a program whose
// snapshots crowd in (the minimum interval stays small) takes hundreds of
// thousands of them, most culled again at once.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_SNAPSHOTENGINE_H
#define MASSIF_CORE_SNAPSHOTENGINE_H

#include "Base.h"

namespace massif {

enum class SnapshotKind : uint8_t { Unused, Normal, Peak };

struct Snapshot {
  int64_t Time;
  uint64_t HeapB;
  uint64_t ExtraB;
  uint64_t StacksB;
  uint64_t *Values;   ///< frozen tree values, or null when not detailed
  uint32_t NumValues; ///< entries that existed when it was taken
  uint32_t ValuesCap; ///< the Values array's size (it may be larger)
  SnapshotKind Kind;
  bool Detailed;
};

/// The totals a snapshot records.
struct Totals {
  uint64_t HeapB;
  uint64_t ExtraB;
  uint64_t StacksB;
};

class SnapshotEngine {
public:
  bool init(const Allocator &A, uint32_t MaxSnapshots, uint32_t DetailedFreq,
            double PeakInaccuracy, bool KeepTrees);

  /// The fast test of a Normal attempt.
  bool normalDue(int64_t Time) const { return Time >= EarliestNext; }
  /// The fast test of a Peak attempt.
  bool peakDue(uint64_t TotalB) const { return TotalB > PeakLimitB; }
  /// The thresholds of the two tests.
  int64_t earliestNext() const { return EarliestNext; }
  uint64_t peakLimitB() const { return PeakLimitB; }

  /// Takes a Normal snapshot (the caller checked normalDue). Values[0..N)
  /// are the tree's current values, copied if the snapshot is detailed.
  void takeNormal(int64_t Time, const Totals &T, const uint64_t *Values,
                  uint32_t N);
  /// Takes a Peak snapshot (the caller checked peakDue).
  void takePeak(int64_t Time, const Totals &T, const uint64_t *Values,
                uint32_t N);

  uint32_t size() const { return Used; }
  const Snapshot &at(uint32_t I) const { return Snaps[I]; }

  /// Snapshots deleted by culling so far, for statistics.
  uint64_t culled() const { return NumCulled; }

private:
  void take(SnapshotKind Kind, int64_t Time, bool Detailed, const Totals &T,
            const uint64_t *Values, uint32_t N);
  int64_t cull();
  bool uncullable(uint32_t I) const {
    return I == 0 || I == Used - 1 || Snaps[I].Kind == SnapshotKind::Peak;
  }
  void release(Snapshot &S);
  /// An array of at least N values, a spare one if it is big enough.
  uint64_t *valuesFor(uint32_t N, uint32_t &Cap);

  Allocator A{};
  Snapshot *Snaps = nullptr;
  uint32_t Max = 0;
  uint32_t Used = 0;
  uint32_t DetailedFreq = 10;
  uint32_t SinceDetailed = 0;
  double PeakInaccuracy = 1.0;
  bool KeepTrees = true;
  int64_t MinInterval = 0;
  int64_t EarliestNext = 0;
  uint64_t PeakTotalB = 0;
  uint64_t PeakLimitB = 0; ///< PeakTotalB plus the allowed inaccuracy
  uint64_t NumCulled = 0;
  /// cull's working memory: the alive list's links (Max entries each),
  /// the spans (Max + 1) and the tournament tree (2 * Leaves), Leaves
  /// being the least power of two not below Max.
  uint32_t *CullPrev = nullptr, *CullNext = nullptr, *CullWin = nullptr;
  uint64_t *CullSpan = nullptr;
  uint32_t Leaves = 1;
  /// Value arrays of culled snapshots, for reuse (at most Max).
  uint64_t **Spare = nullptr;
  uint32_t *SpareCap = nullptr;
  uint32_t NumSpare = 0;
};

} // namespace massif

#endif // MASSIF_CORE_SNAPSHOTENGINE_H
