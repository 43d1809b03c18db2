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
  // 769 chains until the table held more than 769 records.
  XtreeBlock B[] = {{769 * 2 + 5, 1, 0}, {3, 2, 0}, {769 + 3, 3, 0}};
  sortAsValgrindHashTable(B, 3, 3);
  EXPECT_EQ(B[0].Stack, 3u); // chain 3, the higher key first
  EXPECT_EQ(B[1].Stack, 2u);
  EXPECT_EQ(B[2].Stack, 1u); // chain 5
  // Past 769 records the table has 1543 chains.
  XtreeBlock C[] = {{1543 + 1, 1, 0}, {800, 2, 0}};
  sortAsValgrindHashTable(C, 2, 770);
  EXPECT_EQ(C[0].Stack, 1u);
  EXPECT_EQ(C[1].Stack, 2u);
}

} // namespace
} // namespace test
} // namespace massif
