//===- AllocatorModelTest.cpp - Slop as Valgrind's allocator gives it -----===//
//
// Part of massif-native, under the MIT licence.
//
// The "slop" case of vg-programs records, for fresh blocks of many sizes
// (nothing freed, so nothing recycled), the slop Valgrind 3.19 gave under
// Massif. modelSlopB must give the same for each.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <fstream>

namespace massif {
namespace test {
namespace {

TEST(ModelSlop, MatchesValgrindForFreshBlocks) {
  std::ifstream In(MASSIF_CORE_VG_EXPECTED "/slop.ops");
  ASSERT_TRUE(In.good());
  std::string Op;
  uint64_t Slot, Size, Site, Slop;
  int Checked = 0;
  while (In >> Op >> Slot >> Size >> Site >> Slop) {
    ASSERT_EQ(Op, "a");
    EXPECT_EQ(modelSlopB(Size, 16), Slop) << "malloc(" << Size << ")";
    ++Checked;
  }
  EXPECT_GT(Checked, 80);
}

TEST(ModelSlop, SmallBlocksRoundToSixteen) {
  EXPECT_EQ(modelSlopB(0, 16), 0u);
  EXPECT_EQ(modelSlopB(1, 16), 15u);
  EXPECT_EQ(modelSlopB(16, 16), 0u);
  EXPECT_EQ(modelSlopB(99, 16), 13u); // malloc_usable_size(malloc(99)) = 112
  EXPECT_EQ(modelSlopB(100, 0), 12u); // an alignment below 16 is 16
}

TEST(ModelSlop, BigBlocksGetWholePages) {
  EXPECT_EQ(modelSlopB(10 * 1024 * 1024, 16), 4032u);
  EXPECT_EQ(modelSlopB(4194241, 16), 4095u);
}

TEST(ModelSlop, AlignedBlocks) {
  // Within a superblock the position decides; the model takes the middle
  // of the possible range (req16, req16 + align].
  for (uint64_t Align : {32u, 64u, 256u, 4096u}) {
    uint64_t Slop = modelSlopB(100, Align);
    EXPECT_GT(100 + Slop, 112u) << Align;
    EXPECT_LE(100 + Slop, 112 + Align) << Align;
    EXPECT_EQ((100 + Slop) % 16, 0u);
  }
  // In a fresh superblock it is fixed (measured: memalign(a, 5 MiB)).
  EXPECT_EQ(modelSlopB(5242880, 32), 16u);
  EXPECT_EQ(modelSlopB(5242880, 64), 16u);
  EXPECT_EQ(modelSlopB(5242881, 64), 31u);
  EXPECT_EQ(modelSlopB(5242880, 256), 80u);
  EXPECT_EQ(modelSlopB(5242880, 4096), 80u);
  EXPECT_EQ(modelSlopB(4194000, 1024), 80u);
}

} // namespace
} // namespace test
} // namespace massif
