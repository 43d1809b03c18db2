//===- XTreeTest.cpp - Execution-tree rows and options ---------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The xtree options' defaults, values and errors; the rows' order (first
// use) and counters; the order of Valgrind's block hash table. The reports
// themselves are compared with Valgrind's live (test/xtree).
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "XTree.h"

#include <gtest/gtest.h>

#include <string.h>

#include <vector>

namespace massif {
namespace test {
namespace {

std::string parse(Options &O, CountingAllocator &M, const char *Arg) {
  OptionError E;
  ParseResult R = parseOption(O, Arg, M.get(), E);
  return R == ParseResult::Error ? std::string(E.Text) : std::string();
}

TEST(XtreeOptions, DefaultsAreValgrinds) {
  Options O;
  EXPECT_EQ(O.XtreeMemory, XtreeMode::None);
  EXPECT_STREQ(O.XtreeMemoryFile, "xtmemory.kcg.%p");
  EXPECT_TRUE(O.XtreeCompressStrings);
  EXPECT_EQ(O.FullpathAfter.Count, 0u);
  EXPECT_EQ(O.TimeUnit, TimeUnit::Instructions);
}

TEST(XtreeOptions, ValuesAndErrors) {
  CountingAllocator M;
  Options O;
  EXPECT_EQ(parse(O, M, "--xtree-memory=full"), "");
  EXPECT_EQ(O.XtreeMemory, XtreeMode::Full);
  EXPECT_EQ(parse(O, M, "--xtree-memory=allocs"), "");
  EXPECT_EQ(O.XtreeMemory, XtreeMode::Allocs);
  EXPECT_EQ(parse(O, M, "--xtree-memory=some"),
            "Unknown option: --xtree-memory=some\n"
            "--xtree-memory accepts none, allocs or full");
  EXPECT_EQ(O.XtreeMemory, XtreeMode::Allocs);
  EXPECT_EQ(parse(O, M, "--xtree-compress-strings=no"), "");
  EXPECT_FALSE(O.XtreeCompressStrings);
  EXPECT_EQ(parse(O, M, "--xtree-memory-file=x.%n"), "");
  EXPECT_STREQ(O.XtreeMemoryFile, "x.%n");
  // The three are Massif's desc: line's; --fullpath-after is the core's.
  EXPECT_EQ(parse(O, M, "--fullpath-after="), "");
  EXPECT_EQ(parse(O, M, "--fullpath-after=src/"), "");
  ASSERT_EQ(O.FullpathAfter.Count, 2u);
  EXPECT_STREQ(O.FullpathAfter.Items[0], "");
  EXPECT_STREQ(O.FullpathAfter.Items[1], "src/");
  ASSERT_EQ(O.Given.Count, 4u);
  EXPECT_STREQ(O.Given.Items[3], "--xtree-memory-file=x.%n");
}

TEST(XtreeCounters, RowsInOrderOfFirstUse) {
  CountingAllocator M;
  XtreeCounters X(M.get());
  X.alloc(7, 100);
  X.alloc(3, 10);
  X.free(7, 5, 100); // freed at stack 5: a row of its own
  X.alloc(7, 1);
  X.alloc(0, 99); // no stack: counted nowhere
  ASSERT_EQ(X.size(), 3u);
  EXPECT_EQ(X.stack(0), 7u);
  EXPECT_EQ(X.stack(1), 3u);
  EXPECT_EQ(X.stack(2), 5u);
  const XtreeRow &A = X.row(0);
  EXPECT_EQ(A.CurB, 1u);
  EXPECT_EQ(A.CurBk, 1u);
  EXPECT_EQ(A.TotB, 101u);
  EXPECT_EQ(A.TotBk, 2u);
  EXPECT_EQ(X.row(2).FdB, 100u);
  EXPECT_EQ(X.row(2).FdBk, 1u);
  X.release();
}

TEST(XtreeCounters, ManyStacksGrowTheRows) {
  CountingAllocator M;
  XtreeCounters X(M.get());
  for (StackId S = 1; S <= 5000; ++S)
    X.live(S * 3, S);
  ASSERT_EQ(X.size(), 5000u);
  EXPECT_EQ(X.stack(4999), 15000u);
  EXPECT_EQ(X.row(4999).CurB, 5000u);
  X.release();
}

TEST(XtreeOrder, ChainsOfValgrindsHashTable) {
  // 769 chains until the table held more than 769 records; within a
  // chain the latest insertion first, whatever its key.
  XtreeBlock B[] = {{769 * 2 + 5, 1, 1, 0, 0},
                    {769 + 3, 2, 2, 0, 0},
                    {3, 3, 3, 0, 0}};
  sortAsValgrindHashTable(B, 3, nullptr, 0);
  EXPECT_EQ(B[0].Stack, 3u); // chain 3, inserted last
  EXPECT_EQ(B[1].Stack, 2u);
  EXPECT_EQ(B[2].Stack, 1u); // chain 5
  // Grown once (to 1543 chains) after insertion 1.
  XtreeBlock C[] = {{1543 + 1, 1, 1, 0, 0}, {800, 2, 2, 0, 0}};
  uint64_t GrownAt[] = {1};
  sortAsValgrindHashTable(C, 2, GrownAt, 1);
  EXPECT_EQ(C[0].Stack, 1u);
  EXPECT_EQ(C[1].Stack, 2u);
  EXPECT_EQ(valgrindHashChains(0), 769u);
  EXPECT_EQ(valgrindHashChains(1), 1543u);
  EXPECT_EQ(valgrindHashChains(MaxHashGrowths), 402653189u);
}

TEST(XtreeOrder, GrowthReversesAChain) {
  // Keys 0 and 769 * 1543 share chain 0 of 769 and of 1543. Inserted in
  // that order, the chain holds the second, then 0; the growth walks it so
  // and pushes each onto the new chain's front: 0 first.
  XtreeBlock B[] = {{769 * 1543, 2, 2, 0, 0}, {0, 1, 1, 0, 0}};
  uint64_t GrownAt[] = {2};
  sortAsValgrindHashTable(B, 2, GrownAt, 1);
  EXPECT_EQ(B[0].Stack, 1u);
  EXPECT_EQ(B[1].Stack, 2u);
  // Without the growth, the later insertion is first.
  XtreeBlock C[] = {{769 * 1543, 2, 2, 0, 0}, {0, 1, 1, 0, 0}};
  sortAsValgrindHashTable(C, 2, nullptr, 0);
  EXPECT_EQ(C[0].Stack, 2u);
}

TEST(XtreeOrder, TheProfileNumbersInsertionsAndReallocs) {
  // Blocks the engine placed (their keys are their addresses), all in
  // chain 0 of 769: Massif's table lists the latest insertion first, and
  // a realloc, even in place, inserts its block again.
  ProfileRig Rig("--time-unit=B");
  Rig.Sym.add(0x1000, "first");
  Rig.Sym.add(0x2000, "second");
  Rig.Sym.add(0x3000, "third");
  Rig.Prof.startup();
  const uint64_t High = 16 * 769 * 100, Low = 16 * 769 * 50;
  Rig.Prof.onAlloc(High, 10, 6, Rig.stack({0x1000}));
  Rig.Prof.onAlloc(Low, 10, 6, Rig.stack({0x2000}));
  auto order = [&Rig] {
    StringSink Out;
    const char *Argv[] = {"./prog"};
    EXPECT_TRUE(Rig.Prof.writeXtree(Out.get(), RunInfo{Argv, 1}, false, 1, 0));
    std::string Names;
    for (const std::string &L : lines(Out.Text))
      if (L.rfind("fn=(", 0) == 0 && L.find(' ') != std::string::npos)
        Names += L.substr(L.find(' ') + 1) + " ";
    return Names;
  };
  EXPECT_EQ(order(), "second first ");
  ASSERT_TRUE(Rig.Prof.onRealloc(High, High, 12, 4, Rig.stack({0x3000})));
  EXPECT_EQ(order(), "third second ");
}

// A chained table that behaves as m_hashtable.c's is documented to: an
// insertion goes to its chain's front, a removal unlinks, and when an
// insertion leaves more records than chains the table moves to the next
// chain count, walking the old chains in order and pushing each record
// onto its new chain's front.
struct ReferenceTable {
  std::vector<std::vector<size_t>> Chains; // front first; values: indices
  std::vector<uint64_t> Keys;
  size_t Count = 0;
  uint32_t Grown = 0;
  std::vector<uint64_t> GrownAt;

