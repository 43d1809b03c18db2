//===- OutFileTest.cpp - Output file names and the file sink --------------===//
//
// Part of massif-native, under the MIT licence.
//
// Expected error texts are Valgrind 3.19's, as printed by
// `valgrind --tool=massif --massif-out-file=<bad>` (without the ==PID==
// prefix).
//
//===----------------------------------------------------------------------===//

#include "OutFile.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string>
#include <unistd.h>

using namespace massif;

namespace {

const char *fakeEnv(const char *Name) {
  if (std::string(Name) == "HOME")
    return "/home/someone";
  if (std::string(Name) == "EMPTY")
    return "";
  if (std::string(Name) == "PERCENT")
    return "a%pb";
  return nullptr;
}

struct Expansion {
  bool Ok;
  std::string Text; // the name, or the reason
};

Expansion expand(const char *Pattern, const char *Cwd = nullptr,
                 uint32_t *Seq = nullptr) {
  uint32_t LocalSeq = 0;
  NameContext C = {4242, Cwd, Seq ? Seq : &LocalSeq, fakeEnv};
  char Out[256], Reason[512];
  bool Ok = expandFileName(Pattern, C, Out, sizeof(Out), Reason,
                           sizeof(Reason));
  return {Ok, Ok ? Out : Reason};
}

TEST(OutFileTest, ExpandsPidPercentAndEnvironment) {
  EXPECT_EQ(expand("/t/massif.out.%p").Text, "/t/massif.out.4242");
  EXPECT_EQ(expand("/t/a%%b").Text, "/t/a%b");
  EXPECT_EQ(expand("/t/%q{HOME}/x").Text, "/t//home/someone/x");
  EXPECT_EQ(expand("/t/[%q{EMPTY}]").Text, "/t/[]");
  EXPECT_EQ(expand("/p%p.%p").Text, "/p4242.4242");
}

TEST(OutFileTest, SequenceNumberCountsEveryUse) {
  uint32_t Seq = 0;
  EXPECT_EQ(expand("/m.%n", nullptr, &Seq).Text, "/m.1");
  EXPECT_EQ(expand("/x.%n.%n", nullptr, &Seq).Text, "/x.2.3");
  EXPECT_EQ(Seq, 3u);
}

TEST(OutFileTest, RelativeNamesResolveAgainstStartDirectory) {
  EXPECT_EQ(expand("massif.out", "/start/dir").Text, "/start/dir/massif.out");
  EXPECT_EQ(expand("/abs/out", "/start/dir").Text, "/abs/out");
  EXPECT_EQ(expand("rel", nullptr).Text, "rel");
}

TEST(OutFileTest, BadNamesGiveMassifsReasons) {
  Expansion E = expand("");
  EXPECT_FALSE(E.Ok);
  EXPECT_EQ(E.Text, "No filename given");
  E = expand("a%z");
  EXPECT_FALSE(E.Ok);
  EXPECT_EQ(E.Text, "Expected 'p' or 'q' or '%' after '%'");
  E = expand("a%");
  EXPECT_FALSE(E.Ok);
  EXPECT_EQ(E.Text, "Expected 'p' or 'q' or '%' after '%'");
  E = expand("a%qx");
  EXPECT_FALSE(E.Ok);
  EXPECT_EQ(E.Text, "Expected '{' after '%q'");
  E = expand("a%q{HOME");
  EXPECT_FALSE(E.Ok);
  EXPECT_EQ(E.Text, "Missing '}' in %q specifier");
  E = expand("a%q{NOPE_X}");
  EXPECT_FALSE(E.Ok);
  EXPECT_EQ(E.Text, "Environment variable 'NOPE_X' is not set");
  E = expand("~/x");
  EXPECT_FALSE(E.Ok);
  EXPECT_EQ(E.Text,
            "Filename begins with '~'\n"
            "You probably expected the shell to expand the '~', but it\n"
            "didn't.  The rules for '~'-expansion vary from shell to shell.\n"
            "You might have more luck using $HOME instead.");
}

// Checked against Valgrind 3.19: `--massif-out-file=m.%q{}` and
// PCT='a%pb' with `--massif-out-file=m.%q{PCT}` (which writes m.a%pb).
TEST(OutFileTest, VariableValuesAreNotExpandedAgain) {
  EXPECT_EQ(expand("/m.%q{PERCENT}").Text, "/m.a%pb");
  Expansion E = expand("/m.%q{}");
  EXPECT_FALSE(E.Ok);
  EXPECT_EQ(E.Text, "Environment variable '' is not set");
}

TEST(OutFileTest, FirstErrorWinsAndNothingIsCountedAfterIt) {
  uint32_t Seq = 0;
  Expansion E = expand("/m.%n.%z.%n", nullptr, &Seq);
  EXPECT_FALSE(E.Ok);
  EXPECT_EQ(E.Text, "Expected 'p' or 'q' or '%' after '%'");
  EXPECT_EQ(Seq, 1u);
}

TEST(OutFileTest, TooLongNameIsRefused) {
  std::string Long = "/" + std::string(300, 'x');
  Expansion E = expand(Long.c_str());
  EXPECT_FALSE(E.Ok);
}

std::string readAll(int Fd) {
  std::string S;
  char Buf[4096];
  lseek(Fd, 0, SEEK_SET);
  ssize_t N;
  while ((N = read(Fd, Buf, sizeof(Buf))) > 0)
    S.append(Buf, (size_t)N);
  return S;
}

TEST(OutFileTest, SinkBuffersAndWritesEverythingInOrder) {
  FILE *Tmp = tmpfile();
  ASSERT_NE(Tmp, nullptr);
  int Fd = fileno(Tmp);
  char Buf[16];
  FdSink Out(Fd, Buf, sizeof(Buf));
  Sink S = Out.sink();
  std::string Expected;
  for (int I = 0; I < 100; ++I) {
    std::string Piece = "line " + std::to_string(I) + "\n";
    ASSERT_TRUE(S.Write(S.Ctx, Piece.data(), Piece.size()));
    Expected += Piece;
  }
  std::string Big(1000, 'z'); // larger than the buffer: written through
  ASSERT_TRUE(S.Write(S.Ctx, Big.data(), Big.size()));
  Expected += Big;
  ASSERT_TRUE(Out.flush());
  EXPECT_EQ(readAll(Fd), Expected);
  fclose(Tmp);
}

TEST(OutFileTest, WriteLineJoinsItsParts) {
  FILE *Tmp = tmpfile();
  ASSERT_NE(Tmp, nullptr);
  int Fd = fileno(Tmp);
  const char *Parts[] = {"massif: ", "a", "", "b"};
  writeLine(Fd, Parts, 4);
  std::string Long(3000, 'y'); // longer than the line buffer
  const char *LongParts[] = {"x", Long.c_str()};
  writeLine(Fd, LongParts, 2);
  EXPECT_EQ(readAll(Fd), "massif: ab\nx" + Long + "\n");
  fclose(Tmp);
}

TEST(OutFileTest, WriteLinesPrefixesEveryLine) {
  FILE *Tmp = tmpfile();
  ASSERT_NE(Tmp, nullptr);
  int Fd = fileno(Tmp);
  std::string Long(2000, 'w'); // longer than the line buffer: not cut
  writeLines(Fd, "massif: ", ("one\n\n" + Long + "\nlast").c_str());
  EXPECT_EQ(readAll(Fd),
            "massif: one\nmassif: \nmassif: " + Long + "\nmassif: last\n");
  fclose(Tmp);
}

TEST(OutFileTest, SinkReportsTheWriteError) {
  int Fd = open("/dev/null", O_RDONLY); // writes fail with EBADF
  ASSERT_GE(Fd, 0);
  char Buf[8];
  FdSink Out(Fd, Buf, sizeof(Buf));
  Sink S = Out.sink();
  S.Write(S.Ctx, "0123456789abcdef", 16);
  EXPECT_FALSE(Out.flush());
  EXPECT_EQ(Out.error(), EBADF);
  close(Fd);
}

} // namespace
