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

/// Stack K, told apart from every other by a last frame of its own.
std::vector<uint64_t> distinctStack(uint32_t K) {
  std::vector<uint64_t> S = stackNumber(K);
  S.push_back(K);
  return S;
}

/// NumThreads threads each intern stacks 0 to NumStacks - 1 (distinctStack)
/// in the order Order(thread, i) gives, Rounds times, and must get the
/// same id every round. Returns the ids each thread got.
std::vector<std::vector<StackId>>
internFromThreads(StackDepot &D, uint32_t NumThreads, uint32_t NumStacks,
                  uint32_t Rounds,
                  uint32_t (*Order)(uint32_t, uint32_t, uint32_t)) {
  std::vector<std::vector<StackId>> Seen(NumThreads,
                                         std::vector<StackId>(NumStacks));
  std::vector<std::thread> Threads;
  for (uint32_t T = 0; T < NumThreads; ++T)
    Threads.emplace_back([&, T] {
      for (uint32_t Round = 0; Round < Rounds; ++Round)
        for (uint32_t I = 0; I < NumStacks; ++I) {
          uint32_t K = Order(T, I, NumStacks);
          std::vector<uint64_t> S = distinctStack(K);
          StackId Id = D.intern(S.data(), uint32_t(S.size()));
          if (Round > 0)
            EXPECT_EQ(Id, Seen[T][K]);
          Seen[T][K] = Id;
        }
    });
  for (std::thread &T : Threads)
    T.join();
  return Seen;
}

/// Every thread got one id for each stack, the stacks distinct ids, and
/// each id gives its stack's frames back and is what interning finds now.
void expectOneIdPerStack(StackDepot &D,
                         const std::vector<std::vector<StackId>> &Seen) {
  std::set<StackId> Distinct;
  uint32_t NumStacks = uint32_t(Seen[0].size());
  for (uint32_t K = 0; K < NumStacks; ++K) {
    for (uint32_t T = 1; T < Seen.size(); ++T)
      ASSERT_EQ(Seen[T][K], Seen[0][K]) << "stack " << K;
    StackId Id = Seen[0][K];
    ASSERT_NE(Id, 0u);
    ASSERT_LT(Id, D.end());
    Distinct.insert(Id);
    uint32_t N;
    const uint64_t *F = D.frames(Id, N);
    std::vector<uint64_t> S = distinctStack(K);
    ASSERT_EQ(std::vector<uint64_t>(F, F + N), S);
    ASSERT_EQ(D.intern(S.data(), uint32_t(S.size())), Id);
  }
  EXPECT_EQ(Distinct.size(), NumStacks);
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
    std::vector<uint64_t> S = distinctStack(K);
    Ids.push_back(D.intern(S.data(), uint32_t(S.size())));
  }
  EXPECT_EQ(D.end(), 50001u);
  for (uint32_t K = 0; K < 50000; ++K) {
    uint32_t N;
    const uint64_t *F = D.frames(Ids[K], N);
    ASSERT_EQ(std::vector<uint64_t>(F, F + N), distinctStack(K));
  }
}

TEST(StackDepot, ThreadsInterningConcurrentlyAgreeOnIds) {
  CountingAllocator Memory;
  StackDepot D;
  D.init(Memory.get());
  constexpr uint32_t NumStacks = 4000;
  // Every thread interns every stack, in its own order, twice.
  auto Seen = internFromThreads(D, 8, NumStacks, 2,
                                [](uint32_t T, uint32_t I, uint32_t N) {
                                  uint32_t J = T % 2 ? N - 1 - I : I;
                                  return (J + T * 131) % N;
                                });
  expectOneIdPerStack(D, Seen);
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
    std::vector<uint64_t> S = distinctStack(K);
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
  // Neighbouring threads take the stacks in the same order, so that they
  // race for the same traces as the levels fill.
  auto Seen =
      internFromThreads(D, 6, 12000, 1, [](uint32_t T, uint32_t I, uint32_t N) {
        return T % 3 == 2 ? N - 1 - I : I;
      });
  expectOneIdPerStack(D, Seen);
}

} // namespace
} // namespace test
} // namespace massif
