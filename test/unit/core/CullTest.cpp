//===- CullTest.cpp - SnapshotEngine's culling against its definition -----===//
//
// Part of massif-native, under the MIT licence.
//
// The engine culls with a tree over the snapshot positions. Here a plain
// list follows massif-spec.md §4.6 word for word (max/2 times, scan for
// the cullable snapshot whose neighbours are closest in time, the first on
// ties; then the new minimum interval), and the two must keep the same
// snapshots and the same next-snapshot time after every take. The times
// advance in small steps, often not at all, so that ties are common, and
// peaks come at random.
//
//===----------------------------------------------------------------------===//

#include "SnapshotEngine.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace massif {
namespace test {
namespace {

struct RefSnap {
  int64_t Time;
  bool Peak;
};

/// massif-spec.md §4.6, as a scan over a vector.
struct Reference {
  uint32_t Max;
  std::vector<RefSnap> Snaps;
  int64_t MinInterval = 0;

  int64_t take(int64_t Time, bool Peak) {
    if (Peak)
      for (RefSnap &S : Snaps)
        S.Peak = false;
    Snaps.push_back(RefSnap{Time, Peak});
    if (Snaps.size() == Max)
      MinInterval = cull();
    return Time + MinInterval;
  }

  int64_t cull() {
    for (uint32_t K = 0; K < Max / 2; ++K) {
      size_t Best = 0;
      int64_t BestSpan = 0;
      for (size_t J = 1; J + 1 < Snaps.size(); ++J) {
        if (Snaps[J].Peak)
          continue;
        int64_t Span = Snaps[J + 1].Time - Snaps[J - 1].Time;
        if (Best == 0 || Span < BestSpan) {
          Best = J;
          BestSpan = Span;
        }
      }
      if (Best == 0)
        break;
      Snaps.erase(Snaps.begin() + Best);
    }
    size_t N = Snaps.size();
    auto uncullable = [&](size_t I) {
      return I == 0 || I == N - 1 || Snaps[I].Peak;
    };
    int64_t Min = INT64_MAX;
    for (size_t I = 1; I < N; ++I) {
      if (uncullable(I) && uncullable(I - 1))
        continue;
      Min = std::min(Min, Snaps[I].Time - Snaps[I - 1].Time);
    }
    return Min == INT64_MAX ? 0 : Min;
  }
};

std::string describe(const std::vector<RefSnap> &Snaps) {
  std::string S;
  for (const RefSnap &X : Snaps)
    S += std::to_string(X.Time) + (X.Peak ? "p " : " ");
  return S;
}

std::vector<RefSnap> engineSnaps(const SnapshotEngine &E) {
  std::vector<RefSnap> Out;
  for (uint32_t I = 0; I < E.size(); ++I)
    Out.push_back(
        RefSnap{E.at(I).Time, E.at(I).Kind == SnapshotKind::Peak});
  return Out;
}

void checkAgainstReference(uint32_t Max, uint32_t Seed, uint32_t Takes) {
  CountingAllocator Memory;
  SnapshotEngine E;
  ASSERT_TRUE(E.init(Memory.get(), Max, /*DetailedFreq=*/3,
                     /*PeakInaccuracy=*/1.0, /*KeepTrees=*/true));
  Reference Ref{Max, {}};
  std::mt19937 Rng(Seed);
  const int64_t Steps[] = {0, 0, 0, 1, 1, 2, 3, 7, 100};
  uint64_t Values[ValueChunkEntries] = {1, 2, 3, 4};
  uint8_t Dirty[1] = {1};
  int64_t Time = 0;
  for (uint32_t I = 0; I < Takes; ++I) {
    Time += Steps[Rng() % (sizeof(Steps) / sizeof(Steps[0]))];
    bool Peak = Rng() % 16 == 0;
    Totals T{uint64_t(I), 0, 0};
    LiveValues V{Values, Dirty, 1 + I % 4};
    if (Peak)
      E.takePeak(Time, T, V);
    else
      E.takeNormal(Time, T, V);
    int64_t Next = Ref.take(Time, Peak);
    ASSERT_EQ(describe(engineSnaps(E)), describe(Ref.Snaps))
        << "max " << Max << " seed " << Seed << " take " << I;
    ASSERT_EQ(E.earliestNext(), Next)
        << "max " << Max << " seed " << Seed << " take " << I;
  }
}

TEST(Cull, KeepsWhatMassifsRuleKeeps) {
  for (uint32_t Max : {4u, 5u, 10u, 11u, 12u, 17u, 100u, 129u, 1000u})
    for (uint32_t Seed = 1; Seed <= 6; ++Seed)
      checkAgainstReference(Max, Seed, Max * (Max < 1000 ? 12 : 3));
}

TEST(Cull, AllPeaksButTheEndsLeavesNothingToCull) {
  // Every snapshot taken as a peak demotes the one before, so only the
  // newest is uncullable besides the ends: the rule still applies.
  checkAgainstReference(10, 99, 200);
  CountingAllocator Memory;
  SnapshotEngine E;
  ASSERT_TRUE(E.init(Memory.get(), 10, 10, 1.0, /*KeepTrees=*/false));
  for (int64_t T = 0; T < 30; ++T)
    E.takeNormal(0, Totals{0, 0, 0}, LiveValues{nullptr, nullptr, 0});
  // All at time 0: every cull deletes 5, the interval stays 0.
  EXPECT_EQ(E.earliestNext(), 0);
  EXPECT_EQ(E.culled(), 25u);
}

} // namespace
} // namespace test
} // namespace massif