  ReferenceTable() : Chains(valgrindHashChains(0)) {}
  void insert(size_t Rec, uint64_t Seq) {
    auto &Ch = Chains[Keys[Rec] % Chains.size()];
    Ch.insert(Ch.begin(), Rec);
    if (++Count > Chains.size() && Grown < MaxHashGrowths) {
      GrownAt.push_back(Seq);
      std::vector<std::vector<size_t>> New(valgrindHashChains(++Grown));
      for (auto &Old : Chains)
        for (size_t R : Old) {
          auto &NewCh = New[Keys[R] % New.size()];
          NewCh.insert(NewCh.begin(), R);
        }
      Chains.swap(New);
    }
  }
  void remove(size_t Rec) {
    auto &Ch = Chains[Keys[Rec] % Chains.size()];
    for (size_t I = 0; I < Ch.size(); ++I)
      if (Ch[I] == Rec) {
        Ch.erase(Ch.begin() + I);
        --Count;
        return;
      }
  }
};

TEST(XtreeOrder, SameAsAChainedTableAcrossGrowths) {
  // Insertions and removals in a pattern that grows the table twice,
  // with keys that collide (a few distinct values modulo each count) and
  // addresses used again after their blocks were freed.
  ReferenceTable T;
  std::vector<uint64_t> Seq;
  std::vector<bool> Live;
  uint64_t Next = 0, Rand = 12345;
  auto rnd = [&Rand] {
    Rand = Rand * 6364136223846793005ull + 1442695040888963407ull;
    return Rand >> 33;
  };
  for (int Step = 0; Step < 6000; ++Step) {
    bool Remove = Step % 5 == 4 && T.Count > 0;
    if (Remove) {
      size_t R;
      do
        R = rnd() % Live.size();
      while (!Live[R]);
      T.remove(R);
      Live[R] = false;
      continue;
    }
    // Keys from a small pool (the same address again) or spread out.
    uint64_t Key = rnd() % 3 ? 0x5000000 + 16 * (rnd() % 4000)
                             : 0x4A3A030 + 769 * 1543 * (rnd() % 4);
    T.Keys.push_back(Key);
    Seq.push_back(++Next);
    Live.push_back(true);
    T.insert(T.Keys.size() - 1, Next);
  }
  ASSERT_GE(T.Grown, 2u);
  std::vector<size_t> Want;
  for (auto &Ch : T.Chains)
    for (size_t R : Ch)
      Want.push_back(R);
  std::vector<XtreeBlock> B;
  for (size_t R = 0; R < Live.size(); ++R)
    if (Live[R])
      B.push_back(XtreeBlock{T.Keys[R], Seq[R], StackId(R), 0, 0});
  ASSERT_EQ(B.size(), Want.size());
  sortAsValgrindHashTable(B.data(), B.size(), T.GrownAt.data(),
                          uint32_t(T.GrownAt.size()));
  size_t Differ = 0;
  for (size_t I = 0; I < B.size(); ++I)
    Differ += B[I].Stack != StackId(Want[I]);
  EXPECT_EQ(Differ, 0u);
}

} // namespace
} // namespace test
} // namespace massif
