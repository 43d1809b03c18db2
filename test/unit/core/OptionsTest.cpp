//===- OptionsTest.cpp - Parsing Massif's options -------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Every row of Options.def: its default, the ends of its range, and the
// exact error text (Massif's reason as `valgrind --tool=massif` prints it,
// plus what the option accepts), and Valgrind's own %.2f printer.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cstring>

namespace massif {
namespace test {
namespace {

class OptionsTest : public ::testing::Test {
protected:
  /// Parses Arg into O; returns the error text ("" when accepted).
  std::string parse(const char *Arg) {
    OptionError E;
    ParseResult R = parseOption(O, Arg, Memory.get(), E);
    if (R == ParseResult::Error)
      return E.Text;
    EXPECT_EQ(R, ParseResult::Ok) << Arg;
    return "";
  }
  CountingAllocator Memory;
  Options O;
};

TEST_F(OptionsTest, DefaultsAreMassifs) {
  EXPECT_TRUE(O.Heap);
  EXPECT_EQ(O.HeapAdminB, 8);
  EXPECT_FALSE(O.Stacks);
  EXPECT_FALSE(O.PagesAsHeap);
  EXPECT_EQ(O.Depth, 30);
  EXPECT_EQ(O.AllocFns.Count, 0u);
  EXPECT_EQ(O.IgnoreFns.Count, 0u);
  EXPECT_EQ(O.Threshold, 1.0);
  EXPECT_EQ(O.PeakInaccuracy, 1.0);
  EXPECT_EQ(O.TimeUnit, TimeUnit::Instructions);
  EXPECT_EQ(O.DetailedFreq, 10);
  EXPECT_EQ(O.MaxSnapshots, 100);
  EXPECT_STREQ(O.OutFile, "massif.out.%p");
  EXPECT_EQ(O.AlignmentB, 16);
  EXPECT_EQ(O.Given.Count, 0u);
}

TEST_F(OptionsTest, Booleans) {
  for (const char *Name : {"heap", "stacks", "pages-as-heap"}) {
    std::string Yes = std::string("--") + Name + "=yes";
    std::string No = std::string("--") + Name + "=no";
    EXPECT_EQ(parse(Yes.c_str()), "");
    EXPECT_EQ(parse(No.c_str()), "");
  }
  EXPECT_FALSE(O.Heap);
  EXPECT_EQ(parse("--stacks=yes"), "");
  EXPECT_TRUE(O.Stacks);
  EXPECT_EQ(parse("--heap=maybe"),
            "Bad option: --heap=maybe\n"
            "Invalid boolean value 'maybe' (should be 'yes' or 'no')");
  EXPECT_EQ(parse("--stacks=1"),
            "Bad option: --stacks=1\n"
            "Invalid boolean value '1' (should be 'yes' or 'no')");
  EXPECT_EQ(parse("--heap="),
            "Bad option: --heap=\n"
            "Invalid boolean value '' (should be 'yes' or 'no')");
  EXPECT_EQ(parse("--pages-as-heap=YES"),
            "Bad option: --pages-as-heap=YES\n"
            "Invalid boolean value 'YES' (should be 'yes' or 'no')");
  EXPECT_TRUE(O.Stacks); // a rejected value changes nothing
}

struct IntRow {
  const char *Name;
  int64_t Min, Max;
  int64_t Options::*Field;
};

TEST_F(OptionsTest, IntegersAcceptTheirRangeEnds) {
  for (IntRow R : {IntRow{"heap-admin", 0, 1024, &Options::HeapAdminB},
                   IntRow{"depth", 1, 200, &Options::Depth},
                   IntRow{"detailed-freq", 1, 1000000, &Options::DetailedFreq},
                   IntRow{"max-snapshots", 10, 1000, &Options::MaxSnapshots}}) {
    for (int64_t V : {R.Min, R.Max}) {
      std::string Arg = "--" + std::string(R.Name) + "=" + std::to_string(V);
      EXPECT_EQ(parse(Arg.c_str()), "");
      EXPECT_EQ(O.*R.Field, V) << Arg;
    }
    for (int64_t V : {R.Min - 1, R.Max + 1}) {
      std::string Arg = "--" + std::string(R.Name) + "=" + std::to_string(V);
      EXPECT_EQ(parse(Arg.c_str()), "Bad option: " + Arg + "\n'--" + R.Name +
                                        "' argument must be between " +
                                        std::to_string(R.Min) + " and " +
                                        std::to_string(R.Max));
      EXPECT_EQ(O.*R.Field, R.Max) << "rejected " << Arg;
    }
  }
}

TEST_F(OptionsTest, IntegersFollowValgrindsDecimalParser) {
  EXPECT_EQ(parse("--depth= 5"), ""); // leading blanks are skipped
  EXPECT_EQ(O.Depth, 5);
  EXPECT_EQ(parse("--depth=+7"), "");
  EXPECT_EQ(O.Depth, 7);
  EXPECT_EQ(parse("--depth=abc"),
            "Bad option: --depth=abc\nInvalid integer value 'abc'\n--depth "
            "accepts an integer from 1 to 200");
  EXPECT_EQ(parse("--max-snapshots=0x10"),
            "Bad option: --max-snapshots=0x10\nInvalid integer value '0x10'\n"
            "--max-snapshots accepts an integer from 10 to 1000");
  EXPECT_EQ(parse("--depth=+5x"),
            "Bad option: --depth=+5x\nInvalid integer value '+5x'\n--depth "
            "accepts an integer from 1 to 200");
  EXPECT_EQ(parse("--depth=-"),
            "Bad option: --depth=-\nInvalid integer value '-'\n--depth "
            "accepts an integer from 1 to 200");
  // An empty value is 0, then range-checked.
  EXPECT_EQ(parse("--depth="),
            "Bad option: --depth=\n'--depth' argument must be between 1 and "
            "200");
  EXPECT_EQ(parse("--heap-admin="), "");
  EXPECT_EQ(O.HeapAdminB, 0);
  EXPECT_EQ(parse("--depth=-3"),
            "Bad option: --depth=-3\n'--depth' argument must be between 1 "
            "and 200");
  EXPECT_EQ(O.Depth, 7);
}

TEST_F(OptionsTest, Alignment) {
  for (int64_t V : {16, 32, 64, 128, 256, 512, 1024, 2048, 4096}) {
    std::string Arg = "--alignment=" + std::to_string(V);
    EXPECT_EQ(parse(Arg.c_str()), "");
    EXPECT_EQ(O.AlignmentB, V);
  }
  for (const char *Arg : {"--alignment=8", "--alignment=24", "--alignment=8192",
                          "--alignment=", "--alignment=0"})
    EXPECT_EQ(parse(Arg), std::string("Bad option: ") + Arg +
                              "\nAlignment must be a power of 2 in the range "
                              "16..4096.");
  EXPECT_EQ(parse("--alignment=abc"),
            "Bad option: --alignment=abc\nInvalid integer value 'abc'\n"
            "--alignment accepts a power of 2 from 16 to 4096");
  EXPECT_EQ(O.AlignmentB, 4096);
}

TEST_F(OptionsTest, Threshold) {
  EXPECT_EQ(parse("--threshold=0"), "");
  EXPECT_EQ(O.Threshold, 0.0);
  EXPECT_EQ(parse("--threshold=100"), "");
  EXPECT_EQ(O.Threshold, 100.0);
  EXPECT_EQ(parse("--threshold=100.0"), "");
  EXPECT_EQ(parse("--threshold=2.5"), "");
  EXPECT_EQ(O.Threshold, 2.5);
  EXPECT_EQ(parse("--threshold= 5"), "");
  EXPECT_EQ(O.Threshold, 5.0);
  EXPECT_EQ(parse("--threshold="), ""); // accepted as 0
  EXPECT_EQ(O.Threshold, 0.0);
  EXPECT_EQ(parse("--threshold=.5"), "");
  EXPECT_EQ(O.Threshold, 0.5);
  EXPECT_EQ(parse("--threshold=101"),
            "Bad option: --threshold=101\n--threshold must be between 0.0 and "
            "100.0");
  EXPECT_EQ(parse("--threshold=100.001"),
            "Bad option: --threshold=100.001\n--threshold must be between 0.0 "
            "and 100.0");
  EXPECT_EQ(parse("--threshold=-1"),
            "Bad option: --threshold=-1\n--threshold must be between 0.0 and "
            "100.0");
  EXPECT_EQ(parse("--threshold=1e2"),
            "Bad option: --threshold=1e2\nInvalid floating point value '1e2'\n"
            "--threshold accepts a decimal number from 0.0 to 100.0 (digits "
            "with an optional fraction, no exponent)");
  EXPECT_EQ(parse("--threshold=abc"),
            "Bad option: --threshold=abc\nInvalid floating point value 'abc'\n"
            "--threshold accepts a decimal number from 0.0 to 100.0 (digits "
            "with an optional fraction, no exponent)");
  EXPECT_EQ(O.Threshold, 0.5);
}

TEST_F(OptionsTest, ValgrindsDecimalParserAccumulatesFractionDigits) {
  // Digits after the point are weighted 0.1, 0.01, ... by repeated
  // division, so 0.375 is not the closest double to 0.375.
  EXPECT_EQ(parse("--threshold=0.375"), "");
  double X = 0.1, Frac = 0;
  for (int D : {3, 7, 5}) {
    Frac += X * D;
    X /= 10;
  }
  EXPECT_EQ(O.Threshold, Frac);
  EXPECT_NE(O.Threshold, 0.375);
}

TEST_F(OptionsTest, PeakInaccuracyHasNoRange) {
  EXPECT_EQ(parse("--peak-inaccuracy=0"), "");
  EXPECT_EQ(O.PeakInaccuracy, 0.0);
  EXPECT_EQ(parse("--peak-inaccuracy=250"), "");
  EXPECT_EQ(O.PeakInaccuracy, 250.0);
  EXPECT_EQ(parse("--peak-inaccuracy=-50"), "");
  EXPECT_EQ(O.PeakInaccuracy, -50.0);
  EXPECT_EQ(parse("--peak-inaccuracy=-5x"),
            "Bad option: --peak-inaccuracy=-5x\nInvalid floating point value "
            "'-5x'\n--peak-inaccuracy accepts a decimal number (digits with an "
            "optional fraction, no exponent)");
}

TEST_F(OptionsTest, TimeUnit) {
  EXPECT_EQ(parse("--time-unit=B"), "");
  EXPECT_EQ(O.TimeUnit, TimeUnit::Bytes);
  EXPECT_EQ(parse("--time-unit=ms"), "");
  EXPECT_EQ(O.TimeUnit, TimeUnit::Milliseconds);
  EXPECT_EQ(parse("--time-unit=i"), "");
  EXPECT_EQ(O.TimeUnit, TimeUnit::Instructions);
  for (const char *Bad :
       {"--time-unit=X", "--time-unit=b", "--time-unit=s", "--time-unit="})
    // Massif matches the values as options of their own: anything else is
    // an unknown option to it.
    EXPECT_EQ(parse(Bad), std::string("Unknown option: ") + Bad +
                              "\n--time-unit accepts i, ms or B");
}

TEST_F(OptionsTest, StringsAndLists) {
  EXPECT_EQ(parse("--massif-out-file=out.%p"), "");
  EXPECT_STREQ(O.OutFile, "out.%p");
  EXPECT_EQ(parse("--massif-out-file="), ""); // diagnosed when written
  EXPECT_STREQ(O.OutFile, "");
  EXPECT_EQ(parse("--alloc-fn=my_malloc"), "");
  EXPECT_EQ(parse("--alloc-fn="), "");
  EXPECT_EQ(parse("--alloc-fn=operator new(unsigned long)"), "");
  EXPECT_EQ(parse("--ignore-fn=call_init"), "");
  ASSERT_EQ(O.AllocFns.Count, 3u);
  EXPECT_STREQ(O.AllocFns.Items[0], "my_malloc");
  EXPECT_STREQ(O.AllocFns.Items[1], "");
  EXPECT_STREQ(O.AllocFns.Items[2], "operator new(unsigned long)");
  ASSERT_EQ(O.IgnoreFns.Count, 1u);
  EXPECT_STREQ(O.IgnoreFns.Items[0], "call_init");
}

TEST_F(OptionsTest, ListsGrowPastTheirFirstBlock) {
  for (int I = 0; I < 100; ++I) {
    std::string Arg = "--alloc-fn=f" + std::to_string(I);
    EXPECT_EQ(parse(Arg.c_str()), "");
  }
  ASSERT_EQ(O.AllocFns.Count, 100u);
  EXPECT_STREQ(O.AllocFns.Items[99], "f99");
  EXPECT_EQ(O.Given.Count, 100u);
}

TEST_F(OptionsTest, GivenRecordsAcceptedArgumentsVerbatim) {
  char Arg[] = "--depth=12";
  EXPECT_EQ(parse(Arg), "");
  Arg[8] = '9'; // the option keeps its own copy
  EXPECT_NE(parse("--depth=0"), "");
  EXPECT_EQ(parse("--alloc-fn=a b"), "");
  ASSERT_EQ(O.Given.Count, 2u);
  EXPECT_STREQ(O.Given.Items[0], "--depth=12");
  EXPECT_STREQ(O.Given.Items[1], "--alloc-fn=a b");
}

TEST_F(OptionsTest, UnknownOptionsAndHelp) {
  EXPECT_EQ(parse("--nonsense=1"), "Unknown option: --nonsense=1");
  EXPECT_EQ(parse("--heap"), "Unknown option: --heap");
  EXPECT_EQ(parse("--depthx=3"), "Unknown option: --depthx=3");
  EXPECT_EQ(parse("-x"), "Unknown option: -x");
  OptionError E;
  EXPECT_EQ(parseOption(O, "--help", Memory.get(), E), ParseResult::Help);
  EXPECT_EQ(parseOption(O, "-h", Memory.get(), E), ParseResult::Help);
  EXPECT_EQ(O.Given.Count, 0u);
}

TEST_F(OptionsTest, CoreOptionsOfValgrind) {
  // -v and -q count as Valgrind's verbosity does; none is in desc:.
  EXPECT_EQ(O.Verbosity, 1);
  EXPECT_EQ(parse("-v"), "");
  EXPECT_EQ(parse("--verbose"), "");
  EXPECT_EQ(parse("-q"), "");
  EXPECT_EQ(O.Verbosity, 2);
  EXPECT_EQ(parse("--log-file=log.%p"), "");
  EXPECT_STREQ(O.LogFile, "log.%p");
  EXPECT_EQ(parse("--trace-children=yes"), "");
  EXPECT_TRUE(O.TraceChildren);
  EXPECT_EQ(parse("--trace-children-skip=*/ls,/bin/*"), "");
  EXPECT_STREQ(O.TraceChildrenSkip, "*/ls,/bin/*");
  EXPECT_EQ(parse("--show-below-main=yes"), "");
  EXPECT_TRUE(O.ShowBelowMain);
  EXPECT_EQ(parse("--read-inline-info=no"), "");
  EXPECT_FALSE(O.ReadInlineInfo);
  EXPECT_EQ(parse("--child-silent-after-fork=yes"), "");
  EXPECT_TRUE(O.ChildSilentAfterFork);
  EXPECT_EQ(parse("--tool=massif"), "");
  EXPECT_EQ(parse("--tool=memcheck"),
            "--tool=memcheck: msrun runs Massif only (--tool=massif)");
  EXPECT_EQ(parse("--show-below-main=1"),
            "Bad option: --show-below-main=1\nInvalid boolean value '1' "
            "(should be 'yes' or 'no')");
  EXPECT_EQ(O.Given.Count, 0u);

  // The native engine refuses what it cannot do, by name.
  OptionError E;
  EXPECT_TRUE(nativeTakesOptions(O, E));
  EXPECT_EQ(parse("--main-stacksize=8388608"), "");
  EXPECT_FALSE(nativeTakesOptions(O, E));
  EXPECT_NE(strstr(E.Text, "--main-stacksize is not taken by the native "
                           "engine: natively the main thread's stack is the "
                           "kernel's"),
            nullptr)
      << E.Text;

  // msrun's own words.
  EXPECT_EQ(parse("--msrun-pid=1234"), "");
  EXPECT_EQ(O.MsrunPid, 1234);
  EXPECT_EQ(parse("--msrun-pid=-1"), "");
  EXPECT_EQ(O.MsrunPid, -1);
  EXPECT_EQ(parse("--msrun-path=/x/msrun"), "");
  EXPECT_STREQ(O.MsrunPath, "/x/msrun");
  EXPECT_EQ(O.Given.Count, 0u);
}

TEST_F(OptionsTest, OptionStringSplitsOnBlanksWithBackslashEscapes) {
  OptionError E;
  ASSERT_EQ(parseOptionString(O,
                              "  --depth=3\t--alloc-fn=operator\\ new(unsigned"
                              "\\ long) --massif-out-file=a\\\\b\n",
                              Memory.get(), E),
            ParseResult::Ok)
      << E.Text;
  EXPECT_EQ(O.Depth, 3);
  ASSERT_EQ(O.AllocFns.Count, 1u);
  EXPECT_STREQ(O.AllocFns.Items[0], "operator new(unsigned long)");
  EXPECT_STREQ(O.OutFile, "a\\b");
  EXPECT_EQ(O.Given.Count, 3u);

  EXPECT_EQ(
      parseOptionString(O, "--heap=no --depth=0 --stacks=yes", Memory.get(), E),
      ParseResult::Error);
  EXPECT_STREQ(E.Text, "Bad option: --depth=0\n'--depth' argument must be "
                       "between 1 and 200");
  EXPECT_FALSE(O.Heap);   // applied before the error
  EXPECT_FALSE(O.Stacks); // not reached
  EXPECT_EQ(parseOptionString(O, "--depth=4 --help", Memory.get(), E),
            ParseResult::Help);
  EXPECT_EQ(parseOptionString(O, "", Memory.get(), E), ParseResult::Ok);
}

TEST(ValgrindFixed2, RoundsLikeValgrindsPrintf) {
  // The spec's examples are values read by Valgrind's own decimal parser
  // (here through --peak-inaccuracy, which has no range) and printed by
  // its own %.2f; C's printf would give 0.62, 0.03 and 2.67 for three.
  CountingAllocator Memory;
  struct {
    const char *In, *Text;
  } Cases[] = {{"0.625", "0.63"}, {"0.045", "0.04"}, {"1.005", "1.00"},
               {"0.015", "0.01"}, {"0.025", "0.02"}, {"2.675", "2.68"},
               {"0.125", "0.12"}, {"0.875", "0.88"}, {"0.375", "0.38"},
               {"0.005", "0.00"}, {"0.99", "0.99"},  {"1", "1.00"},
               {"10", "10.00"},   {"30.0", "30.00"}, {"100", "100.00"},
               {"0", "0.00"},     {"0.999", "1.00"}, {"12.5", "12.50"}};
  for (const auto &C : Cases) {
    Options O;
    OptionError E;
    std::string Arg = std::string("--peak-inaccuracy=") + C.In;
    ASSERT_EQ(parseOption(O, Arg.c_str(), Memory.get(), E), ParseResult::Ok);
    char Buf[32];
    size_t N = formatValgrindFixed2(O.PeakInaccuracy, Buf);
    EXPECT_STREQ(Buf, C.Text) << C.In;
    EXPECT_EQ(N, strlen(C.Text));
  }
}

TEST(ValgrindFixed2, RoundsUpOnlyAboveAHalf) {
  char Buf[32];
  formatValgrindFixed2(0.125, Buf); // exactly 12.5 hundredths
  EXPECT_STREQ(Buf, "0.12");
  formatValgrindFixed2(0.126, Buf);
  EXPECT_STREQ(Buf, "0.13");
  formatValgrindFixed2(0.995, Buf); // 99.4999... hundredths
  EXPECT_STREQ(Buf, "0.99");
  formatValgrindFixed2(9.9999, Buf); // rounds into the integer part
  EXPECT_STREQ(Buf, "10.00");
}

TEST(ValgrindFixed2, PrintsThresholdsAsParsed) {
  // The aggregate lines print the parsed threshold: --threshold=0.625
  // gives (0.63%), --threshold=0.025 gives (0.02%).
  CountingAllocator Memory;
  for (auto [Arg, Text] : {std::pair{"--threshold=0.625", "0.63"},
                           std::pair{"--threshold=0.025", "0.02"},
                           std::pair{"--threshold=0.99", "0.99"}}) {
    Options O;
    OptionError E;
    ASSERT_EQ(parseOption(O, Arg, Memory.get(), E), ParseResult::Ok);
    char Buf[32];
    formatValgrindFixed2(O.Threshold, Buf);
    EXPECT_STREQ(Buf, Text) << Arg;
  }
}

TEST(Help, ListsEveryOptionWithItsDefault) {
  StringSink Out;
  writeHelp(Out.get());
  const std::string &H = Out.Text;
  EXPECT_NE(H.find("    --heap=no|yes             profile heap blocks [yes]\n"),
            std::string::npos)
      << H;
  EXPECT_NE(H.find("    --depth=<number>          depth of contexts [30]\n"),
            std::string::npos);
  EXPECT_NE(H.find("    --threshold=<m.n>         significance threshold, as "
                   "a percentage [1.0]\n"),
            std::string::npos);
  EXPECT_NE(H.find("    --time-unit=i|ms|B        time unit: instructions "
                   "executed, milliseconds\n"),
            std::string::npos);
  EXPECT_NE(H.find("    --massif-out-file=<file>  output file name "
                   "[massif.out.%p]\n"),
            std::string::npos);
  EXPECT_NE(H.find("    --alloc-fn=<name>         specify <name> as an alloc "
                   "function [empty]\n"),
            std::string::npos);
  for (const char *Name :
       {"--heap=", "--heap-admin=", "--stacks=", "--pages-as-heap=", "--depth=",
        "--alloc-fn=", "--ignore-fn=", "--threshold=", "--peak-inaccuracy=",
        "--time-unit=", "--detailed-freq=", "--max-snapshots=",
        "--massif-out-file=", "--alignment="})
    EXPECT_NE(H.find(std::string("    ") + Name), std::string::npos) << Name;
  for (const std::string &L : lines(H))
    EXPECT_LE(L.size(), 79u) << L;
}

} // namespace
} // namespace test
} // namespace massif
