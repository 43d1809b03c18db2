//===- FormatTest.cpp - ms_print's number formats -------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// commify(), the "%05.2f" percentages (the exact fast path is checked
// against the C library on ties and random values), Perl's spelling of
// infinities, the "%5d" label path and the axis labels.
//
//===----------------------------------------------------------------------===//

#include "Graph.h"
#include "PerlFormat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

using namespace msprint;

namespace {

std::string percent(double V) {
  std::string S;
  appendPercent(S, V);
  return S;
}

std::string libcPercent(double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%05.2f", V);
  return Buf;
}

std::string fixed(const PerlNumber &V, int W, int P, bool Zero) {
  std::string S;
  appendFixed(S, V, W, P, Zero);
  return S;
}

PerlNumber num(const char *Text) { return perlNumify(Text).Value; }

} // namespace

TEST(Commify, GroupsTheLeadingDigits) {
  EXPECT_EQ(commify(""), "");
  EXPECT_EQ(commify("0"), "0");
  EXPECT_EQ(commify("999"), "999");
  EXPECT_EQ(commify("1000"), "1,000");
  EXPECT_EQ(commify("1234567"), "1,234,567");
  EXPECT_EQ(commify("18446744073709551615"), "18,446,744,073,709,551,615");
}

TEST(Commify, LeavesEverythingAfterTheDigitsAlone) {
  EXPECT_EQ(commify("12345abc6789"), "12,345abc6789");
  EXPECT_EQ(commify("123456.789"), "123,456.789");
  EXPECT_EQ(commify("-12345"), "-12345"); // No leading digit run.
  EXPECT_EQ(commify(" 12345"), " 12345");
  EXPECT_EQ(commify("1.84467440737096e+19"), "1.84467440737096e+19");
  EXPECT_EQ(commify("0001234"), "0,001,234");
}

TEST(Percent, MatchesTheCLibrary) {
  for (double V : {0.0, 0.004, 0.005, 0.015, 0.125, 0.375, 0.625, 1.0,
                   9.995, 9.9949999, 50.0, 66.665, 99.995, 99.999, 100.0,
                   1.0 / 3, 2.0 / 3, 1e-300, 123456.785})
    EXPECT_EQ(percent(V), libcPercent(V)) << V;
  EXPECT_EQ(percent(100.0), "100.00");
  EXPECT_EQ(percent(9.95), "09.95");
  EXPECT_EQ(percent(0.5), "00.50");
}

TEST(Percent, MatchesTheCLibraryOnRandomRatios) {
  std::mt19937_64 Rng(42);
  for (int I = 0; I < 200000; ++I) {
    uint64_t Total = Rng() % (uint64_t(1) << 40) + 1;
    uint64_t Bytes = Rng() % (Total + 1);
    double V = double(100 * Bytes) / double(Total);
    ASSERT_EQ(percent(V), libcPercent(V)) << Bytes << "/" << Total;
  }
  // Exact ties: multiples of 1/8 have terminating binary expansions.
  for (int K = 0; K <= 800; ++K) {
    double V = K / 8.0 + (K % 3) * 0.001;
    ASSERT_EQ(percent(V), libcPercent(V)) << V;
    ASSERT_EQ(percent(K / 8.0), libcPercent(K / 8.0)) << K;
  }
}

TEST(Percent, SpellsInfinityAndNanLikePerl) {
  double Inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(percent(Inf), "00Inf");
  EXPECT_EQ(percent(-Inf), "0-Inf");
  EXPECT_EQ(percent(std::nan("")), "00NaN");
  EXPECT_EQ(percent(-1.5), "-1.50");
}

TEST(Fixed, PadsAndSpellsInfinityLikePerl) {
  EXPECT_EQ(fixed(num("1.5"), 5, 3, false), "1.500");
  EXPECT_EQ(fixed(num("999.96"), 5, 1, false), "1000.0");
  EXPECT_EQ(fixed(num("inf"), 5, 1, false), "  Inf");
  EXPECT_EQ(fixed(num("-inf"), 5, 3, false), " -Inf");
  EXPECT_EQ(fixed(num("7"), 5, 2, true), "07.00");
}

TEST(Integer, TruncatesDoubles) {
  std::string S;
  appendInteger(S, num("999.9"), 5);
  EXPECT_EQ(S, "  999");
  S.clear();
  appendInteger(S, num("1e20"), 5);
  EXPECT_EQ(S, "   -1"); // Perl's IV cast of a double past UV_MAX.
  S.clear();
  appendInteger(S, num("-inf"), 5);
  EXPECT_EQ(S, " -Inf");
}

TEST(Labels, BytesScaleBy1024) {
  auto Check = [](const char *V, const char *Text, const char *Unit) {
    AxisLabel L = bytesLabel(num(V));
    EXPECT_EQ(L.Text, Text) << V;
    EXPECT_EQ(L.Unit, Unit) << V;
  };
  Check("1", "    1", "B");
  Check("999", "  999", "B");
  Check("1000", "0.977", "KB");
  Check("1024", "1.000", "KB");
  Check("10240", "10.00", "KB");
  Check("102400", "100.0", "KB");
  Check("1023999", "1000.0", "KB");
  Check("1048576", "1.000", "MB");
  Check("1099511627776", "1.000", "TB");
  Check("inf", "  Inf", "YB");
}

TEST(Labels, InstructionsAlsoScaleBy1024) {
  AxisLabel L = instructionsLabel(num("138973"));
  EXPECT_EQ(L.Text, "135.7");
  EXPECT_EQ(L.Unit, "ki");
  L = instructionsLabel(num("500"));
  EXPECT_EQ(L.Text, "  500");
  EXPECT_EQ(L.Unit, "i");
}

TEST(Labels, MillisecondsBecomeSecondsThenHours) {
  AxisLabel L = millisecondsLabel(num("999"));
  EXPECT_EQ(L.Text, "  999");
  EXPECT_EQ(L.Unit, "ms");
  L = millisecondsLabel(num("3599000"));
  EXPECT_EQ(L.Text, "3599.0");
  EXPECT_EQ(L.Unit, "s");
  L = millisecondsLabel(num("5000000000"));
  EXPECT_EQ(L.Text, "1388.9");
  EXPECT_EQ(L.Unit, "h");
}

TEST(RightAligned, NeverTruncates) {
  std::string S;
  appendRightAligned(S, "ab", 4);
  appendRightAligned(S, "abcdef", 4);
  EXPECT_EQ(S, "  ababcdef");
}
