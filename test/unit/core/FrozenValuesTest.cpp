//===- FrozenValuesTest.cpp - Detailed snapshots keep the values they saw -===//
//
// Part of massif-native, under the MIT licence.
//
// A detailed snapshot shares the chunks of values that did not change since
// the last one (SnapshotEngine.h). Here random changes, new entries (some
// left at zero, which marks nothing), peaks
// and culls go on for thousands of snapshots, and after every take each
// snapshot still held must give, for every entry it covers, the value that
// entry had when it was taken: a plain copy made by the test says which.
//
//===----------------------------------------------------------------------===//

#include "SnapshotEngine.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

namespace massif {
namespace test {
namespace {

constexpr uint32_t Cap = 8 * ValueChunkEntries;

struct Tree {
  uint64_t Values[Cap] = {};
  uint8_t Dirty[Cap / ValueChunkEntries] = {};
  uint32_t N = 2;

  void change(uint32_t E, uint64_t V) {
    Values[E] = V;
    Dirty[E / ValueChunkEntries] = 1;
  }
  LiveValues live() { return LiveValues{Values, Dirty, N}; }
};

void run(uint32_t Max, uint32_t DetailedFreq, uint32_t Seed) {
  CountingAllocator Memory;
  SnapshotEngine E;
  ASSERT_TRUE(E.init(Memory.get(), Max, DetailedFreq, 1.0, /*KeepTrees=*/true));
  Tree T;
  std::map<int64_t, std::vector<uint64_t>> Seen; // time -> values then
  std::mt19937 Rng(Seed);
  for (int64_t Time = 1; Time <= 4000; ++Time) {
    // A few changes between snapshots, mostly in one region, as a program
    // allocating from a few sites makes them; sometimes a new entry.
    uint32_t Changes = Rng() % 4;
    uint32_t Around = Rng() % T.N;
    for (uint32_t K = 0; K < Changes; ++K)
      T.change((Around + Rng() % 3) % T.N, Rng() % 1000);
    if (T.N < Cap && Rng() % 8 == 0)
      T.change(T.N++, Rng() % 1000);
    // An entry is created at 0, which sets no flag (AllocTree.cpp).
    if (T.N < Cap && Rng() % 16 == 0)
      ++T.N;
    Seen[Time] = std::vector<uint64_t>(T.Values, T.Values + T.N);
    Totals Tot{uint64_t(Time), 0, 0};
    if (Rng() % 50 == 0)
      E.takePeak(Time, Tot, T.live());
    else
      E.takeNormal(Time, Tot, T.live());
    for (uint32_t I = 0; I < E.size(); ++I) {
      const Snapshot &S = E.at(I);
      if (!S.Detailed)
        continue;
      const std::vector<uint64_t> &Then = Seen.at(S.Time);
      ASSERT_EQ(S.NumValues, Then.size()) << "time " << S.Time;
      for (uint32_t X = 0; X < S.NumValues; ++X)
        ASSERT_EQ(S.value(X), Then[X])
            << "entry " << X << " of the snapshot at " << S.Time << ", now "
            << Time << " (max " << Max << ", seed " << Seed << ")";
    }
  }
}

TEST(FrozenValues, EverySnapshotKeepsWhatItSaw) {
  for (uint32_t Seed = 1; Seed <= 3; ++Seed) {
    run(10, 1, Seed);
    run(11, 3, Seed);
    run(100, 10, Seed);
  }
}

TEST(FrozenValues, UnchangedChunksAreSharedNotCopied) {
  // Two detailed snapshots with one change between them: the second
  // allocates one chunk, not a copy of all eight.
  CountingAllocator Memory;
  SnapshotEngine E;
  ASSERT_TRUE(E.init(Memory.get(), 100, 1, 1.0, /*KeepTrees=*/true));
  Tree T;
  T.N = Cap;
  for (uint32_t X = 0; X < Cap; ++X)
    T.change(X, X);
  E.takeNormal(1, Totals{}, T.live());
  int64_t Before = Memory.LiveB;
  T.change(5, 99);
  E.takeNormal(2, Totals{}, T.live());
  int64_t Added = Memory.LiveB - Before;
  EXPECT_GE(Added, int64_t(sizeof(ValueChunk)));
  EXPECT_LT(Added, int64_t(2 * sizeof(ValueChunk)));
  EXPECT_EQ(E.at(1).value(5), 99u);
  EXPECT_EQ(E.at(0).value(5), 5u);
  EXPECT_EQ(E.at(1).value(Cap - 1), Cap - 1);
}

} // namespace
} // namespace test
} // namespace massif
