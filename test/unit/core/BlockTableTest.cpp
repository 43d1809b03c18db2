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
  ASSERT_TRUE(T.insert(0x1000, 5));
  ASSERT_TRUE(T.insert(0x2000, 0xFFFFFFF0u));
  uint32_t Id;
  ASSERT_TRUE(T.find(0x2000, Id));
  EXPECT_EQ(Id, 0xFFFFFFF0u);
  EXPECT_FALSE(T.find(0x3000, Id));
  EXPECT_FALSE(T.remove(0x3000, Id));
  ASSERT_TRUE(T.remove(0x1000, Id));
  EXPECT_EQ(Id, 5u);
  EXPECT_FALSE(T.find(0x1000, Id));
  EXPECT_EQ(T.size(), 1u);
}

TEST(BlockTable, TheSameAddressTwiceFindsTheNewestFirst) {
  // Massif's table can hold one address twice (MALLOCLIKE_BLOCK twice);
  // a free then finds the most recent record, then the older one.
  CountingAllocator Memory;
  BlockTable T;
  ASSERT_TRUE(T.init(Memory.get()));
  ASSERT_TRUE(T.insert(0x1000, 1));
  ASSERT_TRUE(T.insert(0x1010, 9));
  ASSERT_TRUE(T.insert(0x1000, 2));
  uint32_t Id;
  ASSERT_TRUE(T.remove(0x1000, Id));
  EXPECT_EQ(Id, 2u);
  ASSERT_TRUE(T.remove(0x1000, Id));
  EXPECT_EQ(Id, 1u);
  EXPECT_FALSE(T.remove(0x1000, Id));
}

TEST(BlockTable, AgreesWithAMapUnderRandomChurn) {
  CountingAllocator Memory;
  BlockTable T;
  ASSERT_TRUE(T.init(Memory.get()));
  std::map<uint64_t, uint32_t> Model;
  std::mt19937_64 Rng(7);
  for (int I = 0; I < 400000; ++I) {
    // Addresses from a small range, so clusters and wrap-around happen.
    uint64_t Addr = 0x10000 + (Rng() % 60000) * 16;
    if (Model.count(Addr)) {
      uint32_t Id;
      ASSERT_TRUE(T.remove(Addr, Id));
      ASSERT_EQ(Id, Model[Addr]);
      Model.erase(Addr);
    } else {
      uint32_t Id = uint32_t(Rng());
      ASSERT_TRUE(T.insert(Addr, Id));
      Model[Addr] = Id;
    }
  }
  ASSERT_EQ(T.size(), Model.size());
  for (auto [Addr, Want] : Model) {
    uint32_t Id;
    ASSERT_TRUE(T.find(Addr, Id));
    ASSERT_EQ(Id, Want);
  }
}

TEST(BlockTable, CostsAtMost32BytesPerLiveBlock) {
  CountingAllocator Memory;
  BlockTable T;
  ASSERT_TRUE(T.init(Memory.get()));
  int64_t Base = Memory.LiveB;
  for (uint64_t N = 1; N <= 1000000; ++N) {
    ASSERT_TRUE(T.insert(N * 32, uint32_t(N)));
    if (N >= 4096 && (N & (N - 1)) == 0)
      ASSERT_LE(double(Memory.LiveB - Base) / double(N), 32.0) << N;
  }
  EXPECT_LE(double(Memory.LiveB - Base) / 1e6, 32.0);
}

} // namespace
} // namespace test
} // namespace massif
