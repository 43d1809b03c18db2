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
  // Options allow 10 to 1000. Below 4 a cull could find nothing to delete
  // (the first, the last and the peak are kept) and the array would stay
  // full.
  Max = MaxSnapshots < 4 ? 4 : MaxSnapshots;
  DetailedFreq = Freq ? Freq : 1;
  PeakInaccuracy = Inaccuracy;
  KeepTrees = Trees;
  Snaps = allocArray<Snapshot>(A, Max);
  Spare = allocArray<ValueChunk **>(A, Max);
  SpareCap = allocArray<uint32_t>(A, Max);
  CullPrev = allocArray<uint32_t>(A, Max);
  CullNext = allocArray<uint32_t>(A, Max);
  Leaves = 1;
  while (Leaves < Max)
    Leaves *= 2;
  CullSpan = allocArray<uint64_t>(A, 2 * Leaves);
  CullWin = allocArray<uint32_t>(A, 2 * Leaves);
  return Snaps && Spare && SpareCap && CullPrev && CullNext && CullSpan &&
         CullWin;
}

void SnapshotEngine::unref(ValueChunk *C) {
  if (--C->Refs == 0) {
    memcpy(&C->V[0], &FreeChunks, sizeof(FreeChunks));
    FreeChunks = C;
  }
}

ValueChunk *SnapshotEngine::newChunk() {
  ValueChunk *C = FreeChunks;
  if (C)
    memcpy(&FreeChunks, &C->V[0], sizeof(FreeChunks));
  else
    C = allocArray<ValueChunk>(A, 1);
  if (C)
    C->Refs = 1; // Latest's
  return C;
}

void SnapshotEngine::release(Snapshot &S) {
  if (S.Chunks) {
    uint32_t NumChunks =
        (S.NumValues + ValueChunkEntries - 1) >> ValueChunkBits;
    for (uint32_t K = 0; K < NumChunks; ++K)
      unref(S.Chunks[K]);
    if (NumSpare < Max) {
      Spare[NumSpare] = S.Chunks;
      SpareCap[NumSpare++] = S.ChunksCap;
    } else {
      freeArray(A, S.Chunks, S.ChunksCap);
    }
  }
  memset(&S, 0, sizeof(S));
}

ValueChunk **SnapshotEngine::tableFor(uint32_t N, uint32_t &Cap) {
  // The tree only grows, so the last spare is as big as any; one too small
  // is dropped.
  while (NumSpare) {
    --NumSpare;
    if (SpareCap[NumSpare] >= N) {
      Cap = SpareCap[NumSpare];
      return Spare[NumSpare];
    }
    freeArray(A, Spare[NumSpare], SpareCap[NumSpare]);
  }
  Cap = N;
  return allocArray<ValueChunk *>(A, N);
}

bool SnapshotEngine::freeze(Snapshot &S, const LiveValues &V) {
  uint32_t N = V.N ? V.N : 1;
  uint32_t NumChunks = (N + ValueChunkEntries - 1) >> ValueChunkBits;
  if (NumChunks > LatestCap) {
    size_t Cap = LatestCap;
    if (!growArray(A, Latest, NumLatest, Cap, NumChunks + NumChunks / 2))
      return false;
    LatestCap = uint32_t(Cap);
  }
  uint32_t TableCap;
  ValueChunk **Table = tableFor(NumChunks, TableCap);
  if (!Table)
    return false;
  for (uint32_t K = 0; K < NumChunks; ++K) {
    ValueChunk *C = K < NumLatest ? Latest[K] : nullptr;
    if (!C || V.Dirty[K]) {
      // Changed since its latest copy (or never copied): copy it whole;
      // the entries past N are zero, and stay zero until one is created
      // and changed, which sets the flag.
      ValueChunk *Copy = newChunk();
      if (!Copy) {
        for (uint32_t J = 0; J < K; ++J)
          unref(Table[J]);
        freeArray(A, Table, TableCap);
        return false;
      }
      memcpy(Copy->V, V.Values + (size_t(K) << ValueChunkBits),
             sizeof(Copy->V));
      if (C)
        unref(C);
      C = Latest[K] = Copy;
      V.Dirty[K] = 0;
    }
    ++C->Refs;
    Table[K] = C;
  }
  if (NumChunks > NumLatest)
    NumLatest = NumChunks;
  S.Chunks = Table;
  S.ChunksCap = TableCap;
  S.NumValues = N;
  return true;
}

void SnapshotEngine::take(SnapshotKind Kind, int64_t Time, bool Detailed,
                          const Totals &T, const LiveValues &V,
                          const char *What) {
  Snapshot &S = Snaps[Used];
  S.Kind = Kind;
  S.Time = Time;
  S.HeapB = T.HeapB;
  S.ExtraB = T.ExtraB;
  S.StacksB = T.StacksB;
  S.Detailed = Detailed && KeepTrees;
  S.Chunks = nullptr;
  S.NumValues = 0;
  S.ChunksCap = 0;
  // Out of memory degrades the snapshot to a normal one.
  if (S.Detailed && !freeze(S, V))
    S.Detailed = false;
  // The detailed count follows the decision, not whether a tree was kept
  // (with --heap=no Massif still counts every Nth snapshot as detailed).
  SinceDetailed = Detailed ? 0 : SinceDetailed + 1;
  ++NumTaken;
  NumDetailed += Detailed;
  NumPeaks += Kind == SnapshotKind::Peak;
  ++Used;
  if (Trace.Line)
    traceTaken(What);
  if (Skips)
    SkipsAtLast = *Skips;
  if (Used == Max)
    MinInterval = cull();
  EarliestNext = Time + MinInterval;
}

