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
  Spare = allocArray<uint64_t *>(A, Max);
  SpareCap = allocArray<uint32_t>(A, Max);
  CullPrev = allocArray<uint32_t>(A, Max);
  CullNext = allocArray<uint32_t>(A, Max);
  CullStamp = allocArray<uint32_t>(A, Max);
  // Max - 2 spans at first, two more per deletion (Max / 2 of them).
  CullHeap = allocArray<SpanEntry>(A, 2 * Max);
  return Snaps && Spare && SpareCap && CullPrev && CullNext && CullStamp &&
         CullHeap;
}

void SnapshotEngine::release(Snapshot &S) {
  if (S.Values) {
    if (NumSpare < Max) {
      Spare[NumSpare] = S.Values;
      SpareCap[NumSpare++] = S.ValuesCap;
    } else {
      freeArray(A, S.Values, S.ValuesCap);
    }
  }
  memset(&S, 0, sizeof(S));
}

uint64_t *SnapshotEngine::valuesFor(uint32_t N, uint32_t &Cap) {
  // The tree only grows, so the last spare is as big as any; one too small
  // is dropped, and a new array leaves room for growth.
  while (NumSpare) {
    --NumSpare;
    if (SpareCap[NumSpare] >= N) {
      Cap = SpareCap[NumSpare];
      return Spare[NumSpare];
    }
    freeArray(A, Spare[NumSpare], SpareCap[NumSpare]);
  }
  uint64_t Want = uint64_t(N) + N / 4 + 16;
  Cap = Want > 0xFFFFFFFFu ? N : uint32_t(Want);
  return allocArray<uint64_t>(A, Cap);
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
  S.ValuesCap = 0;
  if (S.Detailed) {
    // Out of memory degrades the snapshot to a normal one.
    S.Values = valuesFor(N ? N : 1, S.ValuesCap);
    if (S.Values) {
      memcpy(S.Values, Values, N * sizeof(uint64_t));
      S.NumValues = N ? N : 1;
      if (!N)
        S.Values[0] = 0;
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

/// A cullable snapshot's span (the time between its neighbours) in a
/// binary min-heap ordered by span, then by position (Massif deletes the
/// first of equal spans). An entry whose span has changed since it was
/// pushed is stale: Stamp tells.
struct SpanEntry {
  int64_t Span;
  uint32_t Index;
  uint32_t Stamp;
};

namespace {

bool before(const SpanEntry &L, const SpanEntry &R) {
  return L.Span != R.Span ? L.Span < R.Span : L.Index < R.Index;
}

struct SpanHeap {
  SpanEntry *E;
  uint32_t N;
  void push(SpanEntry X) {
    uint32_t I = N++;
    while (I && before(X, E[(I - 1) / 2])) {
      E[I] = E[(I - 1) / 2];
      I = (I - 1) / 2;
    }
    E[I] = X;
  }
  SpanEntry pop() {
    SpanEntry Top = E[0], X = E[--N];
    uint32_t I = 0;
    for (;;) {
      uint32_t C = 2 * I + 1;
      if (C >= N)
        break;
      if (C + 1 < N && before(E[C + 1], E[C]))
        ++C;
      if (!before(E[C], X))
        break;
      E[I] = E[C];
      I = C;
    }
    E[I] = X;
    return Top;
  }
};

} // namespace

int64_t SnapshotEngine::cull() {
  // Delete Max/2 snapshots one at a time: each time the cullable one (not
  // the first, not the last, not the peak) whose neighbours span the least
  // time, the first such in array order. The alive snapshots are a linked
  // list; a deletion changes its two neighbours' spans, which are pushed
  // anew (the old entries go stale).
  constexpr uint32_t None = ~uint32_t(0);
  uint32_t *Prev = CullPrev, *Next = CullNext, *Stamp = CullStamp;
  memset(Stamp, 0, Max * sizeof(uint32_t));
  for (uint32_t I = 0; I < Max; ++I) {
    Prev[I] = I ? I - 1 : None;
    Next[I] = I + 1 < Max ? I + 1 : None;
  }
  SpanHeap Heap{CullHeap, 0};
  auto cullable = [&](uint32_t I) {
    return Prev[I] != None && Next[I] != None &&
           Snaps[I].Kind != SnapshotKind::Peak;
  };
  auto pushSpan = [&](uint32_t I) {
    if (cullable(I))
      Heap.push(SpanEntry{Snaps[Next[I]].Time - Snaps[Prev[I]].Time, I,
                          ++Stamp[I]});
  };
  for (uint32_t I = 0; I < Max; ++I)
    pushSpan(I);
  for (uint32_t Deleted = 0; Deleted < Max / 2 && Heap.N;) {
    SpanEntry Top = Heap.pop();
    if (Top.Stamp != Stamp[Top.Index])
      continue; // stale: its span changed since
    uint32_t J = Top.Index, P = Prev[J], N = Next[J];
    release(Snaps[J]);
    ++Deleted;
    ++NumCulled;
    Stamp[J] = 0;
    Next[P] = N;
    Prev[N] = P;
    pushSpan(P);
    pushSpan(N);
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
