//===- SnapshotTrace.cpp - Massif's -v -v lines about snapshots -----------===//
//
// Part of massif-native, under the MIT licence.
//
// With Valgrind's verbosity 2 (-v -v) Massif logs every snapshot it takes
// ("  alloc S.  7 (t:..., hp:..., ex:..., st:...)", the event's name, the
// kind: . normal, d detailed, p peak, and the index), how many Normal
// attempts were skipped before it, and each culling: the start, each
// snapshot deleted (the round, its neighbours' span), the
// intervals between two uncullable snapshots left out of the minimum,
// the count deleted, every survivor and the new minimum interval. These
// are the same lines, built without printf (the core also runs inside
// Valgrind's tool), handed to the engine's SnapshotTrace; the engine calls
// here only when a trace is set.
//
//===----------------------------------------------------------------------===//

#include "SnapshotEngine.h"

namespace massif {
namespace {

class Line {
public:
  Line &add(const char *S) {
    while (*S && Len + 1 < sizeof(Buf))
      Buf[Len++] = *S++;
    Buf[Len] = 0;
    return *this;
  }
  /// V in decimal, right-aligned in Width columns (C's %<Width>d).
  Line &num(int64_t V, unsigned Width = 0) {
    char Tmp[24];
    unsigned N = 0;
    uint64_t U = V < 0 ? 0 - uint64_t(V) : uint64_t(V);
    do {
      Tmp[N++] = char('0' + U % 10);
      U /= 10;
    } while (U);
    if (V < 0)
      Tmp[N++] = '-';
    for (unsigned I = N; I < Width; ++I)
      add(" ");
    while (N) {
      char C[2] = {Tmp[--N], 0};
      add(C);
    }
    return *this;
  }
  const char *text() const { return Buf; }

private:
  char Buf[160] = {};
  unsigned Len = 0;
};

} // namespace

void SnapshotEngine::traceSnapshot(const char *Prefix, uint32_t I) const {
  const Snapshot &S = Snaps[I];
  const char *Suffix = S.Kind == SnapshotKind::Peak ? "p"
                       : S.Kind == SnapshotKind::Unused
                           ? "u"
                           : (S.Detailed ? "d" : ".");
  Line L;
  L.add(Prefix).add(" S").add(Suffix).num(I, 3).add(" (t:").num(S.Time);
  L.add(", hp:").num(int64_t(S.HeapB)).add(", ex:").num(int64_t(S.ExtraB));
  L.add(", st:").num(int64_t(S.StacksB)).add(")");
  Trace.Line(Trace.Ctx, L.text());
}

void SnapshotEngine::traceTaken(const char *What) {
  if (Skipped > 0) {
    Line L;
    L.add("  (skipped ").num(Skipped).add(Skipped == 1 ? " snapshot)"
                                                        : " snapshots)");
    Trace.Line(Trace.Ctx, L.text());
  }
  traceSnapshot(What, Used - 1);
  Skipped = 0;
}

void SnapshotEngine::traceCullStart() const {
  Trace.Line(Trace.Ctx, "Culling...");
}

void SnapshotEngine::traceCulled(uint32_t Round, uint64_t Span,
                                 uint32_t I) const {
  Line L;
  L.add(" ").num(Round, 3).add(" (t-span = ").num(int64_t(Span)).add(")");
  traceSnapshot(L.text(), I);
}

void SnapshotEngine::traceCullEnd(uint32_t Deleted) const {
  // The minimum interval as Massif finds it, naming the pairs it skips and
  // the first pair at the minimum.
  int64_t MinSpan = INT64_MAX;
  uint32_t MinI = 0;
  for (uint32_t I = 1; I < Used; ++I) {
    if (uncullable(I) && uncullable(I - 1)) {
      Line L;
      L.add("(Ignoring interval ").num(I - 1).add("--").num(I);
      L.add(" when computing minimum)");
      Trace.Line(Trace.Ctx, L.text());
      continue;
    }
    int64_t Span = Snaps[I].Time - Snaps[I - 1].Time;
    if (Span < MinSpan) {
      MinSpan = Span;
      MinI = I;
    }
  }
  Line L;
  L.add("Finished culling (").num(Deleted, 3).add(" of ").num(Max, 3);
  L.add(" deleted)");
  Trace.Line(Trace.Ctx, L.text());
  for (uint32_t I = 0; I < Used; ++I)
    traceSnapshot("  post-cull", I);
  if (MinI == 0)
    return;
  Line N;
  N.add("New time interval = ").num(MinSpan).add(" (between snapshots ");
  N.num(MinI - 1).add(" and ").num(MinI).add(")");
  Trace.Line(Trace.Ctx, N.text());
}

} // namespace massif
