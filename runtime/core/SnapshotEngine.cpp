//===- SnapshotEngine.cpp - Massif's snapshots, peaks and culling ---------===//
//
// Part of massif-native, under the MIT licence.
//
// See SnapshotEngine.h for the overview. Everything here runs only when a
// snapshot is actually taken.
//
//===----------------------------------------------------------------------===//

#include "SnapshotEngine.h"
#include "Memory.h"

#include <string.h>

namespace massif {
namespace {

/// Converts a non-negative double to uint64 by truncation, as Massif's
/// (SizeT) cast does; negative values (a negative --peak-inaccuracy) give
/// 0, the only result Valgrind survives with.
uint64_t truncToU64(double V) {
  if (!(V > 0))
    return 0;
  if (V >= 18446744073709551615.0)
    return ~uint64_t(0);
  return uint64_t(V);
}

} // namespace

bool SnapshotEngine::init(const Allocator &Alloc, uint32_t MaxSnapshots,
                          uint32_t Freq, double Inaccuracy, bool Trees) {
  A = Alloc;
  Max = MaxSnapshots < 2 ? 2 : MaxSnapshots;
  DetailedFreq = Freq ? Freq : 1;
  PeakInaccuracy = Inaccuracy;
  KeepTrees = Trees;
  Snaps = allocArray<Snapshot>(A, Max);
  return Snaps != nullptr;
}

void SnapshotEngine::release(Snapshot &S) {
  freeArray(A, S.Values, S.NumValues);
  memset(&S, 0, sizeof(S));
}

void SnapshotEngine::take(SnapshotKind Kind, int64_t Time, bool Detailed,
                          const Totals &T, const uint64_t *Values, uint32_t N) {
  Snapshot &S = Snaps[Used];
  S.Kind = Kind;
  S.Time = Time;
  S.HeapB = T.HeapB;
  S.ExtraB = T.ExtraB;
  S.StacksB = T.StacksB;
  S.Detailed = Detailed && KeepTrees;
  S.Values = nullptr;
  S.NumValues = 0;
  if (S.Detailed) {
    // Out of memory degrades the snapshot to a normal one.
    S.Values = allocArray<uint64_t>(A, N ? N : 1);
    if (S.Values) {
      memcpy(S.Values, Values, N * sizeof(uint64_t));
      S.NumValues = N ? N : 1;
    } else {
      S.Detailed = false;
    }
  }
  // The detailed count follows the decision, not whether a tree was kept
  // (with --heap=no Massif still counts every Nth snapshot as detailed).
  SinceDetailed = Detailed ? 0 : SinceDetailed + 1;
  ++Used;
  if (Used == Max)
    MinInterval = cull();
  EarliestNext = Time + MinInterval;
}

void SnapshotEngine::takeNormal(int64_t Time, const Totals &T,
                                const uint64_t *Values, uint32_t N) {
  take(SnapshotKind::Normal, Time, SinceDetailed == DetailedFreq - 1, T, Values,
       N);
}

void SnapshotEngine::takePeak(int64_t Time, const Totals &T,
                              const uint64_t *Values, uint32_t N) {
  // The new peak is appended after the old one is demoted, so culling
  // (which may run inside take) sees exactly one Peak.
  for (uint32_t I = 0; I < Used; ++I)
    if (Snaps[I].Kind == SnapshotKind::Peak)
      Snaps[I].Kind = SnapshotKind::Normal;
  PeakTotalB = T.HeapB + T.ExtraB + T.StacksB;
  PeakLimitB =
      PeakTotalB + truncToU64((double(PeakTotalB) * PeakInaccuracy) / 100);
  take(SnapshotKind::Peak, Time, /*Detailed=*/true, T, Values, N);
}

int64_t SnapshotEngine::cull() {
  // Delete Max/2 snapshots one at a time: each time the cullable one
  // whose neighbours span the least time (first such in array order).
  for (uint32_t Round = 0; Round < Max / 2; ++Round) {
    uint32_t Prev = 0, Cur = 1;
    while (Cur < Max && Snaps[Cur].Kind == SnapshotKind::Unused)
      ++Cur;
    uint32_t Next = Cur + 1;
    while (Next < Max && Snaps[Next].Kind == SnapshotKind::Unused)
      ++Next;
    int64_t MinSpan = INT64_MAX;
    uint32_t MinJ = Max;
    while (Next < Max) {
      int64_t Span = Snaps[Next].Time - Snaps[Prev].Time;
      if (Snaps[Cur].Kind != SnapshotKind::Peak && Span < MinSpan) {
        MinSpan = Span;
        MinJ = Cur;
      }
      Prev = Cur;
      Cur = Next;
      ++Next;
      while (Next < Max && Snaps[Next].Kind == SnapshotKind::Unused)
        ++Next;
    }
    if (MinJ == Max)
      break; // nothing cullable (cannot happen with Max >= 10)
    release(Snaps[MinJ]);
    ++NumCulled;
  }

  // Slide the survivors down.
  uint32_t To = 0;
  for (uint32_t From = 0; From < Max; ++From) {
    if (Snaps[From].Kind == SnapshotKind::Unused)
      continue;
    if (To != From) {
      Snaps[To] = Snaps[From];
      memset(&Snaps[From], 0, sizeof(Snapshot));
    }
    ++To;
  }
  Used = To;

  // The new minimum interval, ignoring gaps between two uncullable
  // snapshots (they would otherwise pin it small forever).
  int64_t MinSpan = INT64_MAX;
  for (uint32_t I = 1; I < Used; ++I) {
    if (uncullable(I) && uncullable(I - 1))
      continue;
    int64_t Span = Snaps[I].Time - Snaps[I - 1].Time;
    if (Span < MinSpan)
      MinSpan = Span;
  }
  return MinSpan == INT64_MAX ? 0 : MinSpan;
}

} // namespace massif
