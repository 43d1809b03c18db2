//===- MemoryTest.cpp - The model's array helpers -------------------------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "Memory.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

namespace massif {
namespace test {
namespace {

void growKeepsElementsAndZeroesTheRest(bool Remaps) {
  CountingAllocator Memory;
  Memory.Remaps = Remaps;
  Allocator A = Memory.get();
  uint64_t *P = nullptr;
  size_t Cap = 0, Count = 0;
  for (size_t NewCap : {size_t(100), size_t(5000), size_t(100000),
                        size_t(1000000)}) {
    ASSERT_TRUE(growArray(A, P, Count, Cap, NewCap));
    ASSERT_EQ(Cap, NewCap);
    for (size_t I = 0; I < Count; ++I)
      ASSERT_EQ(P[I], I * 7 + 1) << I;
    for (size_t I = Count; I < Cap; ++I)
      ASSERT_EQ(P[I], 0u) << I;
    for (; Count < Cap; ++Count)
      P[Count] = Count * 7 + 1;
  }
  EXPECT_EQ(Memory.LiveB, int64_t(Cap * sizeof(uint64_t)));
  freeArray(A, P, Cap);
  EXPECT_EQ(Memory.LiveB, 0);
}

TEST(Memory, GrowArrayByMovingPages) { growKeepsElementsAndZeroesTheRest(true); }

TEST(Memory, GrowArrayByCopying) { growKeepsElementsAndZeroesTheRest(false); }

} // namespace
} // namespace test
} // namespace massif
