//===- ArenaTest.cpp - The runtime's mmap-backed arena --------------------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "Arena.h"

#include <gtest/gtest.h>

#include <stdint.h>
#include <string.h>
#include <thread>
#include <vector>

using namespace massif;

namespace {

bool allZero(const void *P, size_t SizeB) {
  const unsigned char *C = static_cast<const unsigned char *>(P);
  for (size_t I = 0; I < SizeB; ++I)
    if (C[I])
      return false;
  return true;
}

TEST(ArenaTest, BlocksOfManySizesAreZeroedAlignedAndDisjoint) {
  std::vector<std::pair<char *, size_t>> Blocks;
  for (size_t SizeB : {0, 1, 7, 16, 17, 100, 1000, 4096, 65535, 65536, 65537,
                       300000, 2000000}) {
    char *P = static_cast<char *>(arenaAllocate(SizeB));
    ASSERT_NE(P, nullptr) << SizeB;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(P) % 16, 0u) << SizeB;
    EXPECT_TRUE(allZero(P, SizeB)) << SizeB;
    memset(P, 0xAB, SizeB);
    Blocks.push_back({P, SizeB});
  }
  for (size_t I = 0; I < Blocks.size(); ++I)
    for (size_t J = I + 1; J < Blocks.size(); ++J) {
      char *A = Blocks[I].first, *B = Blocks[J].first;
      size_t AB = Blocks[I].second ? Blocks[I].second : 1;
      size_t BB = Blocks[J].second ? Blocks[J].second : 1;
      EXPECT_TRUE(A + AB <= B || B + BB <= A) << I << " overlaps " << J;
    }
  for (auto &[P, SizeB] : Blocks)
    arenaDeallocate(P, SizeB);
}

TEST(ArenaTest, ReusedBlocksComeBackZeroed) {
  char *P = static_cast<char *>(arenaAllocate(200));
  ASSERT_NE(P, nullptr);
  memset(P, 0x5A, 200);
  arenaDeallocate(P, 200);
  // The same size class hands the block out again, cleared.
  char *Q = static_cast<char *>(arenaAllocate(256));
  ASSERT_NE(Q, nullptr);
  EXPECT_EQ(Q, P);
  EXPECT_TRUE(allZero(Q, 256));
  arenaDeallocate(Q, 256);
}

TEST(ArenaTest, LargeBlocksAreUnmappedOnRelease) {
  size_t Before = arenaMappedBytes();
  void *P = arenaAllocate(10 << 20);
  ASSERT_NE(P, nullptr);
  EXPECT_GE(arenaMappedBytes(), Before + (10 << 20));
  arenaDeallocate(P, 10 << 20);
  EXPECT_EQ(arenaMappedBytes(), Before);
}

TEST(ArenaTest, StrdupCopiesAndBounds) {
  char *A = arenaStrdup("hello");
  ASSERT_NE(A, nullptr);
  EXPECT_STREQ(A, "hello");
  char *B = arenaStrdup("hello", 3);
  ASSERT_NE(B, nullptr);
  EXPECT_STREQ(B, "hel");
}

TEST(ArenaTest, AllocatorInterfaceForwardsToTheArena) {
  const massif::Allocator &A = arenaAllocator();
  void *P = A.allocate(48);
  ASSERT_NE(P, nullptr);
  EXPECT_TRUE(allZero(P, 48));
  A.deallocate(P, 48);
}

TEST(ArenaTest, ConcurrentThreadsNeverShareABlock) {
  constexpr int NumThreads = 4, Rounds = 20000;
  std::vector<std::thread> Threads;
  std::vector<int> Failures(NumThreads, 0);
  for (int T = 0; T < NumThreads; ++T)
    Threads.emplace_back([T, &Failures] {
      std::vector<std::pair<unsigned char *, size_t>> Live;
      for (int I = 0; I < Rounds; ++I) {
        size_t SizeB = 1 + (size_t)((I * 7919 + T * 104729) % 3000);
        auto *P = static_cast<unsigned char *>(arenaAllocate(SizeB));
        if (!P || !allZero(P, SizeB)) {
          ++Failures[T];
          continue;
        }
        memset(P, T + 1, SizeB); // another thread's block would show it
        Live.push_back({P, SizeB});
        if (Live.size() > 64) {
          auto [Q, QB] = Live[(size_t)I % Live.size()];
          for (size_t K = 0; K < QB; ++K)
            if (Q[K] != T + 1) {
              ++Failures[T];
              break;
            }
          arenaDeallocate(Q, QB);
          Live[(size_t)I % Live.size()] = Live.back();
          Live.pop_back();
        }
      }
      for (auto &[Q, QB] : Live)
        arenaDeallocate(Q, QB);
    });
  for (auto &Th : Threads)
    Th.join();
  for (int T = 0; T < NumThreads; ++T)
    EXPECT_EQ(Failures[T], 0) << "thread " << T;
}

} // namespace