void SnapshotEngine::takeNormal(int64_t Time, const Totals &T,
                                const LiveValues &V, const char *What) {
  take(SnapshotKind::Normal, Time, SinceDetailed == DetailedFreq - 1, T, V,
       What);
}

void SnapshotEngine::takePeak(int64_t Time, const Totals &T,
                              const LiveValues &V, const char *What) {
  // The new peak is appended after the old one is demoted, so culling
  // (which may run inside take) sees exactly one Peak.
  for (uint32_t I = 0; I < Used; ++I)
    if (Snaps[I].Kind == SnapshotKind::Peak)
      Snaps[I].Kind = SnapshotKind::Normal;
  PeakTotalB = T.HeapB + T.ExtraB + T.StacksB;
  PeakLimitB =
      PeakTotalB + truncToU64((double(PeakTotalB) * PeakInaccuracy) / 100);
  take(SnapshotKind::Peak, Time, /*Detailed=*/true, T, V, What);
}

namespace {

constexpr uint32_t None = ~uint32_t(0);
/// The span of a snapshot that cannot be culled (times are non-negative,
/// so no real span comes near it).
constexpr uint64_t NoSpan = ~uint64_t(0);

} // namespace

int64_t SnapshotEngine::cull() {
  // Delete Max/2 snapshots one at a time: each time the cullable one (not
  // the first, not the last, not the peak) whose neighbours span the least
  // time, the first such in array order. The alive snapshots are a linked
  // list; a deletion changes its own span and its two neighbours'.
  //
  // A tournament tree over the positions finds that one: leaf Leaves + I
  // stands for position I (positions past Max for none), and each inner
  // node holds the winner of its two children, the left one on equal
  // spans, so the root holds the least span at the first position. A
  // deletion replays the matches on the paths from the three changed
  // leaves to the root.
  ++NumCullings;
  if (Trace.Line)
    traceCullStart();
  uint64_t CulledBefore = NumCulled;
  uint32_t *Prev = CullPrev, *Next = CullNext, *Win = CullWin;
  uint64_t *Span = CullSpan; // each node's winner's span
  auto spanOf = [&](uint32_t I) {
    if (Prev[I] == None || Next[I] == None ||
        Snaps[I].Kind == SnapshotKind::Peak)
      return NoSpan;
    return uint64_t(Snaps[Next[I]].Time - Snaps[Prev[I]].Time);
  };
  auto play = [&](uint32_t Node) {
    uint64_t LS = Span[2 * Node], RS = Span[2 * Node + 1];
    uint32_t L = Win[2 * Node], R = Win[2 * Node + 1];
    bool Right = RS < LS;
    Win[Node] = Right ? R : L;
    Span[Node] = Right ? RS : LS;
  };

  for (uint32_t I = 0; I < Max; ++I) {
    Prev[I] = I ? I - 1 : None;
    Next[I] = I + 1 < Max ? I + 1 : None;
  }
  for (uint32_t I = 0; I < Leaves; ++I) {
    Win[Leaves + I] = I;
    Span[Leaves + I] = I < Max ? spanOf(I) : NoSpan;
  }
  for (uint32_t Node = Leaves - 1; Node; --Node)
    play(Node);

  for (uint32_t Deleted = 0; Deleted < Max / 2; ++Deleted) {
    if (Span[1] == NoSpan)
      break; // nothing left to cull
    uint32_t J = Win[1];
    uint32_t P = Prev[J], N = Next[J];
    if (Trace.Line)
      traceCulled(uint32_t(NumCulled - CulledBefore), Span[1], J);
    release(Snaps[J]);
    ++NumCulled;
    Next[P] = N;
    Prev[N] = P;
    Span[Leaves + J] = NoSpan;
    Span[Leaves + P] = spanOf(P);
    Span[Leaves + N] = spanOf(N);
    // Replay the matches above the three leaves, each once: P < J < N, so
    // the paths meet in order and a node shared with the path left of it
    // is played only there.
    uint32_t A = (Leaves + P) / 2, B = (Leaves + J) / 2, C = (Leaves + N) / 2;
    for (; A; A /= 2, B /= 2, C /= 2) {
      play(A);
      if (B != A)
        play(B);
      if (C != B)
        play(C);
    }
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
  if (Trace.Line)
    traceCullEnd(uint32_t(NumCulled - CulledBefore));
  return MinSpan == INT64_MAX ? 0 : MinSpan;
}

} // namespace massif
