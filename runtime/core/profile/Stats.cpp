//===- Stats.cpp - Massif's --stats=yes lines -----------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// With Valgrind's core option --stats=yes Massif prints, at the end, after
// writing its file, twelve counters of what it did: heap allocations,
// reallocations and frees of blocks charged to a stack and of ignored ones,
// stack growths, skipped Normal attempts, and snapshots taken (all, the
// detailed ones, the peaks) and cullings. Each is one line of Valgrind's
// debug messages, "Massif: " and a label padded so that the numbers start
// in one column. Massif keeps them in 32-bit counters and prints them with
// %u: the figures here, counted in 64 bits, are printed modulo 2^32 so that
// they read the same. Built without printf (the core also runs inside
// Valgrind's tool), and handed to the engine's line writer.
//
//===----------------------------------------------------------------------===//

#include "Profile.h"
#include "SnapshotEngine.h"
#include "TextWriter.h"

namespace massif {

void traceStats(const ProfileStats &S, const SnapshotTrace &T) {
  if (!T.Line)
    return;
  const struct {
    const char *Label;
    uint64_t Value;
  } Rows[] = {
      {"heap allocs:           ", S.HeapAllocs},
      {"heap reallocs:         ", S.HeapReallocs},
      {"heap frees:            ", S.HeapFrees},
      {"ignored heap allocs:   ", S.IgnoredHeapAllocs},
      {"ignored heap frees:    ", S.IgnoredHeapFrees},
      {"ignored heap reallocs: ", S.IgnoredHeapReallocs},
      {"stack allocs:          ", S.StackAllocs},
      {"skipped snapshots:     ", S.SkippedSnapshots},
      {"real snapshots:        ", S.RealSnapshots},
      {"detailed snapshots:    ", S.DetailedSnapshots},
      {"peak snapshots:        ", S.PeakSnapshots},
      {"cullings:              ", S.Cullings},
  };
  for (const auto &R : Rows) {
    char Buf[64];
    FixedText L(Buf, sizeof(Buf));
    L.add(R.Label).addInt(int64_t(uint32_t(R.Value)));
    T.Line(T.Ctx, L.text());
  }
}

} // namespace massif
