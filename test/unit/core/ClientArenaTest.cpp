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

#include "ClientArena.h"
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
    if (C.Op != 'r') {
      uint64_t ReqB, AlignB;
      requestOf(C, ReqB, AlignB);
      Id = Arena.allocate(ReqB, AlignB);
    } else if (!Id) {
      Id = Arena.allocate(C.X, 0); // realloc(NULL, n) is malloc(n)
    } else if (C.X == 0) {
      Arena.release(Id); // realloc(p, 0) is free(p)
      Id = 0;
    } else if (C.X > Arena.usableB(Id)) {
      // Massif: a new block, the contents copied, the old block freed.
      uint32_t New = Arena.allocate(C.X, 0);
      Arena.release(Id);
      Id = New;
    }
    if (!C.Addr) {
      EXPECT_EQ(Id, 0u) << Name << ": " << C.Text;
      continue;
    }
    ASSERT_NE(Id, 0u) << Name << ": " << C.Text;
    ASSERT_EQ(Arena.payloadAddr(Id), C.Addr) << Name << ": " << C.Text;
    ASSERT_EQ(Arena.usableB(Id), C.UsableB) << Name << ": " << C.Text;
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
