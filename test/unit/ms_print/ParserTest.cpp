//===- ParserTest.cpp - Reading lines, tree lines, messages, options ------===//
//
// Part of massif-native, under the MIT licence.
//
// The pieces of ms_print's reader that decide what a malformed file gets:
// comment stripping and blank-line skipping with Perl's line count, the
// tree-line pattern, the escaping of non-numeric arguments in warnings,
// and the command line (errors end the process, so they are death tests).
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"
#include "InputFile.h"
#include "Options.h"
#include "ProfileReader.h"

#include <gtest/gtest.h>

using namespace msprint;

namespace {

std::vector<std::string> readAll(std::string_view Text,
                                 uint64_t *LastLine = nullptr,
                                 bool *LastHasNewline = nullptr) {
  LineReader R(Text.data(), Text.data() + Text.size());
  std::vector<std::string> Lines;
  Line L;
  while (R.next(L)) {
    Lines.emplace_back(L.Text);
    if (LastHasNewline)
      *LastHasNewline = L.HasNewline;
  }
  if (LastLine)
    *LastLine = R.lineNumber();
  return Lines;
}

struct TreeLine {
  bool Ok;
  std::string Children, Bytes, Details;
};

TreeLine tree(std::string_view Text) {
  std::string_view C, B, D;
  bool Ok = parseTreeLine(Text, C, B, D);
  return {Ok, std::string(C), std::string(B), std::string(D)};
}

} // namespace

TEST(LineReader, StripsCommentsAndSkipsBlankLines) {
  uint64_t Last = 0;
  auto Lines = readAll("#---\nsnapshot=1\n\n  \t\n cmd: a#b\n# only\nx", &Last);
  ASSERT_EQ(Lines.size(), 3u);
  EXPECT_EQ(Lines[0], "snapshot=1");
  EXPECT_EQ(Lines[1], " cmd: a");
  EXPECT_EQ(Lines[2], "x");
  EXPECT_EQ(Last, 7u);
}

TEST(LineReader, KeepsCarriageReturnsAndReportsTheMissingNewline) {
  bool HasNewline = true;
  auto Lines = readAll("a\r\nb", nullptr, &HasNewline);
  ASSERT_EQ(Lines.size(), 2u);
  EXPECT_EQ(Lines[0], "a\r");
  EXPECT_FALSE(HasNewline);
}

TEST(LineReader, CountsLinesUpToTheEnd) {
  uint64_t Last = 0;
  EXPECT_TRUE(readAll("", &Last).empty());
  EXPECT_EQ(Last, 0u);
  EXPECT_TRUE(readAll("\n\n#\n", &Last).empty());
  EXPECT_EQ(Last, 3u);
}

TEST(TreeLine, MatchesPerlsPattern) {
  TreeLine T = tree(" n2: 300 0x1: f (a.c:1)");
  EXPECT_TRUE(T.Ok);
  EXPECT_EQ(T.Children, "2");
  EXPECT_EQ(T.Bytes, "300");
  EXPECT_EQ(T.Details, " 0x1: f (a.c:1)");
  T = tree("\tn0:12abc");
  EXPECT_TRUE(T.Ok);
  EXPECT_EQ(T.Bytes, "12");
  EXPECT_EQ(T.Details, "abc");
  T = tree("n007:   0");
  EXPECT_TRUE(T.Ok);
  EXPECT_EQ(T.Children, "007");
  EXPECT_EQ(T.Details, "");
}

TEST(TreeLine, RejectsNearMisses) {
  for (const char *Bad : {"n:5 x", "nx: 5", "n1 5", "n1:", "n1: x5",
                          "m1: 5", "x n1: 5", "n-1: 5", "n1: -5"})
    EXPECT_FALSE(tree(Bad).Ok) << Bad;
}

