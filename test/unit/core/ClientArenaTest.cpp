//===- ClientArenaTest.cpp - The replayed allocator against Valgrind's ----===//
//
// Part of massif-native, under the MIT licence.
//
// vg-programs/regenerate.sh ran arena.c under the installed Valgrind's
// Massif for each arena case and kept every allocator call with the
// address and usable size Valgrind's allocator gave, and Massif's file.
// Here the same calls go (1) into ClientArena, with Massif's realloc rule
// around it, which must give the same address (payload) and usable size
// for every block, and (2) into Profile, whose snapshots must carry the
// same numbers as Massif's (every snapshot's time, useful and extra heap).
//
//===----------------------------------------------------------------------===//

#include "ClientArenaHot.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <sstream>

namespace massif {
namespace test {
namespace {

/// One line of arena-<case>.ops.
struct Call {
  char Op;
  int Slot;
  uint64_t X = 0, Y = 0;     ///< the call's arguments after the slot
  uint64_t Addr = 0, UsableB = 0;
  std::string Text;
};

std::vector<Call> loadCalls(const std::string &Name) {
  std::vector<Call> Calls;
  for (const std::string &L : lines(
           readFile(std::string(MASSIF_CORE_VG_EXPECTED "/") + Name + ".ops"))) {
    std::istringstream In(L);
    Call C;
    C.Text = L;
    In >> C.Op >> C.Slot;
    if (C.Op != 'f') {
      In >> C.X;
      if (strchr("cmpl", C.Op))
        In >> C.Y;
      std::string Hex;
      In >> Hex >> C.UsableB;
      C.Addr = std::stoull(Hex, nullptr, 16);
    }
    EXPECT_FALSE(In.fail()) << L;
    Calls.push_back(C);
  }
  return Calls;
}

/// The request and alignment of an allocating call (not r or f).
void requestOf(const Call &C, uint64_t &ReqB, uint64_t &AlignB) {
  switch (C.Op) {
  case 'a':
    ReqB = C.X, AlignB = 0;
    return;
  case 'c':
    ReqB = C.X * C.Y, AlignB = 0;
    return;
  case 'v':
    ReqB = C.X, AlignB = 4096;
    return;
  default: // m, p, l
    ReqB = C.Y, AlignB = C.X;
  }
}

std::string expectedFile(const std::string &Name) {
  return readFile(std::string(MASSIF_CORE_VG_EXPECTED "/") + Name +
                  ".massif.out");
}

/// The options Massif was given (the desc: line of its file).
std::string descOf(const std::string &MassifOut) {
  return lines(MassifOut).at(0).substr(strlen("desc: "));
}

class ArenaCase : public ::testing::TestWithParam<const char *> {};

TEST_P(ArenaCase, GivesEveryBlockValgrindsAddressAndUsableSize) {
  std::string Name = GetParam();
  CountingAllocator Memory;
  Options O = parseOptions(descOf(expectedFile(Name)), Memory.get());
  ClientArena Arena;
  ASSERT_TRUE(Arena.init(Memory.get(), uint64_t(O.AlignmentB)));
  std::map<int, uint32_t> Slots;
  int Checked = 0;
  for (const Call &C : loadCalls(Name)) {
    uint32_t &Id = Slots[C.Slot];
    if (C.Op == 'f') {
      if (Id)
        Arena.release(Id);
      Id = 0;
      continue;
    }
    // What allocate says of a new block's usable size, checked below.
    uint64_t Granted = 0;
    bool Fresh = true;
    if (C.Op != 'r') {
      uint64_t ReqB, AlignB;
      requestOf(C, ReqB, AlignB);
      Id = Arena.allocate(ReqB, AlignB, Granted);
    } else if (!Id) {
      Id = Arena.allocate(C.X, 0, Granted); // realloc(NULL, n) is malloc(n)
    } else if (C.X == 0) {
      Arena.release(Id); // realloc(p, 0) is free(p)
      Id = 0;
    } else if (C.X > Arena.usableB(Id)) {
      // Massif: a new block, the contents copied, the old block freed.
      uint32_t New = Arena.allocate(C.X, 0, Granted);
      Arena.release(Id);
      Id = New;
    } else {
      Fresh = false; // in place
    }
    if (!C.Addr) {
      EXPECT_EQ(Id, 0u) << Name << ": " << C.Text;
      continue;
    }
    ASSERT_NE(Id, 0u) << Name << ": " << C.Text;
    ASSERT_EQ(Arena.payloadAddr(Id), C.Addr) << Name << ": " << C.Text;
    ASSERT_EQ(Arena.usableB(Id), C.UsableB) << Name << ": " << C.Text;
    if (Fresh)
      ASSERT_EQ(Granted, C.UsableB) << Name << ": " << C.Text;
    ++Checked;
  }
  EXPECT_GE(Checked, 5);
}

TEST_P(ArenaCase, ProfileWritesMassifsNumbers) {
  std::string Name = GetParam();
  std::string Expected = expectedFile(Name);
  ProfileRig Rig(descOf(Expected));
  Rig.Sym.add(0x1000, "leaf");
  Rig.Sym.add(0x2000, "main");
  StackId S = Rig.stack({0x1000, 0x2000});
  Rig.Prof.startup();
  std::map<int, uint64_t> Slots; // slot -> Valgrind's address
  for (const Call &C : loadCalls(Name)) {
    uint64_t &Addr = Slots[C.Slot];
    if (C.Op == 'f') {
      Rig.Prof.onFree(Addr);
      Addr = 0;
      continue;
    }
    if (C.Op == 'r' && Addr) {
      EXPECT_TRUE(Rig.Prof.onRealloc(Addr, C.Addr, C.X, S)) << C.Text;
    } else if (C.Addr) {
      uint64_t ReqB = C.X, AlignB = 0;
      if (C.Op != 'r')
        requestOf(C, ReqB, AlignB);
      Rig.Prof.onMalloc(C.Addr, ReqB, AlignB, S);
    }
    Addr = C.Addr;
    uint64_t ReqB, SlopB;
    if (Addr && Rig.Prof.findBlock(Addr, ReqB, SlopB))
      EXPECT_EQ(ReqB + SlopB, C.UsableB) << Name << ": " << C.Text;
  }
  EXPECT_EQ(snapshotSummaries(Rig.write()), snapshotSummaries(Expected));
}

// The rules one at a time (the numbers are those the recorded cases show).

TEST(ClientArena, AFreedBlockTooBigBy16BytesIsHandedOutWhole) {
  ProfileRig Rig("--time-unit=B");
  Rig.Sym.add(0x1000, "main");
  StackId S = Rig.stack({0x1000});
  Rig.Prof.startup();
  Rig.Prof.onMalloc(0xA000, 112, 0, S);
  Rig.Prof.onMalloc(0xB000, 16, 0, S); // keeps the freed block apart
  Rig.Prof.onFree(0xA000);
  Rig.Prof.onMalloc(0xC000, 96, 0, S);
  uint64_t ReqB, SlopB;
  ASSERT_TRUE(Rig.Prof.findBlock(0xC000, ReqB, SlopB));
  EXPECT_EQ(SlopB, 16u);
  // 32 bytes left over make a block of their own: split.
  Rig.Prof.onMalloc(0xD000, 128, 0, S);
  Rig.Prof.onMalloc(0xE000, 16, 0, S);
  Rig.Prof.onFree(0xD000);
  Rig.Prof.onMalloc(0xF000, 96, 0, S);
  ASSERT_TRUE(Rig.Prof.findBlock(0xF000, ReqB, SlopB));
  EXPECT_EQ(SlopB, 0u);
}

TEST(ClientArena, IgnoredBlocksOccupyTheArena) {
  // Massif allocates ignored blocks from Valgrind's allocator too.
  ProfileRig Rig("--time-unit=B --ignore-fn=skip --heap-admin=0");
  Rig.Sym.add(0x1000, "main");
  Rig.Sym.add(0x2000, "skip");
  StackId Main = Rig.stack({0x1000}), Skip = Rig.stack({0x2000, 0x1000});
  Rig.Prof.startup();
  Rig.Prof.onMalloc(0xA000, 112, 0, Skip);
  Rig.Prof.onMalloc(0xB000, 16, 0, Main);
  Rig.Prof.onFree(0xA000);
  Rig.Prof.onMalloc(0xC000, 96, 0, Main); // in the ignored block's place
  uint64_t ReqB, SlopB;
  ASSERT_TRUE(Rig.Prof.findBlock(0xC000, ReqB, SlopB));
  EXPECT_EQ(SlopB, 16u);
  std::vector<std::string> Snaps = snapshotSummaries(Rig.write());
  ASSERT_FALSE(Snaps.empty());
  EXPECT_EQ(Snaps.back(), "128 112 16 0 empty"); // 16 + 96 useful, 16 slop
}

TEST(ClientArena, BlocksItDoesNotKnowLeaveItAlone) {
  CountingAllocator Memory;
  ClientArena Arena;
  ASSERT_TRUE(Arena.init(Memory.get(), 16));
  uint64_t UsableB;
  uint32_t A = Arena.allocate(100, 0, UsableB);
  uint32_t D = Arena.detached(7); // a block whose slop the engine gave
  uint32_t B = Arena.allocate(100, 0, UsableB);
  EXPECT_EQ(Arena.payloadAddr(A), ClientArena::DefaultHeapBase + 48);
  EXPECT_EQ(Arena.payloadAddr(B), Arena.payloadAddr(A) + 144);
  EXPECT_EQ(Arena.detachedSlopB(D), 7u);
  Arena.release(D);
  Arena.release(A);
  uint32_t C = Arena.allocate(100, 0, UsableB);
  EXPECT_EQ(Arena.payloadAddr(C), ClientArena::DefaultHeapBase + 48);

  // And a free of an address the Profile never saw changes nothing.
  ProfileRig Rig("--time-unit=B");
  Rig.Sym.add(0x1000, "main");
  StackId S = Rig.stack({0x1000});
  Rig.Prof.startup();
  Rig.Prof.onMalloc(0xA000, 112, 0, S);
  Rig.Prof.onMalloc(0xB000, 16, 0, S);
  Rig.Prof.onFree(0x5000);
  Rig.Prof.onMalloc(0xC000, 96, 0, S);
  uint64_t ReqB, SlopB;
  ASSERT_TRUE(Rig.Prof.findBlock(0xC000, ReqB, SlopB));
  EXPECT_EQ(SlopB, 0u);
}

TEST(ClientArena, DedicatedSuperblocksAndAlignment) {
  CountingAllocator Memory;
  ClientArena Arena;
  ASSERT_TRUE(Arena.init(Memory.get(), 16));
  uint64_t UsableB;
  uint32_t Big = Arena.allocate(10 << 20, 0, UsableB);
  EXPECT_EQ(Arena.usableB(Big), (10u << 20) + 4032);
  EXPECT_EQ(UsableB, (10u << 20) + 4032);
  EXPECT_EQ(Arena.numSuperblocks(), 1u);
  Arena.release(Big); // unmapped at once
  EXPECT_EQ(Arena.numSuperblocks(), 0u);
  for (uint64_t Align : {8u, 32u, 48u, 64u, 4096u, 65536u}) {
    uint32_t Id = Arena.allocate(100, Align, UsableB);
    uint64_t Want = Align < 16 ? 16 : Align == 48 ? 64 : Align;
    EXPECT_EQ(Arena.payloadAddr(Id) % Want, 0u) << Align;
    EXPECT_GE(Arena.usableB(Id), 112u) << Align;
    EXPECT_EQ(UsableB, Arena.usableB(Id)) << Align;
  }
}

INSTANTIATE_TEST_SUITE_P(Valgrind319, ArenaCase,
                         ::testing::Values("arena-reuse", "arena-lists",
                                           "arena-big", "arena-churn",
                                           "arena-memalign",
                                           "arena-memalign48",
                                           "arena-alignment64",
                                           "arena-alignment4096",
                                           "arena-growth"),
                         [](const ::testing::TestParamInfo<const char *> &I) {
                           std::string N = I.param + strlen("arena-");
                           for (char &C : N)
                             if (C == '-')
                               C = '_';
                           return N;
                         });

} // namespace
} // namespace test
} // namespace massif
