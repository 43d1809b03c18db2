//===- SitesTest.cpp - The site statistics file's reader ------------------===//
//
// Part of massif-native, under the MIT licence.
//
// model::parseSites on the file the engines write (format.h's grammar):
// the header, the size buckets, the totals, sites with their frames (an
// inline chain kept as consecutive frames with one address), CRLF lines;
// every way of breaking it refused with the line and what was expected;
// the totals held to the sites' sums and the sites to their calls; the
// file's name beside a massif.out file (sitesPathFor) and the check that
// the statistics are of the profile's run (findSites).
//
//===----------------------------------------------------------------------===//

#include "FrameText.h"
#include "Profile.h"
#include "Sites.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace msprint::model;

namespace {

const char *const Good =
    "massif-sites: 1\n"
    "cmd: ./prog a b\n"
    "sizes: 0 12 40 7\n"
    "total: calls=59 bytes=4100 temporary=3 temporary_bytes=96 "
    "leaked_blocks=2 leaked_bytes=64\n"
    "site: calls=40 bytes=3000 temporary=3 temporary_bytes=96 "
    "leaked_blocks=0 leaked_bytes=0\n"
    " 0x4005F1: f (a.c:10)\n"
    " 0x400612: main (a.c:20)\n"
    "site: calls=19 bytes=1100 temporary=0 temporary_bytes=0 "
    "leaked_blocks=2 leaked_bytes=64\n"
    " 0x40061B: grab (inl.c:10)\n"
    " 0x40061B: outer (inl.c:20)\n"
    " 0x400700: std::vector<int>::push_back(int const&) (in /lib/x.so)\n";

TEST(SitesLoaderTest, ReadsTheFile) {
  SiteStats S;
  std::string Error;
  ASSERT_TRUE(parseSites(Good, "m.sites", S, Error)) << Error;
  EXPECT_EQ(S.Version, 1u);
  EXPECT_EQ(S.Cmd, "./prog a b");
  EXPECT_EQ(S.Sizes, (std::vector<uint64_t>{0, 12, 40, 7}));
  EXPECT_EQ(S.Total.Calls, 59u);
  EXPECT_EQ(S.Total.Bytes, 4100u);
  EXPECT_EQ(S.Total.Temporary, 3u);
  EXPECT_EQ(S.Total.TemporaryBytes, 96u);
  EXPECT_EQ(S.Total.LeakedBlocks, 2u);
  EXPECT_EQ(S.Total.LeakedBytes, 64u);
  ASSERT_EQ(S.Sites.size(), 2u);
  EXPECT_EQ(S.Sites[0].Line, 5u);
  EXPECT_EQ(S.Sites[0].Counts.Calls, 40u);
  EXPECT_EQ(S.Sites[0].Frames,
            (std::vector<std::string_view>{"0x4005F1: f (a.c:10)",
                                           "0x400612: main (a.c:20)"}));
  EXPECT_EQ(S.Sites[1].Line, 8u);
  EXPECT_EQ(S.Sites[1].Counts.LeakedBytes, 64u);
  ASSERT_EQ(S.Sites[1].Frames.size(), 3u);
  // The inline chain: two frames of one address, innermost first, parsed
  // by the trees' parser.
  FrameText Inner = parseFrameText(S.Sites[1].Frames[0]);
  FrameText Outer = parseFrameText(S.Sites[1].Frames[1]);
  EXPECT_EQ(Inner.Address, Outer.Address);
  EXPECT_EQ(Inner.Function, "grab");
  EXPECT_EQ(Outer.Function, "outer");
  FrameText Cxx = parseFrameText(S.Sites[1].Frames[2]);
  EXPECT_EQ(Cxx.Function, "std::vector<int>::push_back(int const&)");
  EXPECT_EQ(Cxx.Object, "/lib/x.so");
}

TEST(SitesLoaderTest, NoSitesNoSizes) {
  SiteStats S;
  std::string Error;
  ASSERT_TRUE(parseSites("massif-sites: 1\ncmd: ./p\nsizes:\n"
                         "total: calls=0 bytes=0 temporary=0 "
                         "temporary_bytes=0 leaked_blocks=0 leaked_bytes=0\n",
                         "e.sites", S, Error))
      << Error;
  EXPECT_TRUE(S.Sizes.empty());
  EXPECT_TRUE(S.Sites.empty());
  EXPECT_EQ(S.Total, SiteCounts());
  // No newline at the end, CRLF lines, an empty cmd.
  ASSERT_TRUE(parseSites("massif-sites: 1\r\ncmd:\r\nsizes: 1\r\n"
                         "total: calls=1 bytes=0 temporary=0 "
                         "temporary_bytes=0 leaked_blocks=1 leaked_bytes=0\r\n"
                         "site: calls=1 bytes=0 temporary=0 "
                         "temporary_bytes=0 leaked_blocks=1 leaked_bytes=0\r\n"
                         " 0x1: ???",
                         "e.sites", S, Error))
      << Error;
  EXPECT_EQ(S.Cmd, "");
  ASSERT_EQ(S.Sites.size(), 1u);
  EXPECT_EQ(S.Sites[0].Frames.front(), "0x1: ???");
}

TEST(SitesLoaderTest, BucketBounds) {
  EXPECT_EQ(SiteStats::bucketLow(0), 0u);
  EXPECT_EQ(SiteStats::bucketHigh(0), 0u);
  EXPECT_EQ(SiteStats::bucketLow(1), 1u);
  EXPECT_EQ(SiteStats::bucketHigh(1), 1u);
  EXPECT_EQ(SiteStats::bucketLow(2), 2u);
  EXPECT_EQ(SiteStats::bucketHigh(2), 3u);
  EXPECT_EQ(SiteStats::bucketLow(11), 1024u);
  EXPECT_EQ(SiteStats::bucketHigh(11), 2047u);
  EXPECT_EQ(SiteStats::bucketLow(64), uint64_t(1) << 63);
  EXPECT_EQ(SiteStats::bucketHigh(64), UINT64_MAX);
}

TEST(SitesLoaderTest, ErrorsNameTheLine) {
  const std::string Head = "massif-sites: 1\ncmd: ./p\nsizes: 1\n";
  const std::string Total1 = "total: calls=1 bytes=8 temporary=0 "
                             "temporary_bytes=0 leaked_blocks=1 "
                             "leaked_bytes=8\n";
  const std::string Site1 = "site: calls=1 bytes=8 temporary=0 "
                            "temporary_bytes=0 leaked_blocks=1 "
                            "leaked_bytes=8\n";
  struct Case {
    std::string Text;
    const char *Error;
  } Cases[] = {
      {"", "s:1: not a site statistics file: expected a 'massif-sites: 1' "
           "line, found an empty file"},
      {"desc: (none)\n", "s:1: not a site statistics file: expected a "
                         "'massif-sites: 1' line, found 'desc: (none)'"},
      {"massif-sites: 2\n",
       "s:1: site statistics version 2; this ms_print reads version 1"},
      {"massif-sites:1\n", "s:1: the version after 'massif-sites:' is not a "
                           "whole number: 'massif-sites:1'"},
      {"massif-sites: 1\n",
       "s:1: the file ends where a 'cmd: <command>' line was expected"},
      {"massif-sites: 1\nsizes: 1\n",
       "s:2: expected a 'cmd: <command>' line, found 'sizes: 1'"},
      {"massif-sites: 1\ncmd: ./p\nsizes: 1 x\n",
       "s:3: a count of the 'sizes:' line is not a whole number: 'x'"},
      {"massif-sites: 1\ncmd: ./p\nsizes:  1\n",
       "s:3: a count of the 'sizes:' line is not a whole number: ''"},
      {"massif-sites: 1\ncmd: ./p\nsizes:" + std::string(66 * 2, ' ') + "\n",
       "s:3: a count of the 'sizes:' line is not a whole number: ''"},
      {Head, "s:3: the file ends where a 'total: calls=<n> ...' line was "
             "expected"},
      {Head + "site: calls=1\n",
       "s:4: expected a 'total: calls=<n> ...' line, found 'site: calls=1'"},
      {Head + "total: calls=1 bytes=8\n",
       "s:4: expected ' temporary=<n>' in the 'total:' line, found ''"},
      {Head + "total: calls=1 temporary=0\n",
       "s:4: expected 'bytes=<n>' in the 'total:' line, found "
       "'temporary=0'"},
      {Head + "total: calls=-1\n",
       "s:4: 'calls=' is not a whole number: '-1'"},
      {Head + "total: calls=18446744073709551616\n",
       "s:4: 'calls=' is not a whole number: '18446744073709551616'"},
      {Head + "total: calls=1 bytes=8 temporary=0 temporary_bytes=0 "
              "leaked_blocks=1 leaked_bytes=8 more=1\n",
       "s:4: unexpected ' more=1' after the counts of the 'total:' line"},
      {Head + Total1 + " 0x1: f (a.c:1)\n",
       "s:5: expected a 'site: calls=<n> ...' line, found ' 0x1: f (a.c:1)'"},
      {Head + Total1 + Site1,
       "s:5: the file ends where a frame line ' 0x<address>: "
       "<description>' was expected"},
      {Head + Total1 + Site1 + Site1,
       "s:6: expected a frame line ' 0x<address>: <description>' after the "
       "'site:' line, found 'site: calls=1 bytes=8 temporary=0 "
       "temporary_bytes=0 leaked_b...'"},
      {Head + Total1 + Site1 + " f (a.c:1)\n",
       "s:6: expected a frame line ' 0x<address>: <description>', found ' f "
       "(a.c:1)'"},
      {Head + Total1 + Site1 + " 0x1: f (a.c:1)\n\n",
       "s:7: expected a 'site: calls=<n> ...' line, found ''"},
      {Head + Total1 + Site1 + " in 1 place, below massif's threshold (1.00%)\n",
       "s:6: expected a frame line ' 0x<address>: <description>', found ' in "
       "1 place, below massif's threshold (1.00%)'"},
      // The total is the sites' sum.
      {Head + Total1 + Site1 + " 0x1: f (a.c:1)\n" + Site1 + " 0x2: g\n",
       "s:4: the 'total:' line is not the sum of the sites (calls=2 bytes=16 "
       "temporary=0 temporary_bytes=0 leaked_blocks=2 leaked_bytes=16)"},
      // A site frees no more than it allocated.
      {Head + Total1 +
           "site: calls=1 bytes=8 temporary=1 temporary_bytes=8 "
           "leaked_blocks=1 leaked_bytes=0\n",
       "s:5: the site has 1 temporary and 1 leaked blocks, more than its 1 "
       "calls"},
      {Head + Total1 +
           "site: calls=1 bytes=8 temporary=0 temporary_bytes=0 "
           "leaked_blocks=1 leaked_bytes=18446744073709551615\n",
       "s:5: the site has 0 temporary and 18446744073709551615 leaked bytes, "
       "more than the 8 bytes its calls asked for"},
  };
  for (const Case &C : Cases) {
    SiteStats S;
    std::string Error;
    EXPECT_FALSE(parseSites(C.Text, "s", S, Error)) << C.Text;
    EXPECT_EQ(Error, C.Error) << C.Text;
  }
}

TEST(SitesLoaderTest, TooManyBuckets) {
  std::string Sizes = "sizes:";
  for (int I = 0; I < 66; ++I)
    Sizes += " 0";
  SiteStats S;
  std::string Error;
  EXPECT_FALSE(
      parseSites("massif-sites: 1\ncmd: x\n" + Sizes + "\n", "s", S, Error));
  EXPECT_EQ(Error, "s:3: the 'sizes:' line has more than 65 counts (size 0, "
                   "then one per bit of a 64-bit size)");
}

TEST(SitesPathTest, BesideTheProfile) {
  EXPECT_EQ(sitesPathFor("massif.out.1234"), "massif.sites.1234");
  EXPECT_EQ(sitesPathFor("dir/massif.out.1234"), "dir/massif.sites.1234");
  EXPECT_EQ(sitesPathFor("massif.out"), "massif.sites");
  // The last "massif.out" of the file's own name, not of a directory.
  EXPECT_EQ(sitesPathFor("massif.out.d/x.massif.out.massif.out.7"),
            "massif.out.d/x.massif.out.massif.sites.7");
  EXPECT_EQ(sitesPathFor("massif.out.d/prof.1"), "massif.out.d/prof.1.sites");
  EXPECT_EQ(sitesPathFor("base.out"), "base.out.sites");
  EXPECT_EQ(sitesPathFor("-"), "");
  EXPECT_EQ(sitesPathFor(""), "");
}

class FindSitesTest : public ::testing::Test {
protected:
  void SetUp() override {
    char Tmpl[] = "/tmp/sites-test-XXXXXX";
    ASSERT_NE(mkdtemp(Tmpl), nullptr);
    Dir = Tmpl;
    std::string Error;
    ASSERT_TRUE(parseProfile("desc: (none)\ncmd: ./prog a b\ntime_unit: B\n",
                             "p", P, Error))
        << Error;
  }
  void TearDown() override {
    std::remove((Dir + "/massif.sites.1").c_str());
    rmdir(Dir.c_str());
  }
  void write(const std::string &Text) {
    std::ofstream(Dir + "/massif.sites.1", std::ios::binary) << Text;
  }
  std::string Dir;
  Profile P;
};

TEST_F(FindSitesTest, AbsentLoadedOrBad) {
  std::string Path = sitesPathFor(Dir + "/massif.out.1");
  EXPECT_EQ(Path, Dir + "/massif.sites.1");
  SiteStats S;
  std::string Error;
  EXPECT_EQ(findSites(Path, true, P, S, Error), SitesLookup::Absent);
  EXPECT_EQ(findSites("", true, P, S, Error), SitesLookup::Absent);
  EXPECT_EQ(findSites(Path, false, P, S, Error), SitesLookup::Bad);
  EXPECT_EQ(Error, "cannot open '" + Path + "': No such file or directory");

  write(Good);
  EXPECT_EQ(findSites(Path, true, P, S, Error), SitesLookup::Loaded) << Error;
  EXPECT_EQ(S.Path, Path);
  EXPECT_EQ(S.Sites.size(), 2u);

  write(std::string(Good).replace(21, 6, "./other"));
  EXPECT_EQ(findSites(Path, true, P, S, Error), SitesLookup::Bad);
  EXPECT_EQ(Error, Path + ":2: the site statistics are of another run: "
                          "their cmd: './other a b' is not the profile's "
                          "'./prog a b'");

  write("massif-sites: 9\n");
  EXPECT_EQ(findSites(Path, true, P, S, Error), SitesLookup::Bad);
  EXPECT_EQ(Error, Path + ":1: site statistics version 9; this ms_print "
                          "reads version 1");
}

} // namespace
