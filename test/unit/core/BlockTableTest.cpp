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

TEST(BlockTable, AgreesWithAStackPerAddressUnderDuplicatesAndOddRecords) {
  // Records a slot cannot hold -- misaligned addresses, two blocks in one
  // granule, ids of 2^31 and more, an address recorded again -- go to the
  // hash; each address still gives its records newest first.
  CountingAllocator Memory;
  BlockTable T;
  ASSERT_TRUE(T.init(Memory.get()));
  std::map<uint64_t, std::vector<uint32_t>> Model;
  std::mt19937_64 Rng(11);
  size_t Live = 0;
  for (int I = 0; I < 300000; ++I) {
    uint64_t Addr = 0x7f0000000000ull + (Rng() % 512) * 8;
    std::vector<uint32_t> &Records = Model[Addr];
    if (!Records.empty() && Rng() % 2) {
      uint32_t Id;
      ASSERT_TRUE(T.remove(Addr, Id));
      ASSERT_EQ(Id, Records.back());
      Records.pop_back();
      --Live;
    } else {
      uint32_t Id = Rng() % 4 ? uint32_t(1 + Rng() % 1000) : uint32_t(Rng());
      ASSERT_TRUE(T.insert(Addr, Id));
      Records.push_back(Id);
      ++Live;
    }
  }
  ASSERT_EQ(T.size(), Live);
  for (auto &[Addr, Records] : Model) {
    uint32_t Id;
    ASSERT_EQ(T.find(Addr, Id), !Records.empty());
    if (!Records.empty())
      ASSERT_EQ(Id, Records.back());
  }
}

TEST(BlockTable, CostsFourBytesPer32BytesOfHeap) {
  // glibc's blocks, at least 32 bytes apart: the slots of a dense heap
  // cost an eighth of it, wherever in the address space it lies.
  CountingAllocator Memory;
  BlockTable T;
  ASSERT_TRUE(T.init(Memory.get()));
  int64_t Base = Memory.residentB();
  constexpr uint64_t N = 1000000;
  for (uint64_t Heap : {0x555555554000ull, 0x7f1234560000ull})
    for (uint64_t I = 0; I < N; ++I)
      ASSERT_TRUE(T.insert(Heap + 16 + I * 32, uint32_t(I + 1)));
  EXPECT_EQ(T.size(), 2 * N);
  EXPECT_LE(double(Memory.residentB() - Base) / double(2 * N), 4.2);
}

TEST(BlockTable, DiscardGivesBackEveryLeaf) {
  // A few leaves are listed as they are made; past the list, discard scans
  // the whole array of leaf pointers. Both must give back everything.
  for (uint64_t NumLeaves : {1u, 3u, 32u, 33u, 70u}) {
    CountingAllocator Memory;
    BlockTable T;
    ASSERT_TRUE(T.init(Memory.get()));
    int64_t Empty = Memory.LiveB;
    for (uint64_t L = 0; L < NumLeaves; ++L)
      ASSERT_TRUE(T.insert(0x555555554000ull + (L << BlockTable::LeafBits),
                           uint32_t(L + 1)));
    EXPECT_GT(Memory.LiveB, Empty);
    T.discard();
    EXPECT_EQ(Memory.LiveB, 0) << NumLeaves << " leaves";
  }
}

} // namespace
} // namespace test
} // namespace massif
