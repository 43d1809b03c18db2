//===- PerlNumber.h - Perl's scalar arithmetic, as ms_print reaches it ----===//
//
// Part of massif-native, under the MIT licence.
//
// The reference ms_print is a Perl script, so every number it prints or
// compares went through Perl's scalar model: a field read from the file is
// a string until its first numeric use, when it is "numified" (with a
// warning if it does not look like a number, e.g. "12abc"); integers stay
// exact 64-bit values while they fit and an operation on two of them stays
// integral; everything else is a double; a double prints as "%.15g". This
// file models exactly that machinery for the operations ms_print performs:
// numification (looks_like_number and atof), + * / int(), the numeric
// comparisons with their integer-preserving rules, array-index casts and
// stringification.
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_PERLNUMBER_H
#define MSPRINT_PERLNUMBER_H

#include <cstdint>
#include <string>
#include <string_view>

namespace msprint {

/// A 128-bit integer wide enough for every Perl IV (int64) and UV (uint64).
using WideInt = __int128;

/// A number as a Perl scalar holds it: an integer (IV or UV) or a double
/// (NV). A double also records whether Perl would treat it as an integer
/// in arithmetic (its "public IOK" flag), which decides between exact
/// integer and floating-point operations.
class PerlNumber {
public:
  /// The integer 0.
  PerlNumber() = default;

  /// An integer in [INT64_MIN, UINT64_MAX].
  static PerlNumber integer(WideInt Value);

  /// The double produced by an arithmetic operation. Perl later treats it
  /// as an integer when it is integral and smaller than 2^53 in magnitude.
  static PerlNumber real(double Value);

  /// A double read from a string, with the integer view Perl gave it.
  static PerlNumber realFromString(double Value, bool IntLike,
                                   WideInt IntValue);

  bool isInteger() const { return IsInteger; }
  /// True when Perl's SvIV_please succeeds: the value takes part in
  /// integer arithmetic and integer comparisons.
  bool ivPleasable() const { return IsInteger || IntLike; }
  /// The integer value; only meaningful when ivPleasable().
  WideInt intValue() const { return Int; }
  /// The value as a double (Perl's SvNV).
  double toDouble() const;
  /// Perl's boolean test of a number.
  bool isTrue() const;
  /// Perl's stringification: decimal integers, "%.15g" doubles, "Inf",
  /// "-Inf" and "NaN".
  std::string toString() const;
  void appendTo(std::string &Out) const;

private:
  bool IsInteger = true;
  bool IntLike = true;
  WideInt Int = 0;
  double Real = 0.0;
};

/// Perl's "+" (pp_add): exact when both operands are integers and the sum
/// fits in [INT64_MIN, UINT64_MAX], a double otherwise.
PerlNumber perlAdd(const PerlNumber &L, const PerlNumber &R);
/// Perl's "*" (pp_multiply), with the same integer-preserving rule.
PerlNumber perlMultiply(const PerlNumber &L, const PerlNumber &R);
/// Perl's "/" (pp_divide). Returns false for a division by zero.
bool perlDivide(const PerlNumber &L, const PerlNumber &R, PerlNumber &Out);
/// Perl's int().
PerlNumber perlInt(const PerlNumber &V);

/// The outcome of a numeric comparison; NaN compares Unordered.
enum class NumOrder { Less, Equal, Greater, Unordered };
NumOrder perlCompare(const PerlNumber &L, const PerlNumber &R);
inline bool perlGe(const PerlNumber &L, const PerlNumber &R) {
  NumOrder O = perlCompare(L, R);
  return O == NumOrder::Greater || O == NumOrder::Equal;
}
inline bool perlGt(const PerlNumber &L, const PerlNumber &R) {
  return perlCompare(L, R) == NumOrder::Greater;
}
inline bool perlLe(const PerlNumber &L, const PerlNumber &R) {
  NumOrder O = perlCompare(L, R);
  return O == NumOrder::Less || O == NumOrder::Equal;
}
inline bool perlLt(const PerlNumber &L, const PerlNumber &R) {
  return perlCompare(L, R) == NumOrder::Less;
}
inline bool perlEq(const PerlNumber &L, const PerlNumber &R) {
  return perlCompare(L, R) == NumOrder::Equal;
}

/// The IV Perl uses when the number indexes an array or meets "%d":
/// saturating for doubles, with Perl's wrap-around above INT64_MAX
/// (so +Inf gives -1 and NaN gives 0).
int64_t perlCastToIv(const PerlNumber &V);

/// The result of numifying a string.
struct Numified {
  PerlNumber Value;
  /// False when Perl warns 'Argument "..." isn't numeric'.
  bool LooksLikeNumber = true;
  /// True when the conversion went through strtod and it overflowed or
  /// underflowed: Perl's errno is then ERANGE, which die reports.
  bool RangeError = false;
};

/// Numifies a string the way Perl does on its first numeric use.
Numified perlNumify(std::string_view Text);

/// Flags of Perl's grok_number.
enum GrokFlags : unsigned {
  GrokInUv = 1u << 0,
  GrokGreaterThanUvMax = 1u << 1,
  GrokNotInt = 1u << 2,
  GrokNeg = 1u << 3,
  GrokInfinity = 1u << 4,
  GrokNan = 1u << 5,
  GrokTrailing = 1u << 6,
};

/// Perl's grok_number: 0 when Text does not look like a number.
unsigned perlGrokNumber(std::string_view Text, uint64_t &Value);
/// Perl's atof: the value of the longest numeric prefix, or 0. Sets
/// *RangeError when strtod reports ERANGE.
double perlAtof(std::string_view Text, bool *RangeError = nullptr);
/// Perl's isSPACE on a byte.
inline bool isPerlSpace(unsigned char C) {
  return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' ||
         C == '\v';
}

/// A string scalar read from the file, numified once on first numeric use
/// (Perl caches the number in the scalar, so only the first use warns).
struct PerlScalar {
  std::string_view Text;
  bool IsNumified = false;
  PerlNumber Number;

  PerlScalar() = default;
  explicit PerlScalar(std::string_view T) : Text(T) {}
  /// A scalar that already holds a number (e.g. Perl's "my $x = -1").
  static PerlScalar fromNumber(const PerlNumber &N) {
    PerlScalar S;
    S.IsNumified = true;
    S.Number = N;
    return S;
  }
};

} // namespace msprint

#endif // MSPRINT_PERLNUMBER_H
