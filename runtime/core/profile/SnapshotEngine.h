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
// A detailed snapshot keeps the allocation tree's values as they were
// (AllocTree.h); nothing else of the tree is copied. The values are kept
// in chunks of ValueChunkEntries, shared: a chunk that no event changed
// since the last detailed snapshot is that snapshot's chunk, counted once
// more, and only changed chunks are copied. A program whose snapshots
// crowd in (the minimum interval stays small) takes hundreds of thousands
// of them, most culled again at once, with a few events between two.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_SNAPSHOTENGINE_H
#define MASSIF_CORE_SNAPSHOTENGINE_H

#include "Base.h"

namespace massif {

enum class SnapshotKind : uint8_t { Unused, Normal, Peak };

/// Frozen tree values are shared in chunks of this many entries.
constexpr uint32_t ValueChunkBits = 7;
constexpr uint32_t ValueChunkEntries = 1u << ValueChunkBits;

/// ValueChunkEntries consecutive entries' values, frozen, and how many
/// snapshots (and the engine's latest copy) hold them.
struct ValueChunk {
  uint64_t Refs;
  uint64_t V[ValueChunkEntries];
};

struct Snapshot {
  int64_t Time;
  uint64_t HeapB;
  uint64_t ExtraB;
  uint64_t StacksB;
  ValueChunk **Chunks; ///< frozen tree values, or null when not detailed
  uint32_t NumValues;  ///< entries that existed when it was taken
  uint32_t ChunksCap;  ///< the Chunks table's size (it may be larger)
  SnapshotKind Kind;
  bool Detailed;

  /// Entry E's value when the snapshot was taken (E < NumValues).
  uint64_t value(uint32_t E) const {
    return Chunks[E >> ValueChunkBits]->V[E & (ValueChunkEntries - 1)];
  }
};

/// The allocation tree's current values, as a detailed snapshot takes
/// them: Values[0..N) (the array's size is a multiple of
/// ValueChunkEntries, the entries past N zero), and a flag per chunk that
/// every change of a value sets (AllocTree.h) and the engine clears when
/// it copies the chunk.
struct LiveValues {
  const uint64_t *Values;
  uint8_t *Dirty;
  uint32_t N;
};

/// The totals a snapshot records.
struct Totals {
  uint64_t HeapB;
  uint64_t ExtraB;
  uint64_t StacksB;
};

/// Where Massif's verbose lines about snapshots go (Valgrind's -v -v): one
/// line of text at a time, without the "Massif: " prefix or a newline.
struct SnapshotTrace {
  void (*Line)(void *Ctx, const char *Text);
  void *Ctx;
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

  /// Takes a Normal snapshot (the caller checked normalDue). V holds the
  /// tree's current values, kept if the snapshot is detailed. What names
  /// the event in a trace line, as Massif's ("  alloc", "dealloc", ...).
  void takeNormal(int64_t Time, const Totals &T, const LiveValues &V,
                  const char *What = "  alloc");
  /// Takes a Peak snapshot (the caller checked peakDue).
  void takePeak(int64_t Time, const Totals &T, const LiveValues &V,
                const char *What = "de-PEAK");

  /// The count of Normal attempts that found no snapshot due, which the
  /// caller keeps (Profile's StackHot::NumSkipped); the trace reports how
  /// many came before each snapshot. Call before the first snapshot.
  void setSkipCounter(const uint64_t *Counter) { Skips = Counter; }

  /// Sends Massif's -v -v lines through T from now on (SnapshotTrace.cpp):
  /// a line per snapshot taken, the count of Normal attempts skipped
  /// before it, and the culling lines. Off (the default) costs a test per
  /// snapshot.
  void setTrace(const SnapshotTrace &T) { Trace = T; }

  /// A snapshot taken aside (Massif's snapshot monitor commands): counted
  /// as Massif counts it, with nothing else changed.
  void noteTakenAside(bool Detailed) {
    ++NumTaken;
    NumDetailed += Detailed;
  }

  uint32_t size() const { return Used; }
  const Snapshot &at(uint32_t I) const { return Snaps[I]; }

  /// Snapshots deleted by culling so far, for statistics.
  uint64_t culled() const { return NumCulled; }
  /// Massif's statistics: snapshots taken (culled ones and those taken
  /// aside included), detailed ones (every --detailed-freq'th and every
  /// peak, by decision, even with --heap=no), peaks, cullings.
  uint64_t taken() const { return NumTaken; }
  uint64_t detailed() const { return NumDetailed; }
  uint64_t peaks() const { return NumPeaks; }
  uint64_t cullings() const { return NumCullings; }

private:
  void take(SnapshotKind Kind, int64_t Time, bool Detailed, const Totals &T,
            const LiveValues &V, const char *What);
  /// The trace lines (SnapshotTrace.cpp).
  void traceSnapshot(const char *Prefix, uint32_t I) const;
  void traceTaken(const char *What);
  void traceCullStart() const;
  void traceCulled(uint32_t Round, uint64_t Span, uint32_t I) const;
  void traceCullEnd(uint32_t Deleted) const;
  int64_t cull();
  bool uncullable(uint32_t I) const {
    return I == 0 || I == Used - 1 || Snaps[I].Kind == SnapshotKind::Peak;
  }
  void release(Snapshot &S);
  /// Freezes V into S's chunk table; false when memory is exhausted.
  bool freeze(Snapshot &S, const LiveValues &V);
  /// A chunk to copy into, counted once (for Latest); null when memory is
  /// out.
  ValueChunk *newChunk();
  void unref(ValueChunk *C);
  /// A table of at least N chunk pointers, a spare one if big enough.
  ValueChunk **tableFor(uint32_t N, uint32_t &Cap);

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
  uint64_t NumTaken = 0, NumDetailed = 0, NumPeaks = 0, NumCullings = 0;
  SnapshotTrace Trace{nullptr, nullptr};
  const uint64_t *Skips = nullptr; ///< the caller's count of skipped attempts
  uint64_t SkipsAtLast = 0; ///< *Skips when the last snapshot was taken
  /// cull's working memory: the alive list's links (Max entries each),
  /// and the tournament tree (2 * Leaves nodes, each a winner's position
  /// and span), Leaves being the least power of two not below Max.
  uint32_t *CullPrev = nullptr, *CullNext = nullptr, *CullWin = nullptr;
  uint64_t *CullSpan = nullptr;
  uint32_t Leaves = 1;
  /// The latest copy of each chunk, which the next detailed snapshot
  /// shares while its Dirty flag stays clear (one count each).
  ValueChunk **Latest = nullptr;
  uint32_t NumLatest = 0, LatestCap = 0;
  /// Chunks no snapshot holds, chained through their first value.
  ValueChunk *FreeChunks = nullptr;
  /// Chunk tables of culled snapshots, for reuse (at most Max).
  ValueChunk ***Spare = nullptr;
  uint32_t *SpareCap = nullptr;
  uint32_t NumSpare = 0;
};

} // namespace massif

#endif // MASSIF_CORE_SNAPSHOTENGINE_H