TEST(Snapshot, TotalsWithPerlsArithmetic) {
  Diagnostics Quiet;
  Quiet.setSilent(true);
  SnapshotFields F;
  F.Heap = "10";
  F.Extra = "2";
  F.Stacks = "1.5";
  EXPECT_EQ(snapshotTotal(F, Quiet).toString(), "13.5");
  F.Heap = "18446744073709551615";
  F.Extra = "1";
  F.Stacks = "0";
  EXPECT_EQ(snapshotTotal(F, Quiet).toString(), "1.84467440737096e+19");
  F.Heap = "0x10";
  F.Extra = " 7 ";
  F.Stacks = "1e3";
  EXPECT_EQ(snapshotTotal(F, Quiet).toString(), "1007");
}

TEST(Diagnostics, EscapesArgumentsLikePerl) {
  EXPECT_EQ(Diagnostics::displayArgument("abc"), "abc");
  EXPECT_EQ(Diagnostics::displayArgument(std::string_view("a\x01\x7f\t\\\0"
                                                          "\n\r\f", 9)),
            "a^A^?^I\\\\\\0\\n\\r\\f");
  EXPECT_EQ(Diagnostics::displayArgument("\x80\x9f"), "M-\\0M-^_");
  EXPECT_EQ(Diagnostics::displayArgument(std::string(60, 'a')),
            std::string(56, 'a') + "...");
  std::string Controls;
  for (int I = 0; I < 28; ++I)
    Controls += "^A";
  EXPECT_EQ(Diagnostics::displayArgument(std::string(30, '\x01')),
            Controls + "...");
}

TEST(Diagnostics, DieStatusIsErrnoOr255) {
  EXPECT_EQ(Diagnostics::dieStatus(0), 255);
  EXPECT_EQ(Diagnostics::dieStatus(2), 2);
  EXPECT_EQ(Diagnostics::dieStatus(25), 25);
  EXPECT_EQ(Diagnostics::dieStatus(256), 255);
}

TEST(Options, ParsesValuesAndKeepsTheArguments) {
  Diagnostics Diag;
  Options O = parseOptions({"--threshold=5%", "--x=0072", "--y=4", "f.out",
                            "ignored.out"},
                           Diag);
  EXPECT_EQ(O.ThresholdText, "5");
  EXPECT_EQ(O.GraphX, 72);
  EXPECT_EQ(O.GraphY, 4);
  EXPECT_EQ(O.InputFile, "f.out");
  EXPECT_EQ(O.ArgsText, " --threshold=5% --x=0072 --y=4 f.out ignored.out");
  O = parseOptions({"--x=1000\n", "g"}, Diag); // '$' allows a final \n.
  EXPECT_EQ(O.GraphX, 1000);
}

TEST(OptionsDeathTest, UsageAndVersionGoToStderrWithStatus255) {
  Diagnostics Diag;
  EXPECT_EXIT(parseOptions({"--version"}, Diag), testing::ExitedWithCode(255),
              "^ms_print-3.19.0\n$");
  for (auto Args : std::vector<std::vector<std::string>>{
           {"-h"}, {"--help"}, {"--x=3", "f"}, {"--y=1001", "f"},
           {"--x=-5", "f"}, {"--threshold=101", "f"}, {"--threshold=abc"},
           {"--bogus", "f"}, {}})
    EXPECT_EXIT(parseOptions(Args, Diag), testing::ExitedWithCode(255),
                "usage: ms_print \\[options\\] massif-out-file");
}

TEST(OptionsDeathTest, MalformedThresholdWarnsTwice) {
  Diagnostics Diag;
  EXPECT_EXIT(
      {
        parseOptions({"--threshold=1.2.3", "f"}, Diag);
        std::_Exit(0);
      },
      testing::ExitedWithCode(0),
      "Argument \"1.2.3\" isn't numeric in numeric ge \\(>=\\) at "
      "/usr/bin/ms_print line 119.\nArgument \"1.2.3\" isn't numeric in "
      "numeric le \\(<=\\) at /usr/bin/ms_print line 119.\n");
}
