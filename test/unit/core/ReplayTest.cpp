//===- ReplayTest.cpp - The model against recorded Valgrind runs ----------===//
//
// Part of massif-native, under the MIT licence.
//
// vg-programs/regenerate.sh ran replay.c under the installed Valgrind for
// each case and kept what the program did (with the slop Valgrind's
// allocator gave each block) and the massif.out Massif wrote. Here the same
// operations go into Profile, with the call stacks Massif printed given to a
// fake symbolizer, and the written file must be identical, byte for byte:
// header, every snapshot's numbers and kind, every tree.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace massif {
namespace test {
namespace {

std::vector<std::string> split(const std::string &S, char Sep = ' ') {
  std::vector<std::string> Out;
  std::string Cur;
  for (char C : S) {
    if (C == Sep) {
      Out.push_back(Cur);
      Cur.clear();
    } else {
      Cur += C;
    }
  }
  Out.push_back(Cur);
  return Out;
}

/// The recorded stacks of replay.c's call sites.
struct SiteMap {
  std::map<std::pair<char, int>, std::vector<uint64_t>> Stacks;
  /// Frames that the test appends below main, as a real stack has them.
  std::vector<uint64_t> BelowMain;

  void load(FakeSymbolizer &Sym) {
    for (const std::string &L :
         lines(readFile(MASSIF_CORE_VG_EXPECTED "/sites.map"))) {
      std::vector<std::string> W = split(L);
      if (W[0] == "below") {
        uint64_t Pc = std::stoull(W[1], nullptr, 16);
        Sym.add(Pc, W[2], W[3], uint32_t(std::stoul(W[4])));
        // Further outward, as glibc 2.36 has them; never printed.
        Sym.add(0x487C304, {FakeFrame{"__libc_start_main@@GLIBC_2.34",
                                      "libc-start.c", 360, ""}});
        Sym.add(0x1090A0, {FakeFrame{"_start", "", 0, "replay"}});
        BelowMain = {Pc, 0x487C304, 0x1090A0};
        continue;
      }
      std::vector<uint64_t> Pcs;
      std::vector<std::string> Frames =
          split(L.substr(L.find(' ', 2) + 1), '|');
      for (std::string F : Frames) {
        std::istringstream In(F);
        std::string Pc, Fn, File;
        uint32_t Line;
        In >> Pc >> Fn >> File >> Line;
        uint64_t Addr = std::stoull(Pc, nullptr, 16);
        Sym.add(Addr, Fn, File, Line);
        Pcs.push_back(Addr);
      }
      Stacks[{W[0][0], std::stoi(W[1])}] = Pcs;
    }
  }
};

/// Replays one recorded case and returns what the model writes.
std::string replay(const std::string &Name, std::string &Expected) {
  Expected =
      readFile(std::string(MASSIF_CORE_VG_EXPECTED "/") + Name + ".massif.out");
  std::vector<std::string> Head = lines(Expected);
  // desc: holds exactly the options Massif was given; cmd: the command.
  std::string Desc = Head.at(0).substr(strlen("desc: "));
  std::vector<std::string> Cmd = split(Head.at(1).substr(strlen("cmd: ")));

  ProfileRig Rig(Desc);
  SiteMap Sites;
  Sites.load(Rig.Sym);
  auto StackOf = [&](char Kind, int Site) {
    std::vector<uint64_t> Pcs = Sites.Stacks.at({Kind, Site});
    Pcs.insert(Pcs.end(), Sites.BelowMain.begin(), Sites.BelowMain.end());
    return Rig.stack(Pcs);
  };

  Rig.Prof.startup();
  std::map<int, uint64_t> Slots; // slot -> address in the model
  uint64_t NextAddr = 0x4A00000;
  auto Fresh = [&] { return NextAddr += 0x1000; };
  for (const std::string &L : lines(readFile(
           std::string(MASSIF_CORE_VG_EXPECTED "/") + Name + ".ops"))) {
    std::vector<std::string> W = split(L);
    int Slot = std::stoi(W[1]);
    if (W[0] == "f") {
      Rig.Prof.onFree(Slots[Slot]); // free(NULL) reaches the model as 0
      Slots[Slot] = 0;
      continue;
    }
    uint64_t Size = std::stoull(W[2]);
    int Site = std::stoi(W[3]);
    uint64_t Slop = std::stoull(W[4]);
    uint64_t Addr = Size || W[0] == "a" || Slots[Slot] == 0 ? Fresh() : 0;
    if (W[0] == "a" || Slots[Slot] == 0)
      Rig.Prof.onMalloc(Addr, Size, 0, StackOf(W[0][0], Site));
    else
      EXPECT_TRUE(
          Rig.Prof.onRealloc(Slots[Slot], Addr, Size, StackOf('r', Site)));
    Slots[Slot] = Addr;
    // The replayed allocator gives the block what Valgrind's gave it.
    uint64_t ReqB = 0, SlopB = 0;
    if (Addr) {
      EXPECT_TRUE(Rig.Prof.findBlock(Addr, ReqB, SlopB));
      EXPECT_EQ(SlopB, Slop) << Name << ": " << L;
    }
  }
  return Rig.write(Cmd);
}

class Replay : public ::testing::TestWithParam<const char *> {};

TEST_P(Replay, WritesWhatMassifWrote) {
  std::string Expected;
  std::string Actual = replay(GetParam(), Expected);
  // Compare snapshot by snapshot first, for a readable failure.
  EXPECT_EQ(snapshotSummaries(Actual), snapshotSummaries(Expected));
  EXPECT_EQ(Actual, Expected);
}

INSTANTIATE_TEST_SUITE_P(Valgrind319, Replay,
                         ::testing::Values("basic", "cull10", "cull11", "peak0",
                                           "peak10", "freq1", "freq3-admin16",
                                           "admin0", "depth1", "depth2", "thr0",
                                           "thr10", "thr0625", "ignore-asite1",
                                           "ignore-rsite2", "allocfn-leaf",
                                           "allocfn-to-main", "slop"),
                         [](const ::testing::TestParamInfo<const char *> &I) {
                           std::string N = I.param;
                           for (char &C : N)
                             if (C == '-')
                               C = '_';
                           return N;
                         });

} // namespace
} // namespace test
} // namespace massif
