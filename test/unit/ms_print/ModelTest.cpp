//===- ModelTest.cpp - The in-memory profile and the frame text splitter --===//
//
// Part of massif-native, under the MIT licence.
//
// The model the views stand on: parseFrameText on the shapes Massif
// writes (C++ names, objects, unknown functions, the roots, the
// below-threshold lines, odd locations), FrameText::location(), and the
// loader's flat trees, peak, last and numbered snapshots, CRLF lines and
// '#' characters inside names.
//
//===----------------------------------------------------------------------===//

#include "FrameText.h"
#include "Profile.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

using namespace msprint::model;

namespace {

constexpr const char *HeapRoot =
    "(heap allocation functions) malloc/new/new[], --alloc-fns, etc.";
constexpr const char *PageRoot =
    "(page allocation syscalls) mmap/mremap/brk, --alloc-fns, etc.";

TEST(FrameTextTest, Roots) {
  for (const char *Text : {HeapRoot, PageRoot}) {
    FrameText F = parseFrameText(Text);
    EXPECT_EQ(F.Kind, FrameKind::Root) << Text;
    EXPECT_EQ(F.Function, Text);
    EXPECT_TRUE(F.Address.empty());
    EXPECT_TRUE(F.File.empty());
    EXPECT_TRUE(F.Object.empty());
    EXPECT_EQ(F.location(), Text);
  }
}

TEST(FrameTextTest, FunctionFileLine) {
  FrameText F = parseFrameText("0x10931B: grab (inlined.c:10)");
  EXPECT_EQ(F.Kind, FrameKind::Code);
  EXPECT_EQ(F.Address, "0x10931B");
  EXPECT_EQ(F.addressValue(), 0x10931Bu);
  EXPECT_EQ(F.Function, "grab");
  EXPECT_EQ(F.File, "inlined.c");
  EXPECT_EQ(F.Line, 10u);
  EXPECT_TRUE(F.Object.empty());
  EXPECT_EQ(F.location(), "grab (inlined.c:10)");
}

TEST(FrameTextTest, CxxNamesKeepParenthesesAndTemplates) {
  FrameText F = parseFrameText(
      "0x10A2B3: std::vector<int, std::allocator<int> >::push_back(int "
      "const&) (stl_vector.h:1198)");
  EXPECT_EQ(F.Function,
            "std::vector<int, std::allocator<int> >::push_back(int const&)");
  EXPECT_EQ(F.File, "stl_vector.h");
  EXPECT_EQ(F.Line, 1198u);

  F = parseFrameText("0x4011: operator new(unsigned long) (in "
                     "/usr/lib/x86_64-linux-gnu/valgrind/"
                     "vgpreload_massif-amd64-linux.so)");
  EXPECT_EQ(F.Function, "operator new(unsigned long)");
  EXPECT_EQ(
      F.Object,
      "/usr/lib/x86_64-linux-gnu/valgrind/vgpreload_massif-amd64-linux.so");
  EXPECT_TRUE(F.File.empty());
  EXPECT_EQ(F.Line, 0u);

  F = parseFrameText("0x1A: (anonymous namespace)::Pool::grow(std::pair<int, "
                     "int>) (pool.cpp:77)");
  EXPECT_EQ(F.Function,
            "(anonymous namespace)::Pool::grow(std::pair<int, int>)");
  EXPECT_EQ(F.File, "pool.cpp");
  EXPECT_EQ(F.Line, 77u);
  EXPECT_EQ(F.location(),
            "(anonymous namespace)::Pool::grow(std::pair<int, int>) "
            "(pool.cpp:77)");
}

TEST(FrameTextTest, InObject) {
  FrameText F = parseFrameText("0x4C2DB8F: malloc (in /lib/x.so)");
  EXPECT_EQ(F.Kind, FrameKind::Code);
  EXPECT_EQ(F.Function, "malloc");
  EXPECT_EQ(F.Object, "/lib/x.so");
  EXPECT_TRUE(F.File.empty());
  EXPECT_EQ(F.location(), "malloc (in /lib/x.so)");
}

TEST(FrameTextTest, UnknownFunction) {
  FrameText F = parseFrameText("0x10931B: ???");
  EXPECT_EQ(F.Kind, FrameKind::Code);
  EXPECT_EQ(F.Address, "0x10931B");
  EXPECT_EQ(F.Function, "???");
  EXPECT_TRUE(F.File.empty());
  EXPECT_TRUE(F.Object.empty());
  EXPECT_EQ(F.location(), "???");

  F = parseFrameText("0x4005D4: ??? (in /usr/local/bin/prog)");
  EXPECT_EQ(F.Function, "???");
  EXPECT_EQ(F.Object, "/usr/local/bin/prog");
  EXPECT_EQ(F.location(), "??? (in /usr/local/bin/prog)");

  F = parseFrameText("0x0: ???");
  EXPECT_EQ(F.Address, "0x0");
  EXPECT_EQ(F.addressValue(), 0u);
}

TEST(FrameTextTest, BelowThreshold) {
  FrameText F = parseFrameText("in 1 place, below massif's threshold (1.00%)");
  EXPECT_EQ(F.Kind, FrameKind::Insignificant);
  EXPECT_EQ(F.Places, 1u);
  EXPECT_EQ(F.Function, "in 1 place, below massif's threshold (1.00%)");
  EXPECT_TRUE(F.Address.empty());
  EXPECT_TRUE(F.File.empty());

  F = parseFrameText("in 12 places, all below massif's threshold (0.50%)");
  EXPECT_EQ(F.Kind, FrameKind::Insignificant);
  EXPECT_EQ(F.Places, 12u);
  EXPECT_EQ(F.location(), "in 12 places, all below massif's threshold (0.50%)");
  // A function whose name starts with "in " is code.
  F = parseFrameText("in place (x.c:3)");
  EXPECT_EQ(F.Kind, FrameKind::Code);
  EXPECT_EQ(F.Function, "in place");
}

TEST(FrameTextTest, Addresses) {
  FrameText F = parseFrameText("0xDEADbeef: f (a.c:1)");
  EXPECT_EQ(F.Address, "0xDEADbeef");
  EXPECT_EQ(F.addressValue(), 0xDEADBEEFu);
  F = parseFrameText("0xFFFFFFFFFFFFFFFF: f (a.c:1)");
  EXPECT_EQ(F.addressValue(), UINT64_MAX);
  // Not addresses: no digits, no ": ", a non-hex digit.
  for (const char *Text : {"0x: f (a.c:1)", "0x12:f (a.c:1)", "0x12G: f"}) {
    F = parseFrameText(Text);
    EXPECT_TRUE(F.Address.empty()) << Text;
    EXPECT_EQ(F.addressValue(), 0u) << Text;
  }
  // No address: the location is still split.
  F = parseFrameText("f (a.c:3)");
  EXPECT_TRUE(F.Address.empty());
  EXPECT_EQ(F.Function, "f");
  EXPECT_EQ(F.File, "a.c");
  EXPECT_EQ(F.Line, 3u);
}

TEST(FrameTextTest, NameEndingInParenthesisWithoutLocation) {
  for (const char *Rest :
       {"operator()(int)", "S::operator()(int) const", "f(g (h))", "f (a:b)",
        "f (:12)", "f (a.c:)", "f (in )", "f (a.c:1x)", "f (a.c:4294967296)"}) {
    std::string Text = std::string("0x10: ") + Rest;
    FrameText F = parseFrameText(Text);
    EXPECT_EQ(F.Kind, FrameKind::Code) << Rest;
    EXPECT_EQ(F.Function, Rest);
    EXPECT_TRUE(F.File.empty()) << Rest;
    EXPECT_EQ(F.Line, 0u) << Rest;
    EXPECT_TRUE(F.Object.empty()) << Rest;
    EXPECT_EQ(F.location(), Rest);
  }
  // The largest line that fits, and a file name holding a colon.
  FrameText F = parseFrameText("0x10: f (C:/src/a.c:4294967295)");
  EXPECT_EQ(F.File, "C:/src/a.c");
  EXPECT_EQ(F.Line, 4294967295u);
  // Only the last group is the location.
  F = parseFrameText("0x10: f (x.c:1) (y.c:2)");
  EXPECT_EQ(F.Function, "f (x.c:1)");
  EXPECT_EQ(F.File, "y.c");
  EXPECT_EQ(F.Line, 2u);
}

// A profile with a tree of every shape: a root with two children, one of
// which has two leaves.
const char *const TreeProfile = "desc: --time-unit=B\n"
                                "desc: --depth=3\n"
                                "cmd: ./prog a b\n"
                                "time_unit: B\n"
                                "#-----------\n"
                                "snapshot=0\n"
                                "#-----------\n"
                                "time=0\n"
                                "mem_heap_B=0\n"
                                "mem_heap_extra_B=0\n"
                                "mem_stacks_B=0\n"
                                "heap_tree=empty\n"
                                "snapshot=1\n"
                                "time=100\n"
                                "mem_heap_B=100\n"
                                "mem_heap_extra_B=8\n"
                                "mem_stacks_B=0\n"
                                "heap_tree=detailed\n"
                                "n2: 100 (heap allocation functions) "
                                "malloc/new/new[], --alloc-fns, etc.\n"
                                " n2: 60 0x1: a (a.c:1)\n"
                                "  n0: 40 0x2: b (b.c:2)\n"
                                "  n0: 20 0x3: c (c.c:3)\n"
                                " n0: 40 0x4: d (d.c:4)\n"
                                "snapshot=2\n"
                                "time=150\n"
                                "mem_heap_B=50\n"
                                "mem_heap_extra_B=8\n"
                                "mem_stacks_B=0\n"
                                "heap_tree=empty\n";

Profile parse(std::string_view Text) {
  Profile P;
  std::string Error;
  EXPECT_TRUE(parseProfile(Text, "t.out", P, Error)) << Error;
  return P;
}

std::vector<uint32_t> children(const Snapshot &S, uint32_t I) {
  std::vector<uint32_t> Out;
  S.forEachChild(I, [&](uint32_t C) { Out.push_back(C); });
  return Out;
}

TEST(ProfileLoaderTest, HeaderAndSnapshots) {
  Profile P = parse(TreeProfile);
  EXPECT_EQ(P.Desc, "--time-unit=B\n--depth=3");
  EXPECT_EQ(P.Cmd, "./prog a b");
  EXPECT_EQ(P.TimeUnit, "B");
  ASSERT_EQ(P.Snapshots.size(), 3u);
  const Snapshot &S = P.Snapshots[1];
  EXPECT_EQ(S.Number, 1u);
  EXPECT_EQ(S.Time, 100u);
  EXPECT_EQ(S.HeapBytes, 100u);
  EXPECT_EQ(S.ExtraBytes, 8u);
  EXPECT_EQ(S.StackBytes, 0u);
  EXPECT_EQ(S.total(), 108u);
  EXPECT_EQ(S.Tree, TreeKind::Detailed);
  EXPECT_TRUE(S.detailed());
  EXPECT_FALSE(P.Snapshots[0].detailed());
  EXPECT_TRUE(P.Snapshots[0].Nodes.empty());
}

TEST(ProfileLoaderTest, FlatTree) {
  Profile P = parse(TreeProfile);
  const Snapshot &S = P.Snapshots[1];
  ASSERT_EQ(S.Nodes.size(), 5u);
  const uint32_t Ends[] = {5, 4, 3, 4, 5};
  const uint32_t Depths[] = {0, 1, 2, 2, 1};
  const uint64_t Bytes[] = {100, 60, 40, 20, 40};
  for (uint32_t I = 0; I < 5; ++I) {
    EXPECT_EQ(S.Nodes[I].End, Ends[I]) << I;
    EXPECT_EQ(S.Nodes[I].Depth, Depths[I]) << I;
    EXPECT_EQ(S.Nodes[I].Bytes, Bytes[I]) << I;
  }
  EXPECT_EQ(S.Nodes[0].Text, HeapRoot);
  EXPECT_EQ(S.Nodes[2].Text, "0x2: b (b.c:2)");
  // Children in file order (largest first), none for leaves.
  EXPECT_EQ(children(S, 0), (std::vector<uint32_t>{1, 4}));
  EXPECT_EQ(children(S, 1), (std::vector<uint32_t>{2, 3}));
  EXPECT_TRUE(children(S, 2).empty());
  EXPECT_TRUE(children(S, 3).empty());
  EXPECT_TRUE(children(S, 4).empty());
}

TEST(ProfileLoaderTest, DeepChain) {
  // A chain of 300 nodes: each node's subtree ends at the end of the tree.
  std::string Text = "desc: x\ncmd: y\ntime_unit: i\nsnapshot=0\ntime=1\n"
                     "mem_heap_B=7\nmem_heap_extra_B=0\nmem_stacks_B=0\n"
                     "heap_tree=peak\n";
  for (int I = 0; I < 300; ++I)
    Text += std::string(size_t(I), ' ') + (I < 299 ? "n1: 7 f\n" : "n0: 7 f\n");
  Profile P = parse(Text);
  ASSERT_EQ(P.Snapshots.size(), 1u);
  const Snapshot &S = P.Snapshots[0];
  ASSERT_EQ(S.Nodes.size(), 300u);
  for (uint32_t I = 0; I < 300; ++I) {
    EXPECT_EQ(S.Nodes[I].End, 300u);
    EXPECT_EQ(S.Nodes[I].Depth, I);
  }
  EXPECT_EQ(children(S, 298), (std::vector<uint32_t>{299}));
}

std::string snapshotText(int Number, uint64_t Heap, const char *Tree,
                         uint64_t Extra = 0) {
  std::string S = "snapshot=" + std::to_string(Number) +
                  "\ntime=" + std::to_string(Number * 10) +
                  "\nmem_heap_B=" + std::to_string(Heap) +
                  "\nmem_heap_extra_B=" + std::to_string(Extra) +
                  "\nmem_stacks_B=0\nheap_tree=" + Tree + "\n";
  if (std::string_view(Tree) != "empty")
    S += "n0: " + std::to_string(Heap) + " " + HeapRoot + "\n";
  return S;
}

const char *const Header = "desc: x\ncmd: ./p\ntime_unit: i\n";

TEST(ProfileLoaderTest, PeakIndex) {
  // The marked peak wins even over a larger total.
  Profile P =
      parse(std::string(Header) + snapshotText(0, 10, "empty") +
            snapshotText(1, 50, "peak") + snapshotText(2, 80, "detailed"));
  EXPECT_EQ(P.peakIndex(), 1u);
  EXPECT_EQ(P.lastDetailedIndex(), 2u);

  // Without a mark, the first of the largest totals (extra bytes count).
  P = parse(std::string(Header) + snapshotText(0, 10, "empty") +
            snapshotText(1, 40, "empty", 10) + snapshotText(2, 50, "empty") +
            snapshotText(3, 20, "detailed"));
  EXPECT_EQ(P.peakIndex(), 1u);
  EXPECT_EQ(P.lastDetailedIndex(), 3u);

  // Without snapshots, or without trees.
  P = parse(Header);
  EXPECT_TRUE(P.Snapshots.empty());
  EXPECT_EQ(P.peakIndex(), SIZE_MAX);
  EXPECT_EQ(P.lastDetailedIndex(), SIZE_MAX);
  P = parse(std::string(Header) + snapshotText(0, 10, "empty"));
  EXPECT_EQ(P.peakIndex(), 0u);
  EXPECT_EQ(P.lastDetailedIndex(), SIZE_MAX);
}

TEST(ProfileLoaderTest, FindSnapshot) {
  // Numbers as written, not indexes.
  Profile P =
      parse(std::string(Header) + snapshotText(3, 10, "empty") +
            snapshotText(7, 90, "peak") + snapshotText(12, 30, "detailed"));
  EXPECT_EQ(P.findSnapshot("peak"), 1u);
  EXPECT_EQ(P.findSnapshot("last"), 2u);
  EXPECT_EQ(P.findSnapshot("3"), 0u);
  EXPECT_EQ(P.findSnapshot("7"), 1u);
  EXPECT_EQ(P.findSnapshot("12"), 2u);
  EXPECT_EQ(P.findSnapshot("007"), 1u);
  for (const char *Bad : {"0", "1", "2", "", "-1", "x", "7x", " 7", "all",
                          "99999999999999999999"})
    EXPECT_EQ(P.findSnapshot(Bad), SIZE_MAX) << Bad;

  P = parse(Header);
  EXPECT_EQ(P.findSnapshot("peak"), SIZE_MAX);
  EXPECT_EQ(P.findSnapshot("last"), SIZE_MAX);
  EXPECT_EQ(P.findSnapshot("0"), SIZE_MAX);
}

TEST(ProfileLoaderTest, CrlfLines) {
  std::string Text;
  for (const char *C = TreeProfile; *C; ++C) {
    if (*C == '\n')
      Text += '\r';
    Text += *C;
  }
  Profile P = parse(Text);
  EXPECT_EQ(P.Desc, "--time-unit=B\n--depth=3");
  EXPECT_EQ(P.Cmd, "./prog a b");
  EXPECT_EQ(P.TimeUnit, "B");
  ASSERT_EQ(P.Snapshots.size(), 3u);
  const Snapshot &S = P.Snapshots[1];
  ASSERT_EQ(S.Nodes.size(), 5u);
  EXPECT_EQ(S.Nodes[0].Text, HeapRoot);
  EXPECT_EQ(S.Nodes[4].Text, "0x4: d (d.c:4)");
  EXPECT_EQ(P.Snapshots[2].HeapBytes, 50u);
}

TEST(ProfileLoaderTest, HashInsideNamesKept) {
  Profile P = parse("desc: a#b\n"
                    "# a comment line\n"
                    "cmd: ./p #1\n"
                    "time_unit: B\n"
                    "   # an indented comment\n"
                    "\n"
                    "snapshot=0\ntime=0\nmem_heap_B=9\nmem_heap_extra_B=0\n"
                    "mem_stacks_B=0\nheap_tree=peak\n"
                    "n1: 9 (heap allocation functions) malloc/new/new[], "
                    "--alloc-fns, etc.\n"
                    "#-----------\n"
                    " n0: 9 0x10: f#g (thresh#olds.c:60)\n");
  EXPECT_EQ(P.Desc, "a#b");
  EXPECT_EQ(P.Cmd, "./p #1");
  ASSERT_EQ(P.Snapshots.size(), 1u);
  const Snapshot &S = P.Snapshots[0];
  ASSERT_EQ(S.Nodes.size(), 2u);
  EXPECT_EQ(S.Nodes[1].Text, "0x10: f#g (thresh#olds.c:60)");
  FrameText F = parseFrameText(S.Nodes[1].Text);
  EXPECT_EQ(F.Function, "f#g");
  EXPECT_EQ(F.File, "thresh#olds.c");
  EXPECT_EQ(F.Line, 60u);
}

TEST(ProfileLoaderTest, ErrorsNameTheLine) {
  struct Case {
    const char *Text;
    const char *Error;
  } Cases[] = {
      {"", "t.out:1: the file is empty; expected a 'desc:' line"},
      {"# only\n\n# comments\n",
       "t.out:3: the file is empty; expected a 'desc:' line"},
      {"hello\n", "t.out:1: not a massif.out file: expected a 'desc:' line, "
                  "found 'hello'"},
      {"desc: x\ncmd: y\ntime_unit: B\nsnapshot=0\ntime=0\nmem_heap_B=5\n"
       "mem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=detailed\nn1: 5 r\n",
       "t.out:10: the file ends inside a heap tree"},
      {"desc: x\ncmd: y\ntime_unit: B\nsnapshot=0\ntime=0\nmem_heap_B=5x\n",
       "t.out:6: 'mem_heap_B=' is not a whole number: '5x'"},
      {"desc: x\ncmd: y\ntime_unit: B\nsnapshot=0\ntime=0\nmem_heap_B=5\n"
       "mem_heap_extra_B=0\nmem_stacks_B=0\nheap_tree=detailed\nn1: 5 r\n"
       "  n0: 5 c\n",
       "t.out:11: heap tree line indented by 2 where 1 was expected"},
  };
  for (const Case &C : Cases) {
    Profile P;
    std::string Error;
    EXPECT_FALSE(parseProfile(C.Text, "t.out", P, Error)) << C.Text;
    EXPECT_EQ(Error, C.Error);
  }
}

} // namespace
