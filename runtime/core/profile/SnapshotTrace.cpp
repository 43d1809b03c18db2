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
#include "TextWriter.h"

namespace massif {
void SnapshotEngine::traceSnapshot(const char *Prefix, uint32_t I) const {
  const Snapshot &S = Snaps[I];
  const char *Suffix = S.Kind == SnapshotKind::Peak ? "p"
                       : S.Kind == SnapshotKind::Unused
                           ? "u"
                           : (S.Detailed ? "d" : ".");
  char LBuf[160];
  FixedText L(LBuf, sizeof(LBuf));
  L.add(Prefix).add(" S").add(Suffix).addInt(I, 3).add(" (t:").addInt(S.Time);
  L.add(", hp:").addInt(int64_t(S.HeapB)).add(", ex:").addInt(int64_t(S.ExtraB));
  L.add(", st:").addInt(int64_t(S.StacksB)).add(")");
  Trace.Line(Trace.Ctx, L.text());
}

void SnapshotEngine::traceTaken(const char *What) {
  uint64_t Skipped = Skips ? *Skips - SkipsAtLast : 0;
  if (Skipped > 0) {
    char LBuf[160];
    FixedText L(LBuf, sizeof(LBuf));
    L.add("  (skipped ").addInt(int64_t(Skipped));
    L.add(Skipped == 1 ? " snapshot)" : " snapshots)");
    Trace.Line(Trace.Ctx, L.text());
  }
  traceSnapshot(What, Used - 1);
}

void SnapshotEngine::traceCullStart() const {
  Trace.Line(Trace.Ctx, "Culling...");
}

void SnapshotEngine::traceCulled(uint32_t Round, uint64_t Span,
                                 uint32_t I) const {
  char LBuf[160];
  FixedText L(LBuf, sizeof(LBuf));
  L.add(" ").addInt(Round, 3).add(" (t-span = ").addInt(int64_t(Span)).add(")");
  traceSnapshot(L.text(), I);
}

void SnapshotEngine::traceCullEnd(uint32_t Deleted) const {
  // The minimum interval as Massif finds it, naming the pairs it skips and
  // the first pair at the minimum.
  int64_t MinSpan = INT64_MAX;
  uint32_t MinI = 0;
  for (uint32_t I = 1; I < Used; ++I) {
    if (uncullable(I) && uncullable(I - 1)) {
      char LBuf[160];
      FixedText L(LBuf, sizeof(LBuf));
      L.add("(Ignoring interval ").addInt(I - 1).add("--").addInt(I);
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
  char LBuf[160];
  FixedText L(LBuf, sizeof(LBuf));
  L.add("Finished culling (").addInt(Deleted, 3).add(" of ").addInt(Max, 3);
  L.add(" deleted)");
  Trace.Line(Trace.Ctx, L.text());
  for (uint32_t I = 0; I < Used; ++I)
    traceSnapshot("  post-cull", I);
  if (MinI == 0)
    return;
  char NBuf[160];
  FixedText N(NBuf, sizeof(NBuf));
  N.add("New time interval = ").addInt(MinSpan).add(" (between snapshots ");
  N.addInt(MinI - 1).add(" and ").addInt(MinI).add(")");
  Trace.Line(Trace.Ctx, N.text());
}

} // namespace massif
