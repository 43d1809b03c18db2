//===- BlockRecordTest.cpp - The live blocks' records, at their limits
//-----===//
//
// Part of massif-native, under the MIT licence.
//
// A live block's record sits in its node of the replayed allocator: an
// arena block's slop in 16 bits, a detached block's request in 60, the
// insertion's number in 32. Values beyond those widths live beside the
// nodes, and the numbers are renumbered when they reach their limit; the
// records must read back exactly, and the block table's order must not
// move.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace massif {
namespace test {
namespace {

struct Record {
  uint64_t ReqB = 0, SlopB = 0;
};

Record recordOf(ProfileRig &Rig, uint64_t Addr) {
  Record R;
  EXPECT_TRUE(Rig.Prof.findBlock(Addr, R.ReqB, R.SlopB)) << std::hex << Addr;
  return R;
}

/// Every byte recorded was taken off again: the model's running heap and
/// extra-heap totals are zero.
void expectBalanced(ProfileRig &Rig) {
  StackHot *H = Rig.Prof.stackHot();
  EXPECT_EQ(H->HeapB, 0u);
  EXPECT_EQ(H->ExtraB, 0u);
}

TEST(BlockRecord, InPlaceShrinksKeepLargeSlopsExactly) {
  // Shrinking in place leaves the block's usable size: the slop grows past
  // what the node's 16 bits hold, and back.
  ProfileRig Rig("--time-unit=B");
  Rig.Prof.startup();
  StackId S = Rig.stack({0x1000});
  const uint64_t A = 0x10000000, B = 0x20000000, MiB = 1 << 20;
  Rig.Prof.onMalloc(A, MiB, 0, S);
  Rig.Prof.onMalloc(B, 3 * MiB, 0, S);
  const uint64_t UsableA = MiB + recordOf(Rig, A).SlopB;
  const uint64_t UsableB = 3 * MiB + recordOf(Rig, B).SlopB;
  for (uint64_t ReqB : {uint64_t(10), uint64_t(70000), UsableA - 65535,
                        UsableA - 65534, UsableA - 6, uint64_t(1)}) {
    ASSERT_TRUE(Rig.Prof.onRealloc(A, A, ReqB, S));
    Record R = recordOf(Rig, A);
    EXPECT_EQ(R.ReqB, ReqB);
    EXPECT_EQ(R.SlopB, UsableA - ReqB);
    // The other block's record stays as it was.
    EXPECT_EQ(recordOf(Rig, B).ReqB, 3 * MiB);
  }
  ASSERT_TRUE(Rig.Prof.onRealloc(B, B, 5, S));
  EXPECT_EQ(recordOf(Rig, B).SlopB, UsableB - 5);
  EXPECT_EQ(recordOf(Rig, A).SlopB, UsableA - 1);
  ASSERT_TRUE(Rig.Prof.onFree(A));
  EXPECT_EQ(recordOf(Rig, B).SlopB, UsableB - 5);
  ASSERT_TRUE(Rig.Prof.onFree(B));
  expectBalanced(Rig);
}

TEST(BlockRecord, ManyLargeSlopsComeAndGo) {
  // Enough at once that the values' table grows, and frees in an order
  // that shifts its probe clusters.
  ProfileRig Rig("--time-unit=B");
  Rig.Prof.startup();
  StackId S = Rig.stack({0x1000});
  const int N = 300;
  std::vector<uint64_t> Usable(N);
  auto addr = [](int K) {
    return uint64_t(0x10000000) + uint64_t(K) * 0x100000;
  };
  for (int K = 0; K < N; ++K) {
    uint64_t ReqB = 70000 + 4096 * uint64_t(K);
    Rig.Prof.onMalloc(addr(K), ReqB, 0, S);
    Usable[K] = ReqB + recordOf(Rig, addr(K)).SlopB;
    ASSERT_TRUE(Rig.Prof.onRealloc(addr(K), addr(K), 1 + K % 7, S));
  }
  std::vector<bool> Live(N, true);
  for (int Step = 0; Step < N; ++Step) {
    int K = (Step * 37) % N;
    ASSERT_TRUE(Rig.Prof.onFree(addr(K)));
    Live[K] = false;
    if (Step % 10 == 0)
      for (int J = 0; J < N; ++J)
        if (Live[J]) {
          Record R = recordOf(Rig, addr(J));
          ASSERT_EQ(R.ReqB, uint64_t(1 + J % 7));
          ASSERT_EQ(R.SlopB, Usable[J] - R.ReqB);
        }
  }
  expectBalanced(Rig);
}

TEST(BlockRecord, HugeRequestsOfBlocksTheEngineGave) {
  // A client request may describe a block of any size (detached: the
  // engine gives its slop).
  ProfileRig Rig("--time-unit=B");
  Rig.Prof.startup();
  StackId S = Rig.stack({0x1000});
  const uint64_t Huge = uint64_t(1) << 61, Largest = ~uint64_t(0) >> 4;
  Rig.Prof.onAlloc(0x5000, Huge, 5, S);
  Rig.Prof.onAlloc(0x6000, Largest - 1, 7, S);
  Rig.Prof.onAlloc(0x7000, Largest, 9, S);
  EXPECT_EQ(recordOf(Rig, 0x5000).ReqB, Huge);
  EXPECT_EQ(recordOf(Rig, 0x5000).SlopB, 5u);
  EXPECT_EQ(recordOf(Rig, 0x6000).ReqB, Largest - 1);
  EXPECT_EQ(recordOf(Rig, 0x7000).ReqB, Largest);
  // In place (within request and slop), then moved.
  ASSERT_TRUE(Rig.Prof.onRealloc(0x5000, 0x5000, 100, 3, S));
  EXPECT_EQ(recordOf(Rig, 0x5000).ReqB, 100u);
  ASSERT_TRUE(Rig.Prof.onRealloc(0x5000, 0x8000, 2 * Huge, 2, S));
  EXPECT_EQ(recordOf(Rig, 0x8000).ReqB, 2 * Huge);
  EXPECT_EQ(recordOf(Rig, 0x8000).SlopB, 2u);
  EXPECT_EQ(recordOf(Rig, 0x7000).ReqB, Largest);
  ASSERT_TRUE(Rig.Prof.onFree(0x7000));
  EXPECT_EQ(recordOf(Rig, 0x6000).ReqB, Largest - 1);
  ASSERT_TRUE(Rig.Prof.onFree(0x6000));
  ASSERT_TRUE(Rig.Prof.onFree(0x8000));
  expectBalanced(Rig);
}

/// The xtree of a run that grows Massif's block table twice, with keys
/// that share chains and addresses used again, each block charged to one
/// of many stacks so that the rows' order shows the table's order.
std::string xtreeOfChurn(uint64_t InsertionLimit) {
  ProfileRig Rig("--time-unit=B");
  const int Stacks = 400;
  for (int K = 0; K < Stacks; ++K)
    Rig.Sym.add(0x100000 + 16 * uint64_t(K), "f" + std::to_string(K));
  Rig.Prof.startup();
  if (InsertionLimit)
    Rig.Prof.setInsertionLimitForTesting(InsertionLimit);
  std::vector<uint64_t> LiveAddrs;
  size_t MostLive = 0;
  uint64_t Rand = 12345;
  auto rnd = [&Rand] {
    Rand = Rand * 6364136223846793005ull + 1442695040888963407ull;
    return Rand >> 33;
  };
  for (int Step = 0; Step < 6000; ++Step) {
    StackId S = Rig.stack({0x100000 + 16 * (rnd() % Stacks)});
    if (Step % 5 == 4 && !LiveAddrs.empty()) {
      size_t K = rnd() % LiveAddrs.size();
      EXPECT_TRUE(Rig.Prof.onFree(LiveAddrs[K]));
      LiveAddrs[K] = LiveAddrs.back();
      LiveAddrs.pop_back();
      continue;
    }
    if (Step % 7 == 3 && !LiveAddrs.empty()) {
      // A realloc inserts its block again, in place or moved.
      size_t K = rnd() % LiveAddrs.size();
      uint64_t New = LiveAddrs[K] + (Step % 2 ? 0 : 0x40000000);
      EXPECT_TRUE(Rig.Prof.onRealloc(LiveAddrs[K], New, 8, S));
      LiveAddrs[K] = New;
      continue;
    }
    uint64_t Addr = 0x10000000 + 64 * uint64_t(Step);
    if (rnd() % 3)
      Rig.Prof.onMalloc(Addr, 16 + rnd() % 200, 0, S);
    else // keys of the engine's, several in one chain
      Rig.Prof.onAlloc(Addr = 0x4A3A030 + 769 * 1543 * uint64_t(Step), 24, 8,
                       S);
    LiveAddrs.push_back(Addr);
    MostLive = std::max(MostLive, LiveAddrs.size());
  }
  EXPECT_GT(LiveAddrs.size(), 1543u); // the table grew twice
  EXPECT_LT(MostLive, InsertionLimit ? InsertionLimit : ~uint64_t(0));
  StringSink Out;
  const char *Argv[] = {"./prog"};
  EXPECT_TRUE(Rig.Prof.writeXtree(Out.get(), RunInfo{Argv, 1}, false, 1, 0));
  return Out.Text;
}

TEST(BlockRecord, RenumberedInsertionsKeepTheTableOrder) {
  std::string Plain = xtreeOfChurn(0);
  ASSERT_NE(Plain.find("fn="), std::string::npos);
  // Renumbered every few insertions, between and across the growths.
  for (uint64_t Limit : {3200u, 4000u, 5100u})
    EXPECT_EQ(xtreeOfChurn(Limit), Plain) << "renumbered at " << Limit;
}

} // namespace
} // namespace test
} // namespace massif
