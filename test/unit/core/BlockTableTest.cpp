//===- BlockTableTest.cpp - The live-block table --------------------------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "BlockTable.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace massif {
namespace test {
namespace {

TEST(BlockTable, InsertFindRemove) {
  CountingAllocator Memory;
  BlockTable T;
  ASSERT_TRUE(T.init(Memory.get()));
  ASSERT_TRUE(T.insert({0x1000, 100, 12, 5}));
  ASSERT_TRUE(
      T.insert({0x2000, (uint64_t(1) << 40) + 7, (uint64_t(1) << 33), 6}));
  BlockRecord B;
  ASSERT_TRUE(T.find(0x2000, B));
  EXPECT_EQ(B.ReqB, (uint64_t(1) << 40) + 7);
  EXPECT_EQ(B.SlopB, uint64_t(1) << 33);
  EXPECT_EQ(B.Entry, 6u);
  EXPECT_FALSE(T.find(0x3000, B));
  EXPECT_FALSE(T.remove(0x3000, B));
  ASSERT_TRUE(T.remove(0x1000, B));
  EXPECT_EQ(B.ReqB, 100u);
  EXPECT_EQ(B.SlopB, 12u);
  EXPECT_FALSE(T.find(0x1000, B));
  EXPECT_EQ(T.size(), 1u);
}

TEST(BlockTable, TheSameAddressTwiceFindsTheNewestFirst) {
  // Massif's table can hold one address twice (MALLOCLIKE_BLOCK twice);
  // a free then finds the most recent record, then the older one.
  CountingAllocator Memory;
  BlockTable T;
  ASSERT_TRUE(T.init(Memory.get()));
  ASSERT_TRUE(T.insert({0x1000, 1, 0, 2}));
  ASSERT_TRUE(T.insert({0x1010, 9, 0, 9}));
  ASSERT_TRUE(T.insert({0x1000, 2, 0, 3}));
  BlockRecord B;
  ASSERT_TRUE(T.remove(0x1000, B));
  EXPECT_EQ(B.ReqB, 2u);
  ASSERT_TRUE(T.remove(0x1000, B));
  EXPECT_EQ(B.ReqB, 1u);
  EXPECT_FALSE(T.remove(0x1000, B));
}

TEST(BlockTable, AgreesWithAMapUnderRandomChurn) {
  CountingAllocator Memory;
  BlockTable T;
  ASSERT_TRUE(T.init(Memory.get()));
  std::map<uint64_t, uint64_t> Model;
  std::mt19937_64 Rng(7);
  for (int I = 0; I < 400000; ++I) {
    // Addresses from a small range, so clusters and wrap-around happen.
    uint64_t Addr = 0x10000 + (Rng() % 60000) * 16;
    if (Model.count(Addr)) {
      BlockRecord B;
      ASSERT_TRUE(T.remove(Addr, B));
      ASSERT_EQ(B.ReqB, Model[Addr]);
      Model.erase(Addr);
    } else {
      uint64_t Req = Rng() % 100000;
      ASSERT_TRUE(T.insert({Addr, Req, Req % 16, 2}));
      Model[Addr] = Req;
    }
  }
  ASSERT_EQ(T.size(), Model.size());
  for (auto [Addr, Req] : Model) {
    BlockRecord B;
    ASSERT_TRUE(T.find(Addr, B));
    ASSERT_EQ(B.ReqB, Req);
  }
}

TEST(BlockTable, CostsAtMost64BytesPerLiveBlock) {
  CountingAllocator Memory;
  BlockTable T;
  ASSERT_TRUE(T.init(Memory.get()));
  int64_t Base = Memory.LiveB;
  for (uint64_t N = 1; N <= 1000000; ++N) {
    ASSERT_TRUE(T.insert({N * 32, N, 0, 2}));
    if (N >= 4096 && (N & (N - 1)) == 0)
      ASSERT_LE(double(Memory.LiveB - Base) / double(N), 64.0) << N;
  }
  EXPECT_LE(double(Memory.LiveB - Base) / 1e6, 64.0);
}

} // namespace
} // namespace test
} // namespace massif
