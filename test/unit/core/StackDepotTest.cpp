//===- StackDepotTest.cpp - Interning call stacks, also concurrently -----===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>

namespace massif {
namespace test {
namespace {

std::vector<uint64_t> stackNumber(uint32_t K) {
  // Stacks of different lengths; many share prefixes and suffixes.
  std::vector<uint64_t> Pcs;
  for (uint32_t I = 0; I < 1 + K % 7; ++I)
    Pcs.push_back(0x400000 + (K * 2654435761u + I * 977) % 100000);
  return Pcs;
}

TEST(StackDepot, InternsEqualStacksToOneId) {
  CountingAllocator Memory;
  StackDepot D;
  D.init(Memory.get());
  EXPECT_EQ(D.end(), 1u);
  uint64_t A[] = {1, 2, 3}, B[] = {1, 2, 4}, C[] = {1, 2};
  StackId Ia = D.intern(A, 3), Ib = D.intern(B, 3), Ic = D.intern(C, 2);
  EXPECT_NE(Ia, 0u);
  EXPECT_NE(Ia, Ib);
  EXPECT_NE(Ia, Ic);
  EXPECT_EQ(D.intern(A, 3), Ia);
  EXPECT_EQ(D.intern(C, 2), Ic);
  EXPECT_EQ(D.end(), 4u); // ids are dense: 1, 2, 3
  uint32_t N;
  const uint64_t *F = D.frames(Ib, N);
  ASSERT_EQ(N, 3u);
  EXPECT_EQ(F[2], 4u);
  // The empty stack is a stack too.
  StackId Empty = D.intern(nullptr, 0);
  EXPECT_NE(Empty, 0u);
  EXPECT_EQ(D.intern(nullptr, 0), Empty);
  D.frames(Empty, N);
  EXPECT_EQ(N, 0u);
}

TEST(StackDepot, ManyStacksKeepTheirFrames) {
  CountingAllocator Memory;
  StackDepot D;
  D.init(Memory.get());
  std::vector<StackId> Ids;
  for (uint32_t K = 0; K < 50000; ++K) {
    std::vector<uint64_t> S = stackNumber(K);
    S.push_back(K); // make every stack distinct
    Ids.push_back(D.intern(S.data(), uint32_t(S.size())));
  }
  EXPECT_EQ(D.end(), 50001u);
  for (uint32_t K = 0; K < 50000; ++K) {
    uint32_t N;
    const uint64_t *F = D.frames(Ids[K], N);
    std::vector<uint64_t> S = stackNumber(K);
    S.push_back(K);
    ASSERT_EQ(std::vector<uint64_t>(F, F + N), S);
  }
}

TEST(StackDepot, ThreadsInterningConcurrentlyAgreeOnIds) {
  CountingAllocator Memory;
  StackDepot D;
  D.init(Memory.get());
  constexpr uint32_t NumThreads = 8, NumStacks = 4000;
  std::vector<std::vector<StackId>> Seen(NumThreads,
                                         std::vector<StackId>(NumStacks));
  std::vector<std::thread> Threads;
  for (uint32_t T = 0; T < NumThreads; ++T)
    Threads.emplace_back([&, T] {
      // Every thread interns every stack, in its own order, twice.
      for (uint32_t Round = 0; Round < 2; ++Round)
        for (uint32_t I = 0; I < NumStacks; ++I) {
          uint32_t J = T % 2 ? NumStacks - 1 - I : I;
          uint32_t K = (J + T * 131) % NumStacks;
          std::vector<uint64_t> S = stackNumber(K);
          S.push_back(K);
          StackId Id = D.intern(S.data(), uint32_t(S.size()));
          if (Round == 1)
            EXPECT_EQ(Id, Seen[T][K]);
          Seen[T][K] = Id;
        }
    });
  for (std::thread &T : Threads)
    T.join();

  std::set<StackId> Distinct;
  for (uint32_t K = 0; K < NumStacks; ++K) {
    for (uint32_t T = 1; T < NumThreads; ++T)
      ASSERT_EQ(Seen[T][K], Seen[0][K]) << "stack " << K;
    StackId Id = Seen[0][K];
    ASSERT_NE(Id, 0u);
    ASSERT_LT(Id, D.end());
    Distinct.insert(Id);
    uint32_t N;
    const uint64_t *F = D.frames(Id, N);
    std::vector<uint64_t> S = stackNumber(K);
    S.push_back(K);
    ASSERT_EQ(std::vector<uint64_t>(F, F + N), S);
  }
  EXPECT_EQ(Distinct.size(), NumStacks);
  // Races may abandon an id now and then, never many.
  EXPECT_LE(D.end() - 1, NumStacks + NumStacks / 4);
}

// A program with a few hundred stacks keeps a few pages of buckets: a
// single table sized for big programs (64K buckets, 512 KB) would have
// nearly every page of it resident, its stacks hashed all over it.
TEST(StackDepot, FewStacksFewPages) {
  CountingAllocator Memory;
  StackDepot D;
  D.init(Memory.get());
  for (uint32_t K = 0; K < 300; ++K) {
    std::vector<uint64_t> S = stackNumber(K);
    S.push_back(K);
    ASSERT_NE(D.intern(S.data(), uint32_t(S.size())), 0u);
  }
  EXPECT_LT(Memory.residentB(), 128 * 1024);
}

// Threads interning while the buckets grow from one level to the next
// (1K, 8K and 64K buckets): every trace still gets one id, whichever
// level each thread found or put it in.
TEST(StackDepot, ThreadsAgreeWhileTheBucketsGrow) {
  CountingAllocator Memory;
  StackDepot D;
  D.init(Memory.get());
  constexpr uint32_t NumThreads = 6, NumStacks = 12000;
  std::vector<std::vector<StackId>> Seen(NumThreads,
                                         std::vector<StackId>(NumStacks));
  std::vector<std::thread> Threads;
  for (uint32_t T = 0; T < NumThreads; ++T)
    Threads.emplace_back([&, T] {
      for (uint32_t I = 0; I < NumStacks; ++I) {
        // Neighbouring threads take the stacks in the same order, so that
        // they race for the same traces as the levels fill.
        uint32_t K = T % 3 == 2 ? NumStacks - 1 - I : I;
        std::vector<uint64_t> S = stackNumber(K);
        S.push_back(K);
        Seen[T][K] = D.intern(S.data(), uint32_t(S.size()));
      }
    });
  for (std::thread &T : Threads)
    T.join();
  std::set<StackId> Distinct;
  for (uint32_t K = 0; K < NumStacks; ++K) {
    for (uint32_t T = 1; T < NumThreads; ++T)
      ASSERT_EQ(Seen[T][K], Seen[0][K]) << "stack " << K;
    ASSERT_NE(Seen[0][K], 0u);
    Distinct.insert(Seen[0][K]);
    std::vector<uint64_t> S = stackNumber(K);
    S.push_back(K);
    // And each is found again, now that every level is made.
    ASSERT_EQ(D.intern(S.data(), uint32_t(S.size())), Seen[0][K]);
  }
  EXPECT_EQ(Distinct.size(), NumStacks);
}

} // namespace
} // namespace test
} // namespace massif
