//===- TreeTest.cpp - Heap-tree emission, line by line --------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Small hand-made trees for the rules of spec §1.6-§1.10, §2.5 and §5 that
// the recorded Valgrind runs (ReplayTest.cpp) cannot reach with replay.c:
// every form of IP description, inline chains, below-main renaming, thread
// stacks without main, pages-as-heap's root, empty trees.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <gtest/gtest.h>

namespace massif {
namespace test {
namespace {

/// The tree of the last snapshot in a massif.out text.
std::string lastTree(const std::string &Text) {
  size_t At = Text.rfind("heap_tree=");
  At = Text.find('\n', At);
  return Text.substr(At + 1);
}

constexpr char Root[] =
    "(heap allocation functions) malloc/new/new[], --alloc-fns, etc.";

struct TreeRig : ProfileRig {
  explicit TreeRig(const std::string &Args)
      : ProfileRig("--time-unit=B --detailed-freq=1 --heap-admin=0 " + Args) {
    Sym.add(0x500, "main", "m.c", 5);
    Sym.add(0x900, "__libc_start_call_main", "libc_start_call_main.h", 58);
    Sym.add(0x901, "_start");
    Prof.startup();
  }
  /// Allocates Size at a fresh address from the stack Pcs + main + below.
  void alloc(std::vector<uint64_t> Pcs, uint64_t Size) {
    Pcs.insert(Pcs.end(), {0x500, 0x900, 0x901});
    Prof.onAlloc(NextAddr += 0x1000, Size, 0, stack(Pcs));
  }
  std::string tree() { return lastTree(write()); }
  uint64_t NextAddr = 0x100000;
};

TEST(Tree, EveryFormOfIpDescription) {
  TreeRig R("--threshold=0");
  R.Sym.add(0x10, {FakeFrame{"f", "a.c", 10, "/bin/p"}});
  R.Sym.add(0x11, {FakeFrame{"g", "", 0, "/lib/x.so"}});
  R.Sym.add(0x12, {FakeFrame{"", "", 0, "/lib/x.so"}});
  R.Sym.add(0x13, {FakeFrame{"", "b.c", 3, ""}});
  R.Sym.add(0x14, {FakeFrame{"h", "", 0, ""}});
  // 0x15 is unknown to the symbolizer.
  uint64_t Size = 600;
  for (uint64_t Pc : {0x10, 0x11, 0x12, 0x13, 0x14, 0x15})
    R.alloc({Pc}, Size -= 100);
  EXPECT_EQ(R.tree(), std::string("n6: 1500 ") + Root + "\n" +
                          " n1: 500 0x10: f (a.c:10)\n"
                          "  n0: 500 0x500: main (m.c:5)\n"
                          " n1: 400 0x11: g (in /lib/x.so)\n"
                          "  n0: 400 0x500: main (m.c:5)\n"
                          " n1: 300 0x12: ??? (in /lib/x.so)\n"
                          "  n0: 300 0x500: main (m.c:5)\n"
                          " n1: 200 0x13: ??? (b.c:3)\n"
                          "  n0: 200 0x500: main (m.c:5)\n"
                          " n1: 100 0x14: h (in ?\?\?)\n"
                          "  n0: 100 0x500: main (m.c:5)\n"
                          " n1: 0 0x15: ?\?\?\n"
                          "  n0: 0 0x500: main (m.c:5)\n");
}

TEST(Tree, InlineChainsPrintOneLinePerFrame) {
  TreeRig R("");
  R.Sym.add(0x1091BB, "fun_noninline_o", "inl.c", 48);
  R.Sym.add(0x109206, {FakeFrame{"fun_f", "inl.c", 54, ""},
                       FakeFrame{"fun_e", "inl.c", 60, ""},
                       FakeFrame{"fun_noninline_n", "inl.c", 66, ""}});
  R.alloc({0x1091BB, 0x109206}, 3700000);
  EXPECT_EQ(R.tree(),
            std::string("n1: 3700000 ") + Root + "\n" +
                " n1: 3700000 0x1091BB: fun_noninline_o (inl.c:48)\n"
                "  n1: 3700000 0x109206: fun_f (inl.c:54)\n"
                "   n1: 3700000 0x109206: fun_e (inl.c:60)\n"
                "    n1: 3700000 0x109206: fun_noninline_n (inl.c:66)\n"
                "     n0: 3700000 0x500: main (m.c:5)\n");
}

TEST(Tree, AggregatesBelowTheThreshold) {
  // Totals 4000, 16, 8, 8 at depth 0 with 1%: 16 and both 8s are below
  // 40.32 and merge into one "in 3 places"; under f, a single group of 3
  // below 40 becomes "in 1 place".
  TreeRig R("");
  R.Sym.add(0x10, "f", "t.c", 1);
  R.Sym.add(0x11, "g", "t.c", 2);
  R.Sym.add(0x12, "h", "t.c", 3);
  R.Sym.add(0x13, "k", "t.c", 4);
  R.Sym.add(0x20, "c1", "t.c", 20);
  R.Sym.add(0x21, "c2", "t.c", 21);
  R.alloc({0x10, 0x20}, 3997);
  R.alloc({0x10, 0x21}, 3);
  R.alloc({0x11}, 16);
  R.alloc({0x12}, 8);
  R.alloc({0x13}, 8);
  EXPECT_EQ(R.tree(),
            std::string("n2: 4032 ") + Root + "\n" +
                " n2: 4000 0x10: f (t.c:1)\n"
                "  n1: 3997 0x20: c1 (t.c:20)\n"
                "   n0: 3997 0x500: main (m.c:5)\n"
                "  n0: 3 in 1 place, below massif's threshold (1.00%)\n"
                " n0: 32 in 3 places, all below massif's threshold (1.00%)\n");
}

TEST(Tree, TheSymbolizerHearsOfEveryPrintedAddressFirst) {
  // Entries that share prefixes and part ways at several depths, over
  // several detailed snapshots: every address a tree prints was given to
  // Prepare before the trees were printed.
  TreeRig R("--threshold=0");
  for (uint64_t Pc = 0x10; Pc < 0x40; ++Pc)
    R.Sym.add(Pc, "f" + std::to_string(Pc), "t.c", uint32_t(Pc));
  R.alloc({0x10, 0x20, 0x30}, 100);
  R.alloc({0x10, 0x20, 0x31}, 50);
  R.alloc({0x10, 0x21}, 25);
  R.alloc({0x11, 0x20, 0x30}, 12);
  R.alloc({0x12}, 6);
  std::string Text = R.write();
  EXPECT_NE(Text.find("0x31: f49"), std::string::npos);
  EXPECT_FALSE(R.Sym.Prepared.empty());
  EXPECT_EQ(R.Sym.UnpreparedCalls, 0u);
  // Shared prefixes are given once: nothing beyond the frames used.
  for (uint64_t Pc : R.Sym.Prepared)
    EXPECT_TRUE((Pc >= 0x10 && Pc < 0x40) || Pc == 0x500) << std::hex << Pc;
}

TEST(Tree, AnAggregatePrecedesARealGroupOfTheSameTotal) {
  TreeRig R("--threshold=10");
  for (uint64_t Pc = 0x10; Pc < 0x15; ++Pc)
    R.Sym.add(Pc, "f" + std::to_string(Pc), "t.c", uint32_t(Pc));
  R.alloc({0x10}, 100);
  R.alloc({0x11}, 100);
  R.alloc({0x12}, 50); // 50 + 50 in two places = 100, like the others
  R.alloc({0x13}, 50);
  R.alloc({0x14}, 1000);
  // The threshold is 10% of 1300 = 130: only f20 is significant.
  EXPECT_EQ(
      R.tree(),
      std::string("n2: 1300 ") + Root + "\n" +
          " n1: 1000 0x14: f20 (t.c:20)\n"
          "  n0: 1000 0x500: main (m.c:5)\n"
          " n0: 300 in 4 places, all below massif's threshold (10.00%)\n");
  // 60 + 60 below 10% of 740 make an aggregate of 120, which sorts before
  // the real group of 120 (the aggregate counts as address 0).
  TreeRig Tie("--threshold=10");
  for (uint64_t Pc = 0x10; Pc < 0x14; ++Pc)
    Tie.Sym.add(Pc, "f" + std::to_string(Pc), "t.c", uint32_t(Pc));
  Tie.alloc({0x10}, 500);
  Tie.alloc({0x11}, 120);
  Tie.alloc({0x12}, 60);
  Tie.alloc({0x13}, 60);
  EXPECT_EQ(Tie.tree(),
            std::string("n3: 740 ") + Root + "\n" +
                " n1: 500 0x10: f16 (t.c:16)\n"
                "  n0: 500 0x500: main (m.c:5)\n"
                " n0: 120 in 2 places, all below massif's threshold (10.00%)\n"
                " n1: 120 0x11: f17 (t.c:17)\n"
                "  n0: 120 0x500: main (m.c:5)\n");
}

TEST(Tree, ZeroEntriesPrintWhileTheTotalIsSmall) {
  // With a total below 100 bytes, 1% is under one byte: nothing is
  // insignificant, so freed call sites print with 0.
  TreeRig R("");
  R.Sym.add(0x10, "tiny", "tiny.c", 2);
  R.Sym.add(0x11, "other", "tiny.c", 3);
  R.alloc({0x10}, 32);
  R.alloc({0x11}, 16);
  R.Prof.onFree(R.NextAddr);
  EXPECT_EQ(R.tree(), std::string("n2: 32 ") + Root + "\n" +
                          " n1: 32 0x10: tiny (tiny.c:2)\n"
                          "  n0: 32 0x500: main (m.c:5)\n"
                          " n1: 0 0x11: other (tiny.c:3)\n"
                          "  n0: 0 0x500: main (m.c:5)\n");
}

TEST(Tree, AnEmptyHeapAggregatesEverything) {
  TreeRig R("");
  for (uint64_t Pc = 0x10; Pc < 0x15; ++Pc) {
    R.Sym.add(Pc, "f", "t.c", uint32_t(Pc));
    R.alloc({Pc}, 8);
    R.Prof.onFree(R.NextAddr);
  }
  EXPECT_EQ(R.tree(),
            std::string("n1: 0 ") + Root + "\n" +
                " n0: 0 in 5 places, all below massif's threshold (1.00%)\n");
  TreeRig Empty("");
  EXPECT_EQ(Empty.tree(), std::string("n0: 0 ") + Root + "\n");
}

TEST(Tree, ShorterStacksCountButPrintNoChild) {
  TreeRig R("--threshold=0 --depth=2");
  R.Sym.add(0x10, "f", "t.c", 1);
  R.Sym.add(0x20, "g", "t.c", 2);
  R.Sym.add(0x21, "h", "t.c", 3);
  R.alloc({0x10}, 100);      // [f, main]
  R.alloc({0x10, 0x20}, 50); // [f, g] after --depth=2
  R.alloc({0x10, 0x21, 0x22}, 25);
  R.Prof.onAlloc(0x1000, 10, 0, R.stack({0x10})); // [f] alone: no child
  EXPECT_EQ(R.tree(), std::string("n1: 185 ") + Root + "\n" +
                          " n3: 185 0x10: f (t.c:1)\n"
                          "  n0: 100 0x500: main (m.c:5)\n"
                          "  n0: 50 0x20: g (t.c:2)\n"
                          "  n0: 25 0x21: h (t.c:3)\n");
}

TEST(Tree, DefaultAllocFnsAreStrippedFromTheTop) {
  TreeRig R("");
  R.Sym.add(0x10, "operator new(unsigned long)", "new_op.cc", 50);
  R.Sym.add(0x11, "operator new[](unsigned long)", "new_opv.cc", 32);
  R.Sym.add(0x20, "make", "t.c", 9);
  R.alloc({0x11, 0x10, 0x20}, 64);
  EXPECT_EQ(R.tree(), std::string("n1: 64 ") + Root + "\n" +
                          " n1: 64 0x20: make (t.c:9)\n"
                          "  n0: 64 0x500: main (m.c:5)\n");
}

TEST(Tree, BelowMainFramesAndThreadStacks) {
  TreeRig R("");
  R.Sym.add(0x10, "f", "t.c", 1);
  R.Sym.add(0x30, "start_thread", "pthread_create.c", 442);
  R.Sym.add(0x31, "clone", "clone.S", 100);
  R.Sym.add(0x40, {FakeFrame{"__libc_start_main@@GLIBC_2.34", "", 0,
                             "/lib/libc.so.6"}});
  // A thread: no main and no below-main frame, nothing is cut.
  R.Prof.onAlloc(0x1000, 300, 0, R.stack({0x10, 0x30, 0x31}));
  // A stripped program: main is unknown, the innermost below-main frame
  // ends the stack and prints as (below main).
  R.Prof.onAlloc(0x2000, 200, 0, R.stack({0x11, 0x900, 0x40, 0x901}));
  EXPECT_EQ(R.tree(),
            std::string("n2: 500 ") + Root + "\n" +
                " n1: 300 0x10: f (t.c:1)\n"
                "  n1: 300 0x30: start_thread (pthread_create.c:442)\n"
                "   n0: 300 0x31: clone (clone.S:100)\n"
                " n1: 200 0x11: ?\?\?\n"
                "  n0: 200 0x900: (below main) (libc_start_call_main.h:58)\n");
}

// Valgrind compares whole names (VG_(get_fnname_kind)): glibc's versioned
// __libc_start_main, the frame of a global constructor's stack, is a normal
// function, and _start below it ends the stack. Only the out-of-line
// function of an address is renamed, never an inlined level.
TEST(Tree, VersionedNamesAreNotBelowMainNorInlinedLevelsRenamed) {
  TreeRig R("");
  R.Sym.add(0x20, "ctor", "t.cpp", 3);
  R.Sym.add(0x40, {FakeFrame{"call_init", "libc-start.c", 145, ""},
                   FakeFrame{"__libc_start_main@@GLIBC_2.34", "libc-start.c",
                             347, ""}});
  R.Sym.add(0x41, {FakeFrame{"_start@GLIBC_2.2.5", "s.c", 2, ""}});
  R.Sym.add(0x50, {FakeFrame{"_start", "", 0, "/bin/p"}});
  R.Sym.add(0x60, {FakeFrame{"_start", "t.c", 7, ""},
                   FakeFrame{"g", "t.c", 9, ""}});
  R.Prof.onAlloc(0x1000, 300, 0, R.stack({0x20, 0x40, 0x41, 0x50, 0x51}));
  R.alloc({0x60}, 200);
  EXPECT_EQ(R.tree(),
            std::string("n2: 500 ") + Root + "\n" +
                " n1: 300 0x20: ctor (t.cpp:3)\n"
                "  n1: 300 0x40: call_init (libc-start.c:145)\n"
                "   n1: 300 0x40: __libc_start_main@@GLIBC_2.34 "
                "(libc-start.c:347)\n"
                "    n1: 300 0x41: _start@GLIBC_2.2.5 (s.c:2)\n"
                "     n0: 300 0x50: (below main) (in /bin/p)\n"
                " n1: 200 0x60: _start (t.c:7)\n"
                "  n1: 200 0x60: g (t.c:9)\n"
                "   n0: 200 0x500: main (m.c:5)\n");
}

TEST(Tree, PagesAsHeapHasItsOwnRoot) {
  TreeRig R("--pages-as-heap=yes");
  EXPECT_EQ(R.tree(), "n0: 0 (page allocation syscalls) mmap/mremap/brk, "
                      "--alloc-fns, etc.\n");
}

TEST(Tree, EntriesCreatedAfterASnapshotAreNotInIt) {
  TreeRig R("--threshold=0 --detailed-freq=2");
  R.Sym.add(0x10, "early", "t.c", 1);
  R.Sym.add(0x11, "late", "t.c", 2);
  R.alloc({0x10}, 16); // snapshot 1 (detailed): only "early" exists
  R.alloc({0x11}, 16); // snapshot 2 (not detailed)
  std::string Out = R.write();
  size_t First = Out.find("heap_tree=detailed");
  ASSERT_NE(First, std::string::npos);
  size_t End = Out.find("#---", First);
  EXPECT_EQ(Out.substr(First, End - First),
            std::string("heap_tree=detailed\nn1: 16 ") + Root + "\n" +
                " n1: 16 0x10: early (t.c:1)\n"
                "  n0: 16 0x500: main (m.c:5)\n");
}

} // namespace
} // namespace test
} // namespace massif
