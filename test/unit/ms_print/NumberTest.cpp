//===- NumberTest.cpp - Perl's scalar arithmetic --------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// What Perl 5.36 does with the strings a massif.out file can contain:
// which look like numbers, what they are worth, whether they stay exact
// integers in arithmetic, and how results print. Expected values were
// taken from perl itself.
//
//===----------------------------------------------------------------------===//

#include "PerlNumber.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace msprint;

namespace {

PerlNumber num(std::string_view Text) { return perlNumify(Text).Value; }
bool numeric(std::string_view Text) {
  return perlNumify(Text).LooksLikeNumber;
}
/// The string "0 + Text" prints as in Perl.
std::string plusZero(std::string_view Text) {
  return perlAdd(PerlNumber::integer(0), num(Text)).toString();
}

} // namespace

TEST(Numify, LooksLikeNumber) {
  for (const char *Yes : {"12", "12 ", " 12", "+12", "-12", "-0", "1.0",
                          "1.5", "1e3", ".5", "5.", "1E5", "\t5\r",
                          "\v5", "inf", "Inf", "infinity", "nan", "nanq",
                          "nan(123)", "1.#INF", "1.#IND", "-inf",
                          "0 but true", "18446744073709551616"})
    EXPECT_TRUE(numeric(Yes)) << Yes;
  for (const char *No : {"12abc", "", "abc", "infx", "Info", "NaN123",
                         "0 but true ", "0x10", "1_000", ".", "-", ".e1",
                         "1e", "\xa0" "5", "  "})
    EXPECT_FALSE(numeric(No)) << No;
}

TEST(Numify, Values) {
  EXPECT_EQ(num("12abc").toDouble(), 12.0);
  EXPECT_EQ(num("1_000").toDouble(), 1.0);
  EXPECT_EQ(num("0x10").toDouble(), 0.0);
  EXPECT_EQ(num("  +.5e-1 ").toDouble(), 0.05);
  EXPECT_EQ(num("1e").toDouble(), 1.0);
  EXPECT_TRUE(std::isinf(num("Info").toDouble()));
  EXPECT_TRUE(std::isnan(num("NaN123").toDouble()));
  EXPECT_TRUE(std::isinf(num("1e400").toDouble()));
  EXPECT_EQ(num("9007199254740993.0").toDouble(), 9007199254740992.0);
}

TEST(Numify, IntegerStringsStayExact) {
  EXPECT_TRUE(num("18446744073709551615").isInteger());
  EXPECT_EQ(plusZero("18446744073709551615"), "18446744073709551615");
  EXPECT_EQ(plusZero("-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(plusZero("-9223372036854775809"), "-9.22337203685478e+18");
  EXPECT_EQ(plusZero("18446744073709551616"), "1.84467440737096e+19");
}

TEST(Numify, ExponentFormsAreIntegersWhenExact) {
  EXPECT_TRUE(num("1e3").ivPleasable());
  EXPECT_TRUE(num("1e17").ivPleasable());
  EXPECT_EQ(plusZero("1e17"), "100000000000000000");
  EXPECT_TRUE(num("1e19").ivPleasable());
  EXPECT_FALSE(num("1e20").ivPleasable());
  EXPECT_FALSE(num("1.5e0").ivPleasable());
  EXPECT_TRUE(num("1.0e0").ivPleasable());
}

TEST(Numify, DecimalFractionsNeverAreIntegers) {
  EXPECT_FALSE(num("1.0").ivPleasable());
  EXPECT_EQ(plusZero("1234567890123456.0"), "1.23456789012346e+15");
  // A second operation sees the integral double as an integer again.
  PerlNumber Sum = perlAdd(num("1234567890123456.0"), num("0"));
  EXPECT_EQ(perlAdd(Sum, num("0")).toString(), "1234567890123456");
}

TEST(Arithmetic, OverflowBecomesDouble) {
  PerlNumber Max = num("18446744073709551615");
  EXPECT_EQ(perlAdd(Max, num("1")).toString(), "1.84467440737096e+19");
  EXPECT_EQ(perlMultiply(num("4294967296"), num("4294967296")).toString(),
            "1.84467440737096e+19");
  EXPECT_EQ(perlMultiply(num("100"), num("1099511627776")).toString(),
            "109951162777600");
}

TEST(Arithmetic, DivisionIsFloatingUnlessHugeAndExact) {
  PerlNumber Q;
  ASSERT_TRUE(perlDivide(num("7"), num("2"), Q));
  EXPECT_EQ(Q.toString(), "3.5");
  ASSERT_TRUE(perlDivide(num("9007199254740993"), num("1"), Q));
  EXPECT_EQ(Q.toDouble(), 9007199254740992.0);
  EXPECT_FALSE(perlDivide(num("1"), num("0"), Q));
  EXPECT_FALSE(perlDivide(num("1"), num("0.0"), Q));
}

TEST(Arithmetic, IntTruncatesTowardZero) {
  EXPECT_EQ(perlInt(num("-1.5")).toString(), "-1");
  EXPECT_EQ(perlInt(num("2.999")).toString(), "2");
  EXPECT_EQ(perlInt(num("1e30")).toString(), "1e+30");
  EXPECT_TRUE(std::isnan(perlInt(num("nan")).toDouble()));
}

TEST(Compare, NanIsUnordered) {
  EXPECT_EQ(perlCompare(num("nan"), num("0")), NumOrder::Unordered);
  EXPECT_FALSE(perlGe(num("nan"), num("0")));
  EXPECT_TRUE(perlGe(num("inf"), num("inf")));
  EXPECT_TRUE(perlEq(num("-0.0"), num("0")));
  EXPECT_TRUE(perlLt(num("9223372036854775807"),
                     num("9223372036854775808")));
}

TEST(Stringify, PerlSpellings) {
  EXPECT_EQ(PerlNumber::real(0.1 + 0.2).toString(), "0.3");
  EXPECT_EQ(PerlNumber::real(1e15).toString(), "1e+15");
  EXPECT_EQ(PerlNumber::real(1e14 + 0.5).toString(), "100000000000000");
  EXPECT_EQ(PerlNumber::real(-0.0).toString(), "0");
  EXPECT_EQ(PerlNumber::real(1.5e-5).toString(), "1.5e-05");
  EXPECT_EQ(PerlNumber::real(HUGE_VAL).toString(), "Inf");
  EXPECT_EQ(PerlNumber::real(-HUGE_VAL).toString(), "-Inf");
  EXPECT_EQ(PerlNumber::real(std::nan("")).toString(), "NaN");
}

TEST(CastToIv, SaturatesAndWrapsLikePerl) {
  EXPECT_EQ(perlCastToIv(num("nan")), 0);
  EXPECT_EQ(perlCastToIv(num("inf")), -1);
  EXPECT_EQ(perlCastToIv(num("-inf")), INT64_MIN);
  EXPECT_EQ(perlCastToIv(num("-3.7")), -3);
  EXPECT_EQ(perlCastToIv(num("18446744073709551615")), -1);
}
