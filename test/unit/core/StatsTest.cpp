//===- StatsTest.cpp - Massif's --stats=yes figures -----------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The model's counters, event by event, as Massif 3.19 counts them
// (ms_main.c's n_* counters: what record_block, unrecord_block,
// realloc_block, the stack handlers, take_snapshot and cull_snapshots
// count), the stack probe's fast path, and the twelve lines Massif prints.
// test/vg-regtest and test/e2e compare the lines with Valgrind's on whole
// programs.
//
//===----------------------------------------------------------------------===//

#include "SnapshotEngine.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

namespace massif {
namespace test {
namespace {

/// A rig whose stacks are [Pc, main-call, below main].
struct Rig : ProfileRig {
  explicit Rig(const std::string &Args) : ProfileRig(Args) {
    Sym.add(0x500, "main", "t.c", 50);
    Sym.add(0x900, "__libc_start_call_main", "libc_start_call_main.h", 58);
    Sym.add(0x901, "_start");
  }
  StackId at(uint64_t Pc) { return stack({Pc, 0x500, 0x900, 0x901}); }
};

void collect(void *Ctx, const char *Text) {
  static_cast<std::vector<std::string> *>(Ctx)->push_back(Text);
}

TEST(Stats, HeapEventsOfKnownBlocks) {
  Rig R("--time-unit=B");
  R.Prof.startup();
  R.Prof.onAlloc(0x1000, 100, 12, R.at(0x101));
  R.Prof.onMalloc(0x2000, 20, 0, R.at(0x102));
  R.Prof.onAlloc(0x3000, 30, 2, R.at(0x103));
  R.Prof.onFree(0x2000);
  R.Prof.onFree(0x9000); // unknown: not counted
  ASSERT_TRUE(R.Prof.onRealloc(0x1000, 0x4000, 200, 8, R.at(0x104)));
  EXPECT_FALSE(R.Prof.onRealloc(0x9000, 0x5000, 10, 6, R.at(0x104)));
  // realloc(p, 0) is Massif's free(p).
  ASSERT_TRUE(R.Prof.onRealloc(0x3000, 0, 0, 0, R.at(0x105)));
  ProfileStats S = R.Prof.stats();
  EXPECT_EQ(S.HeapAllocs, 3u);
  EXPECT_EQ(S.HeapReallocs, 1u);
  EXPECT_EQ(S.HeapFrees, 2u);
  EXPECT_EQ(S.IgnoredHeapAllocs, 0u);
  EXPECT_EQ(S.IgnoredHeapFrees, 0u);
  EXPECT_EQ(S.IgnoredHeapReallocs, 0u);
  EXPECT_EQ(S.StackAllocs, 0u);
}

TEST(Stats, IgnoredBlocksAndReallocs) {
  Rig R("--time-unit=B --ignore-fn=ign");
  R.Sym.add(0x101, "worker");
  R.Sym.add(0x102, "ign");
  R.Prof.startup();
  R.Prof.onAlloc(0x1000, 40, 8, R.at(0x102)); // ignored
  R.Prof.onAlloc(0x2000, 40, 8, R.at(0x101));
  R.Prof.onAlloc(0x3000, 40, 8, R.at(0x101));
  // A realloc of an ignored block is ignored, and not a realloc.
  ASSERT_TRUE(R.Prof.onRealloc(0x1000, 0x1000, 44, 4, R.at(0x101)));
  // A realloc to an ignored stack is both, as Massif counts it.
  ASSERT_TRUE(R.Prof.onRealloc(0x2000, 0x2000, 44, 4, R.at(0x102)));
  R.Prof.onFree(0x1000);
  R.Prof.onFree(0x3000);
  ProfileStats S = R.Prof.stats();
  EXPECT_EQ(S.HeapAllocs, 2u);
  EXPECT_EQ(S.IgnoredHeapAllocs, 1u);
  EXPECT_EQ(S.HeapReallocs, 1u);
  EXPECT_EQ(S.IgnoredHeapReallocs, 2u);
  EXPECT_EQ(S.HeapFrees, 1u);
  EXPECT_EQ(S.IgnoredHeapFrees, 1u);
}

TEST(Stats, HeapNoCountsNoHeapEventButItsSnapshots) {
  Rig R("--time-unit=B --heap=no --stacks=yes --detailed-freq=2");
  R.Prof.onStackDelta(1000); // before start-up: not counted
  R.Prof.onAlloc(0x1000, 100, 12, R.at(0x101));
  R.Prof.startup();
  ASSERT_TRUE(R.Prof.onRealloc(0x1000, 0x2000, 300, 4, R.at(0x102)));
  R.Prof.onFree(0x2000);
  // The snapshots of EngineTest's StacksGrowShrinkAndPeak: the start-up,
  // 64 (detailed), 96, a peak at 96 (detailed), 144 and 1144 (detailed).
  R.Prof.onStackDelta(64);
  R.Prof.onStackDelta(32);
  R.Prof.onStackDelta(-48);
  R.Prof.onStackDelta(-1000);
  ProfileStats S = R.Prof.stats();
  EXPECT_EQ(S.HeapAllocs + S.HeapReallocs + S.HeapFrees, 0u);
  EXPECT_EQ(S.IgnoredHeapAllocs + S.IgnoredHeapReallocs + S.IgnoredHeapFrees,
            0u);
  EXPECT_EQ(S.StackAllocs, 2u);
  EXPECT_EQ(S.RealSnapshots, 6u);
  EXPECT_EQ(S.DetailedSnapshots, 3u);
  EXPECT_EQ(S.PeakSnapshots, 1u);
  EXPECT_EQ(S.SkippedSnapshots, 0u);
  EXPECT_EQ(S.Cullings, 0u);
}

TEST(Stats, PagesAreBlocksOfTheirOwn) {
  Rig R("--time-unit=B --pages-as-heap=yes");
  R.Prof.onPages(0x400000, 3 * 4096, R.at(0x101));
  R.Prof.onUnmapPages(0x400000, 2 * 4096);
  ProfileStats S = R.Prof.stats();
  EXPECT_EQ(S.HeapAllocs, 3u);
  EXPECT_EQ(S.HeapFrees, 2u);
}

TEST(Stats, SnapshotFiguresAgreeWithTheTrace) {
  // Every snapshot taken is traced; every culling starts with "Culling...";
  // the skipped attempts are reported before each snapshot.
  Rig R("--time-unit=B --max-snapshots=10 --detailed-freq=3");
  std::vector<std::string> Trace;
  R.Prof.setSnapshotTrace(SnapshotTrace{collect, &Trace});
  R.Prof.startup();
  for (uint64_t I = 0; I < 300; ++I) {
    R.Prof.onAlloc(0x10000 + 64 * I, 16 + I % 7, 0, R.at(0x101 + I % 3));
    if (I % 4 == 3)
      R.Prof.onFree(0x10000 + 64 * (I - 1));
  }
  uint64_t Taken = 0, Detailed = 0, Peaks = 0, Cullings = 0, Skipped = 0;
  for (const std::string &L : Trace) {
    size_t S = L.find(" S");
    bool Snapshot = L.rfind("  alloc S", 0) == 0 ||
                    L.rfind("dealloc S", 0) == 0 ||
                    L.rfind("de-PEAK S", 0) == 0 ||
                    L.rfind("startup S", 0) == 0;
    if (Snapshot) {
      ++Taken;
      Detailed += L[S + 2] == 'd' || L[S + 2] == 'p';
      Peaks += L[S + 2] == 'p';
    }
    Cullings += L == "Culling...";
    if (L.rfind("  (skipped ", 0) == 0)
      Skipped += std::stoull(L.substr(11));
  }
  ProfileStats S = R.Prof.stats();
  EXPECT_GT(S.Cullings, 5u);
  EXPECT_GT(S.PeakSnapshots, 0u);
  EXPECT_EQ(S.RealSnapshots, Taken);
  EXPECT_EQ(S.DetailedSnapshots, Detailed);
  EXPECT_EQ(S.PeakSnapshots, Peaks);
  EXPECT_EQ(S.Cullings, Cullings);
  // Attempts skipped after the last snapshot are in the figure only.
  EXPECT_GE(S.SkippedSnapshots, Skipped);
  EXPECT_GT(Skipped, 0u);
  EXPECT_EQ(S.HeapAllocs, 300u);
  EXPECT_EQ(S.HeapFrees, 75u);
}

TEST(Stats, SnapshotsTakenAsideAreCounted) {
  Rig R("--time-unit=B");
  R.Prof.startup();
  R.Prof.onAlloc(0x1000, 100, 12, R.at(0x101));
  ProfileStats Before = R.Prof.stats();
  StringSink A, B;
  RunInfo Run = {nullptr, 0};
  ASSERT_EQ(R.Prof.writeNow(A.get(), Run, false), Profile::NowResult::Written);
  ASSERT_EQ(R.Prof.writeNow(B.get(), Run, true), Profile::NowResult::Written);
  ProfileStats S = R.Prof.stats();
  EXPECT_EQ(S.RealSnapshots, Before.RealSnapshots + 2);
  EXPECT_EQ(S.DetailedSnapshots, Before.DetailedSnapshots + 1);
}

TEST(Stats, TheStackProbesFastPathCounts) {
  StackHot H = {};
  H.CountStacks = true;
  H.UnitB = true;
  H.EarliestNext = 1000;
  H.PeakLimitB = 1000;
  EXPECT_TRUE(tryStackDelta(H, 64, 0));
  EXPECT_TRUE(tryStackDelta(H, -32, 0));
  EXPECT_EQ(H.NumStackAllocs, 1u);
  EXPECT_EQ(H.NumSkipped, 2u);
  // Due: the model takes it (Profile::onStackDelta counts it there).
  EXPECT_FALSE(tryStackDelta(H, 4096, 0));
  EXPECT_EQ(H.NumStackAllocs, 1u);
  EXPECT_EQ(H.NumSkipped, 2u);
  // Not counted at all: stacks off, or no change.
  EXPECT_TRUE(tryStackDelta(H, 0, 0));
  H.CountStacks = false;
  EXPECT_TRUE(tryStackDelta(H, 64, 0));
  EXPECT_EQ(H.NumStackAllocs, 1u);
  EXPECT_EQ(H.NumSkipped, 2u);
}

TEST(Stats, MassifsLines) {
  ProfileStats S = {};
  S.HeapAllocs = 200;
  S.HeapFrees = 7;
  S.IgnoredHeapReallocs = 3;
  S.SkippedSnapshots = 51;
  S.RealSnapshots = 150;
  S.DetailedSnapshots = 15;
  S.PeakSnapshots = (uint64_t(1) << 32) + 4; // Massif's counters are 32-bit
  S.Cullings = 2;
  std::vector<std::string> L;
  traceStats(S, SnapshotTrace{collect, &L});
  EXPECT_EQ(L, std::vector<std::string>({
                   "heap allocs:           200",
                   "heap reallocs:         0",
                   "heap frees:            7",
                   "ignored heap allocs:   0",
                   "ignored heap frees:    0",
                   "ignored heap reallocs: 3",
                   "stack allocs:          0",
                   "skipped snapshots:     51",
                   "real snapshots:        150",
                   "detailed snapshots:    15",
                   "peak snapshots:        4",
                   "cullings:              2",
               }));
  traceStats(S, SnapshotTrace{nullptr, nullptr}); // nowhere to go: nothing
}

} // namespace
} // namespace test
} // namespace massif
