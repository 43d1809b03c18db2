//===- EngineTest.cpp - The model's events, one rule at a time ------------===//
//
// Part of massif-native, under the MIT licence.
//
// Each test drives Profile through a short event sequence and checks the
// written file against a behaviour of Massif 3.19 that the spec marks as
// verified ([V]); ReplayTest.cpp covers the same rules on long recorded
// sequences. Snapshots are summarised as "time heap extra stacks tree".
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <gtest/gtest.h>

namespace massif {
namespace test {
namespace {

using Summaries = std::vector<std::string>;

/// A rig whose stacks are [Pc, main-call, below main].
struct Rig : ProfileRig {
  explicit Rig(const std::string &Args, uint64_t *Clock = nullptr)
      : ProfileRig(Args, Clock) {
    Sym.add(0x500, "main", "t.c", 50);
    Sym.add(0x900, "__libc_start_call_main", "libc_start_call_main.h", 58);
    Sym.add(0x901, "_start");
  }
  StackId at(uint64_t Pc) { return stack({Pc, 0x500, 0x900, 0x901}); }
  Summaries summaries() { return snapshotSummaries(write()); }
};

TEST(Engine, StartupSnapshotOnlyAndNoSnapshotAtExit) {
  Rig R("--time-unit=B");
  R.Prof.startup();
  EXPECT_EQ(R.summaries(), Summaries({"0 0 0 0 empty"}));
  R.Prof.startup(); // a second call changes nothing
  EXPECT_EQ(R.summaries(), Summaries({"0 0 0 0 empty"}));
}

TEST(Engine, HeaderLines) {
  Rig R("--time-unit=B --depth=5 --alloc-fn=a\\ b");
  R.Prof.startup();
  std::vector<std::string> L = lines(R.write({"/bin/prog", "x y", "", "z"}));
  ASSERT_GE(L.size(), 3u);
  EXPECT_EQ(L[0], "desc: --time-unit=B --depth=5 --alloc-fn=a b");
  EXPECT_EQ(L[1], "cmd: /bin/prog x y  z");
  EXPECT_EQ(L[2], "time_unit: B");
  Rig None("");
  None.Prof.startup();
  L = lines(None.write({"./a"}));
  EXPECT_EQ(L[0], "desc: (none)");
  EXPECT_EQ(L[2], "time_unit: i");
}

TEST(Engine, AllocFreeAndByteTime) {
  // malloc(100) costs 100 + 12 slop + 8 admin = 120 bytes of time; the
  // free makes a peak at the time before it, then a normal snapshot.
  Rig R("--time-unit=B");
  R.Prof.startup();
  R.Prof.onAlloc(0x1000, 100, 12, R.at(0x101));
  R.Prof.onFree(0x1000);
  EXPECT_EQ(R.summaries(), Summaries({"0 0 0 0 empty", "120 100 20 0 empty",
                                      "120 100 20 0 peak", "240 0 0 0 empty"}));
}

TEST(Engine, UnknownFreesAreIgnored) {
  Rig R("--time-unit=B");
  R.Prof.startup();
  R.Prof.onAlloc(0x1000, 16, 0, R.at(0x101));
  R.Prof.onFree(0x2000);
  R.Prof.onFree(0);
  EXPECT_EQ(R.summaries(), Summaries({"0 0 0 0 empty", "24 16 8 0 empty"}));
  EXPECT_FALSE(R.Prof.onRealloc(0x2000, 0x3000, 10, 6, R.at(0x102)));
}

TEST(Engine, ReallocWithinTheSlopAndShrinkingPassNoTime) {
  // Spec §2.4: malloc(100) at t=120; realloc(p,110) stays at t=120 with
  // useful 110, extra 10; shrinking moves bytes to extra after a peak
  // attempt; growing past the slop takes the new slop.
  Rig R("--time-unit=B --peak-inaccuracy=0");
  R.Prof.startup();
  R.Prof.onAlloc(0x1000, 100, 12, R.at(0x101));
  ASSERT_TRUE(R.Prof.onRealloc(0x1000, 0x1000, 110, 999, R.at(0x102)));
  ASSERT_TRUE(R.Prof.onRealloc(0x1000, 0x5000, 50, 999, R.at(0x103)));
  uint64_t Req, Slop;
  ASSERT_TRUE(R.Prof.findBlock(0x5000, Req, Slop));
  EXPECT_EQ(Req + Slop, 112u); // the block kept its usable size
  EXPECT_FALSE(R.Prof.findBlock(0x1000, Req, Slop));
  ASSERT_TRUE(R.Prof.onRealloc(0x5000, 0x6000, 200, 8, R.at(0x104)));
  EXPECT_EQ(R.summaries(),
            Summaries({"0 0 0 0 empty", "120 100 20 0 empty",
                       "120 110 10 0 empty", "120 110 10 0 peak",
                       "120 50 70 0 empty", "216 200 16 0 empty"}));
}

TEST(Engine, ReallocToZeroFreesAndSameSizeStillSnapshots) {
  Rig R("--time-unit=B");
  R.Prof.startup();
  R.Prof.onAlloc(0x1000, 32, 0, R.at(0x101));
  ASSERT_TRUE(R.Prof.onRealloc(0x1000, 0x1000, 32, 0, R.at(0x102)));
  ASSERT_TRUE(R.Prof.onRealloc(0x1000, 0, 0, 0, R.at(0x103)));
  EXPECT_EQ(R.summaries(),
            Summaries({"0 0 0 0 empty", "40 32 8 0 empty", "40 32 8 0 empty",
                       "40 32 8 0 peak", "80 0 0 0 empty"}));
}

TEST(Engine, ZeroSizeBlocksWithoutAdminAreSnapshottedAtTimeZero) {
  // Spec §2.9 (the `zero` tests): 21 snapshots, all at t=0.
  Rig R("--time-unit=B --heap-admin=0");
  R.Prof.startup();
  for (uint64_t I = 1; I <= 20; ++I)
    R.Prof.onAlloc(I * 16, 0, 0, R.at(0x101));
  Summaries S = R.summaries();
  ASSERT_EQ(S.size(), 21u);
  for (size_t I = 0; I < S.size(); ++I)
    EXPECT_EQ(S[I], I == 9 || I == 19 ? "0 0 0 0 detailed" : "0 0 0 0 empty");
}

TEST(Engine, NoPeakWithoutAFreeAndPeakNeedsMoreThanTheInaccuracy) {
  Rig R("--time-unit=B --peak-inaccuracy=10 --heap-admin=0");
  R.Prof.startup();
  R.Prof.onAlloc(0x1000, 1000, 0, R.at(0x101));
  R.Prof.onAlloc(0x2000, 96, 0, R.at(0x101));
  R.Prof.onFree(0x2000); // first free: a peak at 1096
  R.Prof.onAlloc(0x3000, 96, 0, R.at(0x101));
  R.Prof.onFree(0x3000); // 1096 again: not more than 1096 + 109
  R.Prof.onAlloc(0x4000, 112, 0, R.at(0x101));
  R.Prof.onAlloc(0x5000, 112, 0, R.at(0x101));
  R.Prof.onFree(0x5000); // 1224 > 1205: a new peak; the old one is detailed
  Summaries S = R.summaries();
  ASSERT_EQ(S.size(), 11u);
  EXPECT_EQ(S[3], "1096 1096 0 0 detailed");
  EXPECT_EQ(S[9], "1608 1224 0 0 peak");
}

TEST(Engine, StacksGrowShrinkAndPeak) {
  Rig R("--time-unit=B --stacks=yes --heap=no --detailed-freq=2");
  R.Prof.onStackDelta(1000); // before start-up: not counted
  R.Prof.startup();
  R.Prof.onStackDelta(64);
  R.Prof.onStackDelta(32);
  R.Prof.onStackDelta(-48);
  R.Prof.onStackDelta(-1000); // cannot go below zero
  // With --heap=no even detailed and peak snapshots print no tree.
  EXPECT_EQ(R.summaries(), Summaries({"0 0 0 0 empty", "64 0 0 64 empty",
                                      "96 0 0 96 empty", "96 0 0 96 empty",
                                      "144 0 0 48 empty", "1144 0 0 0 empty"}));
}

TEST(Engine, HeapNoRecordsBlocksButNoTotals) {
  Rig R("--time-unit=B --heap=no");
  R.Prof.startup();
  R.Prof.onAlloc(0x1000, 100, 12, R.at(0x101));
  uint64_t Req, Slop;
  ASSERT_TRUE(R.Prof.findBlock(0x1000, Req, Slop)); // malloc_usable_size
  EXPECT_EQ(Req, 100u);
  EXPECT_TRUE(R.Prof.onRealloc(0x1000, 0x2000, 300, 4, R.at(0x102)));
  R.Prof.onFree(0x2000);
  EXPECT_EQ(R.summaries(), Summaries({"0 0 0 0 empty"}));
}

TEST(Engine, PageModeSnapshotsFromTheFirstPage) {
  // Spec §2.13: with --pages-as-heap=yes the first snapshot follows the
  // first start-up mapping (time=4096 in unit B) and there is no admin.
  Rig R("--time-unit=B --pages-as-heap=yes");
  R.Prof.onAlloc(0x400000, 4096, 0, R.at(0x101));
  R.Prof.onStackDelta(64); // stack events still wait for start-up
  R.Prof.startup();
  R.Prof.onAlloc(0x401000, 4096, 0, R.at(0x101));
  EXPECT_EQ(R.summaries(),
            Summaries({"4096 4096 0 0 empty", "4096 4096 0 0 empty",
                       "8192 8192 0 0 empty"}));
}

TEST(Engine, PagesAreBlocksOfTheirOwnAndOnlyTheLastOneSnapshots) {
  // Massif's ms_record_page_mem: a mapping of three pages is three blocks,
  // and only the third one's record may take a snapshot.
  Rig R("--time-unit=B --pages-as-heap=yes");
  R.Prof.onPages(0x400000, 3 * 4096, R.at(0x101));
  EXPECT_EQ(R.summaries(), Summaries({"12288 12288 0 0 empty"}));
  uint64_t ReqB, SlopB;
  ASSERT_TRUE(R.Prof.findBlock(0x401000, ReqB, SlopB));
  EXPECT_EQ(ReqB, 4096u);
  EXPECT_EQ(SlopB, 0u);
  // Unmapping the middle page frees that block alone.
  R.Prof.onUnmapPages(0x401000, 4096);
  EXPECT_FALSE(R.Prof.findBlock(0x401000, ReqB, SlopB));
  EXPECT_TRUE(R.Prof.findBlock(0x402000, ReqB, SlopB));
  Summaries AfterMiddle = R.summaries();
  EXPECT_EQ(AfterMiddle.back(), "16384 8192 0 0 empty");
  // An unmapping whose first page is unknown takes no snapshot, though
  // its other pages are freed.
  R.Prof.onUnmapPages(0x401000, 2 * 4096);
  EXPECT_FALSE(R.Prof.findBlock(0x402000, ReqB, SlopB));
  EXPECT_EQ(R.summaries(), AfterMiddle);
  // A partial page is no page.
  R.Prof.onPages(0x500000, 100, R.at(0x101));
  EXPECT_FALSE(R.Prof.findBlock(0x500000, ReqB, SlopB));
}

TEST(Engine, StacksAreOffByDefault) {
  Rig R("--time-unit=B");
  R.Prof.startup();
  R.Prof.onStackDelta(4096);
  EXPECT_EQ(R.summaries(), Summaries({"0 0 0 0 empty"}));
}

TEST(Engine, MillisecondsAndInstructionsAreRelativeToStartup) {
  uint64_t Now = 5000;
  Rig R("--time-unit=ms", &Now);
  R.Prof.onAlloc(0x1000, 16, 0, R.at(0x101)); // before start-up: no snapshot
  Now = 7000;
  R.Prof.startup();
  Now = 7250;
  R.Prof.onAlloc(0x2000, 16, 0, R.at(0x101));
  // Blocks recorded before start-up count from the start-up snapshot on.
  EXPECT_EQ(R.summaries(), Summaries({"0 16 8 0 empty", "250 32 16 0 empty"}));
  EXPECT_EQ(lines(R.write())[2], "time_unit: ms");
}

TEST(Engine, EveryTenthTakenSnapshotIsDetailedAndPeaksRestartTheCount) {
  Rig R("--time-unit=B");
  R.Prof.startup();
  for (uint64_t I = 1; I <= 12; ++I)
    R.Prof.onAlloc(I * 0x100, 16, 0, R.at(0x101));
  R.Prof.onFree(0x100); // peak (detailed), then a normal one
  for (uint64_t I = 13; I <= 22; ++I)
    R.Prof.onAlloc(I * 0x100, 16, 0, R.at(0x101));
  Summaries S = R.summaries();
  ASSERT_EQ(S.size(), 25u);
  for (size_t I = 0; I < S.size(); ++I) {
    std::string Kind = S[I].substr(S[I].rfind(' ') + 1);
    EXPECT_EQ(Kind, I == 9 || I == 23 ? "detailed"
                    : I == 13         ? "peak"
                                      : "empty")
        << I;
  }
}

TEST(Engine, CullingKeepsTheFirstAndThePeakAndSpacesTheRest) {
  Rig R("--time-unit=B --max-snapshots=10 --heap-admin=0 --detailed-freq=1000");
  R.Prof.startup();
  R.Prof.onAlloc(0x100, 5000, 0, R.at(0x101));
  R.Prof.onFree(0x100); // the peak, at t=5000
  for (uint64_t I = 1; I <= 40; ++I)
    R.Prof.onAlloc(I * 0x1000, 16, 0, R.at(0x102));
  Summaries S = R.summaries();
  EXPECT_GE(S.size(), 5u);
  EXPECT_LE(S.size(), 9u);
  EXPECT_EQ(S[0], "0 0 0 0 empty");
  int Peaks = 0;
  for (const std::string &X : S)
    Peaks += X == "5000 5000 0 0 peak";
  EXPECT_EQ(Peaks, 1);
}

TEST(Engine, StackZeroMeansNoStackAndIsIgnored) {
  Rig R("--time-unit=B");
  R.Prof.startup();
  R.Prof.onAlloc(0x1000, 100, 12, 0);
  uint64_t Req, Slop;
  EXPECT_TRUE(R.Prof.findBlock(0x1000, Req, Slop));
  R.Prof.onFree(0x1000);
  EXPECT_EQ(R.summaries(), Summaries({"0 0 0 0 empty"}));
}

TEST(Engine, NamesAreLookedUpAtEventsOnlyWhenOptionsNeedThem) {
  Rig Deferred("--time-unit=B");
  Deferred.Prof.startup();
  Deferred.Prof.onAlloc(0x1000, 100, 12, Deferred.at(0x101));
  EXPECT_EQ(Deferred.Sym.Calls, 0u);

  Rig Eager("--time-unit=B --ignore-fn=noisy");
  Eager.Sym.add(0x101, "noisy");
  Eager.Prof.startup();
  Eager.Prof.onAlloc(0x1000, 100, 12, Eager.at(0x101));
  uint64_t Calls = Eager.Sym.Calls;
  EXPECT_GT(Calls, 0u);
  Eager.Prof.onAlloc(0x2000, 100, 12, Eager.at(0x101));
  EXPECT_EQ(Eager.Sym.Calls, Calls); // once per stack
  EXPECT_EQ(Eager.summaries(), Summaries({"0 0 0 0 empty"}));
}

TEST(Engine, ReallocOfAnIgnoredBlockLeavesPhantomBytesInTheTree) {
  // Spec §2.8: ignored malloc(400), realloc(x, 800) in main, malloc(32):
  // the detailed snapshot shows mem_heap_B=832 at time=32, with an entry
  // of 800 for the realloc's line.
  Rig R("--time-unit=B --ignore-fn=ign --heap-admin=0 --detailed-freq=1");
  R.Sym.add(0x101, "ign", "ign2.c", 3);
  R.Sym.add(0x501, "main", "ign2.c", 8);
  R.Sym.add(0x502, "main", "ign2.c", 9);
  R.Prof.startup();
  R.Prof.onAlloc(0x1000, 400, 0, R.stack({0x101, 0x501, 0x900, 0x901}));
  ASSERT_TRUE(
      R.Prof.onRealloc(0x1000, 0x2000, 800, 0, R.stack({0x501, 0x900, 0x901})));
  R.Prof.onAlloc(0x3000, 32, 0, R.stack({0x502, 0x900, 0x901}));
  std::string Out = R.write();
  EXPECT_EQ(snapshotSummaries(Out),
            Summaries({"0 0 0 0 detailed", "32 832 0 0 detailed"}));
  EXPECT_NE(Out.find("n2: 832 (heap allocation functions) malloc/new/new[], "
                     "--alloc-fns, etc.\n"
                     " n0: 800 0x501: main (ign2.c:8)\n"
                     " n0: 32 0x502: main (ign2.c:9)\n"),
            std::string::npos)
      << Out;
  // The block stays charged to the ignored allocation: its free is ignored.
  R.Prof.onFree(0x2000);
  EXPECT_EQ(snapshotSummaries(R.write()).size(), 2u);
}

TEST(Engine, ReallocInsideAnIgnoredFunctionKeepsTheBytesForever) {
  Rig R("--time-unit=B --ignore-fn=ign --heap-admin=0");
  R.Sym.add(0x101, "worker");
  R.Sym.add(0x102, "ign");
  R.Prof.startup();
  R.Prof.onAlloc(0x1000, 400, 0, R.at(0x101));
  ASSERT_TRUE(R.Prof.onRealloc(0x1000, 0x2000, 800, 0, R.at(0x102)));
  R.Prof.onFree(0x2000); // charged to an ignored entry now: no effect
  EXPECT_EQ(R.summaries(), Summaries({"0 0 0 0 empty", "400 400 0 0 empty"}));
}

TEST(Engine, AFailingSinkMakesWriteFail) {
  Rig R("--time-unit=B");
  R.Prof.startup();
  StringSink Out;
  Out.Fail = true;
  const char *Argv[] = {"./p"};
  EXPECT_FALSE(R.Prof.write(Out.get(), RunInfo{Argv, 1}));
}

TEST(Engine, ThePathOfAnAllocationIsCheapInMemory) {
  // 64 bytes per live block at most, all model memory included.
  Rig R("--time-unit=B");
  R.Prof.startup();
  StackId S = R.at(0x101);
  int64_t Before = R.Memory.residentB();
  constexpr uint64_t N = 200000;
  for (uint64_t I = 1; I <= N; ++I)
    R.Prof.onAlloc(I * 48, 32, 0, S);
  EXPECT_LE(double(R.Memory.residentB() - Before) / N, 64.0);
}

} // namespace
} // namespace test
} // namespace massif
