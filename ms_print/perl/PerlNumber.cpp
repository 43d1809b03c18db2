//===- PerlNumber.cpp - Perl's scalar arithmetic, as ms_print reaches it --===//
//
// Part of massif-native, under the MIT licence.
//
// Implements the model declared in PerlNumber.h. The rules follow Perl
// 5.36 on a 64-bit Linux build (64-bit IV/UV, IEEE double NV, no
// NV_PRESERVES_UV): an integer string becomes an IV or UV; a decimal
// string ("1.0") becomes a double that is never treated as an integer;
// an exponent string ("1e3") becomes a double that is treated as an integer
// when it is integral and fits; an arithmetic result that is a double is
// treated as an integer only when integral and below 2^53.
//
//===----------------------------------------------------------------------===//

#include "PerlNumber.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace msprint {

namespace {

constexpr WideInt IvMin = -(WideInt(1) << 63);
constexpr WideInt IvMax = (WideInt(1) << 63) - 1;
constexpr WideInt UvMax = (WideInt(1) << 64) - 1;
constexpr double TwoPow53 = 9007199254740992.0;
constexpr double TwoPow63 = 9223372036854775808.0;
constexpr double TwoPow64 = 18446744073709551616.0;

bool inIntRange(WideInt V) { return V >= IvMin && V <= UvMax; }

bool isDigit(unsigned char C) { return C >= '0' && C <= '9'; }

char foldCase(unsigned char C) {
  return (C >= 'A' && C <= 'Z') ? char(C - 'A' + 'a') : char(C);
}

/// Perl's cast of a double to IV (I_V).
int64_t castIv(double F) {
  if (F < TwoPow63)
    return F < -TwoPow63 ? std::numeric_limits<int64_t>::min() : int64_t(F);
  if (F < TwoPow64)
    return int64_t(uint64_t(F));
  return F > 0 ? int64_t(UINT64_MAX) : 0; // NaN gives 0.
}

/// Perl's cast of a double to UV (U_V).
uint64_t castUv(double F) {
  if (F < 0.0)
    return F < -TwoPow63 ? uint64_t(INT64_MIN) : uint64_t(int64_t(F));
  if (F < TwoPow64)
    return uint64_t(F);
  return F > 0 ? UINT64_MAX : 0; // NaN gives 0.
}

/// Appends the decimal digits of an integer in Perl's IV/UV range.
void appendWide(std::string &Out, WideInt V) {
  char Buf[48];
  char *End = Buf + sizeof(Buf);
  char *P = End;
  bool Neg = V < 0;
  unsigned __int128 U = Neg ? (unsigned __int128)(-V) : (unsigned __int128)V;
  do {
    *--P = char('0' + int(U % 10));
    U /= 10;
  } while (U);
  if (Neg)
    *--P = '-';
  Out.append(P, End);
}

/// Perl's grok_infnan over [Pos, End). Returns its flags (0 if nothing
/// valid was parsed) and leaves Pos after the part it accepted.
unsigned grokInfNan(const char *&Pos, const char *End) {
  const char *S = Pos;
  unsigned Flags = 0;
  bool OneDotHash = false;
  auto at = [&](char Lower) { return S < End && foldCase(*S) == Lower; };
  auto finish = [&]() -> unsigned {
    while (S < End && isPerlSpace(*S))
      ++S;
    Pos = S;
    return Flags | (S < End ? GrokTrailing : 0);
  };

  if (S < End && *S == '+') {
    if (++S == End)
      return 0;
  } else if (S < End && *S == '-') {
    Flags |= GrokNeg;
    if (++S == End)
      return 0;
  }
  if (S < End && *S == '1') {
    // Visual C spellings: 1.#INF, 1#INF, 1.#IND, 1.#QNAN.
    if (++S == End)
      return 0;
    if (*S == '.' && ++S == End)
      return 0;
    if (*S != '#')
      return 0;
    if (++S == End)
      return 0;
    OneDotHash = true;
  }
  if (at('i')) {
    ++S;
    if (!at('n'))
      return 0;
    if (++S == End)
      return 0;
    if (at('f')) {
      Flags |= GrokInfinity | GrokNotInt;
      Pos = ++S;
      if (at('i')) {
        unsigned Trail = Flags | GrokTrailing;
        for (char C : {'n', 'i', 't', 'y'}) {
          ++S;
          if (!at(C))
            return Trail;
        }
        Pos = ++S;
      } else if (OneDotHash) {
        while (S < End && *S == '0')
          ++S;
      }
      return finish();
    }
    if (at('d') && OneDotHash) {
      ++S;
      Flags |= GrokNan | GrokNotInt;
      while (S < End && *S == '0')
        ++S;
      return finish();
    }
    return 0;
  }
  if (at('s') || at('q')) {
    if (++S == End)
      return 0;
  }
  if (!at('n'))
    return 0;
  ++S;
  if (!at('a'))
    return 0;
  ++S;
  if (!at('n'))
    return 0;
  Flags |= GrokNan | GrokNotInt;
  Pos = ++S;
  if (S == End)
    return Flags;
  if (at('q') || at('s')) {
    Pos = ++S;
    if (S == End)
      return Flags;
  }
  if (*S != '(')
    return finish(); // "nan" followed by anything else: trailing junk.
  // C99 "nan(payload)": the payload must be an integer.
  unsigned Trail = Flags | GrokTrailing;
  if (++S == End)
    return Trail;
  const char *Close = S + 1;
  while (Close < End && *Close && *Close != ')')
    ++Close;
  if (Close == End || *Close != ')')
    return Trail;
  const char *P = S;
  if (P[0] == '0' && P + 2 < Close && (foldCase(P[1]) == 'x' ||
                                       foldCase(P[1]) == 'b')) {
    bool Hex = foldCase(P[1]) == 'x';
    P += 2;
    unsigned Bits = 0;
    while (P < Close) {
      unsigned char C = *P;
      bool Ok = Hex ? std::isxdigit(C) != 0 : (C == '0' || C == '1');
      if (C == '_' && P + 1 < Close) {
        ++P;
        continue;
      }
      if (!Ok)
        break;
      Bits += Hex ? 4 : 1;
      ++P;
    }
    if (Bits > 64)
      return Trail;
  } else {
    uint64_t Ignored;
    unsigned T = perlGrokNumber(std::string_view(S, Close - S), Ignored);
    bool Digits = false;
    while (P < Close && isDigit(*P)) {
      ++P;
      Digits = true;
    }
    // grok_number was asked to allow trailing text; with plain digits
    // followed by spaces it reports an integer, anything else is junk.
    bool SpacesOnly = true;
    for (const char *Q = P; Q < Close; ++Q)
      SpacesOnly &= isPerlSpace(*Q);
    if (!Digits || !SpacesOnly || (T != 0 && ((T & GrokNotInt) ||
                                              !(T & GrokInUv))))
      return Trail;
  }
  while (P < Close && isPerlSpace(*P))
    ++P;
  if (P < Close)
    return Trail;
  S = Close + 1;
  return finish();
}

} // namespace

PerlNumber PerlNumber::integer(WideInt Value) {
  PerlNumber N;
  N.IsInteger = true;
  N.IntLike = true;
  N.Int = Value;
  return N;
}

PerlNumber PerlNumber::real(double Value) {
  PerlNumber N;
  N.IsInteger = false;
  N.Real = Value;
  N.IntLike = std::isfinite(Value) && std::fabs(Value) < TwoPow53 &&
              Value == std::trunc(Value);
  N.Int = N.IntLike ? WideInt(int64_t(Value)) : 0;
  return N;
}

PerlNumber PerlNumber::realFromString(double Value, bool IntLike,
                                      WideInt IntValue) {
  PerlNumber N;
  N.IsInteger = false;
  N.Real = Value;
  N.IntLike = IntLike;
  N.Int = IntLike ? IntValue : 0;
  return N;
}

double PerlNumber::toDouble() const {
  return IsInteger ? double(Int) : Real;
}

bool PerlNumber::isTrue() const { return IsInteger ? Int != 0 : Real != 0.0; }

void PerlNumber::appendTo(std::string &Out) const {
  if (IsInteger) {
    appendWide(Out, Int);
    return;
  }
  if (std::isnan(Real)) {
    Out += "NaN";
  } else if (std::isinf(Real)) {
    Out += Real < 0 ? "-Inf" : "Inf";
  } else if (Real == 0.0) {
    Out += '0';
  } else {
    char Buf[64];
    int Len = std::snprintf(Buf, sizeof(Buf), "%.15g", Real);
    Out.append(Buf, size_t(Len));
  }
}

std::string PerlNumber::toString() const {
  std::string S;
  appendTo(S);
  return S;
}

PerlNumber perlAdd(const PerlNumber &L, const PerlNumber &R) {
  if (L.ivPleasable() && R.ivPleasable()) {
    WideInt Sum = L.intValue() + R.intValue();
    if (inIntRange(Sum))
      return PerlNumber::integer(Sum);
  }
  return PerlNumber::real(R.toDouble() + L.toDouble());
}

PerlNumber perlMultiply(const PerlNumber &L, const PerlNumber &R) {
  if (L.ivPleasable() && R.ivPleasable()) {
    WideInt Product;
    if (!__builtin_mul_overflow(L.intValue(), R.intValue(), &Product) &&
        inIntRange(Product))
      return PerlNumber::integer(Product);
  }
  return PerlNumber::real(L.toDouble() * R.toDouble());
}

bool perlDivide(const PerlNumber &L, const PerlNumber &R, PerlNumber &Out) {
  if (L.ivPleasable() && R.ivPleasable()) {
    WideInt Right = R.intValue();
    if (Right == 0)
      return false;
    WideInt Left = L.intValue();
    bool SameSign = (Left < 0) == (Right < 0);
    WideInt AbsL = Left < 0 ? -Left : Left;
    WideInt AbsR = Right < 0 ? -Right : Right;
    // Perl divides in integers only when the dividend is too big for a
    // double to hold exactly, and only keeps an exact quotient.
    if (AbsL >= AbsR && AbsL > (WideInt(1) << 53) && AbsL % AbsR == 0) {
      WideInt Quotient = AbsL / AbsR;
      if (SameSign)
        Out = PerlNumber::real(double(Quotient));
      else if (Quotient <= -IvMin)
        Out = PerlNumber::integer(-Quotient);
      else
        Out = PerlNumber::real(-double(Quotient));
      return true;
    }
  }
  double Right = R.toDouble();
  if (Right == 0.0)
    return false;
  Out = PerlNumber::real(L.toDouble() / Right);
  return true;
}

PerlNumber perlInt(const PerlNumber &V) {
  if (V.ivPleasable())
    return PerlNumber::integer(V.intValue());
  double D = V.toDouble();
  if (!std::isfinite(D))
    return PerlNumber::real(D);
  if (D >= 0.0)
    return D < TwoPow64 ? PerlNumber::integer(WideInt(castUv(D)))
                        : PerlNumber::real(std::floor(D));
  return D > -TwoPow63 ? PerlNumber::integer(WideInt(castIv(D)))
                       : PerlNumber::real(std::ceil(D));
}

NumOrder perlCompare(const PerlNumber &L, const PerlNumber &R) {
  if (L.ivPleasable() && R.ivPleasable()) {
    WideInt A = L.intValue(), B = R.intValue();
    return A < B ? NumOrder::Less : A > B ? NumOrder::Greater : NumOrder::Equal;
  }
  double A = L.toDouble(), B = R.toDouble();
  if (A < B)
    return NumOrder::Less;
  if (A > B)
    return NumOrder::Greater;
  if (A == B)
    return NumOrder::Equal;
  return NumOrder::Unordered;
}

int64_t perlCastToIv(const PerlNumber &V) {
  if (V.ivPleasable()) {
    WideInt I = V.intValue();
    return I > IvMax ? int64_t(uint64_t(I)) : int64_t(I);
  }
  double D = V.toDouble();
  if (D < TwoPow63)
    return castIv(D);
  return int64_t(castUv(D));
}

unsigned perlGrokNumber(std::string_view Text, uint64_t &Value) {
  const char *S = Text.data();
  const char *const End = S + Text.size();
  unsigned NumType = 0;
  Value = 0;

  if (S < End && isPerlSpace(*S)) {
    while (S < End && isPerlSpace(*S))
      ++S;
    if (S == End)
      return 0;
  }
  if (S < End && (*S == '-' || *S == '+')) {
    if (*S == '-')
      NumType = GrokNeg;
    if (++S == End)
      return 0;
  }
  const char *Digits = S;
  if (S < End && isDigit(*S)) {
    uint64_t V = 0;
    bool Overflow = false;
    while (S < End && isDigit(*S)) {
      unsigned D = unsigned(*S - '0');
      if (!Overflow) {
        if (V < UINT64_MAX / 10 || (V == UINT64_MAX / 10 && D <= UINT64_MAX % 10))
          V = V * 10 + D;
        else
          Overflow = true;
      }
      ++S;
    }
    if (Overflow) {
      NumType |= GrokGreaterThanUvMax;
    } else {
      NumType |= GrokInUv;
      Value = V;
    }
    if (S < End && *S == '.') {
      NumType |= GrokNotInt;
      ++S;
      while (S < End && isDigit(*S))
        ++S;
    }
  } else if (S < End && *S == '.') {
    NumType |= GrokNotInt | GrokInUv;
    ++S;
    if (!(S < End && isDigit(*S)))
      return 0;
    while (S < End && isDigit(*S))
      ++S;
    Value = 0;
  }

  if (S > Digits && S < End && foldCase(*S) == 'e') {
    ++S;
    if (S < End && (*S == '-' || *S == '+'))
      ++S;
    if (!(S < End && isDigit(*S)))
      return 0;
    while (S < End && isDigit(*S))
      ++S;
    NumType &= GrokNeg;
    NumType |= GrokNotInt;
  }

  while (S < End && isPerlSpace(*S))
    ++S;
  if (S == End)
    return NumType;

  if (Text == "0 but true") {
    Value = 0;
    return GrokInUv;
  }
  if (S + 2 < End && std::strchr("inqs#", foldCase(*S)) && *S != '\0') {
    const char *P = Digits;
    unsigned InfNan = grokInfNan(P, End);
    if (InfNan & GrokTrailing)
      return 0;
    if (InfNan & GrokInfinity)
      return NumType | InfNan;
    if (InfNan & GrokNan)
      return (NumType | InfNan) & ~unsigned(GrokNeg);
  }
  return 0;
}

double perlAtof(std::string_view Text, bool *RangeError) {
  const char *S = Text.data();
  const char *const End = S + Text.size();
  while (S < End && isPerlSpace(*S))
    ++S;
  const char *P = S;
  unsigned InfNan = grokInfNan(P, End);
  if (InfNan && P != S) {
    if (InfNan & GrokInfinity)
      return (InfNan & GrokNeg) ? -HUGE_VAL : HUGE_VAL;
    if (InfNan & GrokNan)
      return std::numeric_limits<double>::quiet_NaN();
  }
  const char *T = S;
  if (T < End && (*T == '-' || *T == '+'))
    ++T;
  // Perl refuses the hexadecimal and binary forms strtod would accept.
  if (End - T >= 2 && T[0] == '0' &&
      (foldCase(T[1]) == 'x' || foldCase(T[1]) == 'b'))
    return 0.0;
  // strtod needs a terminated string; numbers longer than the buffer are
  // rare enough to take the slow path.
  char Small[128];
  std::string Large;
  const char *Start;
  if (Text.size() < sizeof(Small)) {
    std::memcpy(Small, Text.data(), Text.size());
    Small[Text.size()] = '\0';
    Start = Small;
  } else {
    Large.assign(Text.data(), Text.size());
    Start = Large.c_str();
  }
  char *EndPtr = nullptr;
  int SavedErrno = errno;
  errno = 0;
  double V = std::strtod(Start, &EndPtr);
  if (RangeError && errno == ERANGE)
    *RangeError = true;
  errno = SavedErrno;
  return EndPtr == Start ? 0.0 : V;
}

Numified perlNumify(std::string_view Text) {
  // Fast path: plain decimal digits, the overwhelmingly common case.
  if (!Text.empty() && Text.size() <= 18) {
    uint64_t V = 0;
    bool AllDigits = true;
    for (char C : Text) {
      if (!isDigit(C)) {
        AllDigits = false;
        break;
      }
      V = V * 10 + unsigned(C - '0');
    }
    if (AllDigits)
      return {PerlNumber::integer(WideInt(V)), true};
  }

  uint64_t Value = 0;
  unsigned NumType = perlGrokNumber(Text, Value);
  Numified Result;
  Result.LooksLikeNumber = NumType != 0;

  if (NumType & (GrokInfinity | GrokNan)) {
    double D = (NumType & GrokNan) ? std::numeric_limits<double>::quiet_NaN()
               : (NumType & GrokNeg) ? -HUGE_VAL
                                     : HUGE_VAL;
    Result.Value = PerlNumber::realFromString(D, false, 0);
    return Result;
  }
  if ((NumType & GrokInUv) && !(NumType & GrokNotInt)) {
    if (!(NumType & GrokNeg))
      Result.Value = PerlNumber::integer(WideInt(Value));
    else if (Value <= uint64_t(1) << 63)
      Result.Value = PerlNumber::integer(-WideInt(Value));
    else
      Result.Value = PerlNumber::realFromString(
          perlAtof(Text, &Result.RangeError), false, 0);
    return Result;
  }
  double D = perlAtof(Text, &Result.RangeError);
  if ((NumType & GrokInUv) || NumType == 0) {
    // A decimal fraction ("1.0") never counts as an integer, and neither
    // does a string that is not a number at all.
    Result.Value = PerlNumber::realFromString(D, false, 0);
    return Result;
  }
  // An exponent form or an integer too large for a UV.
  bool IntLike = false;
  WideInt IntValue = 0;
  if (std::fabs(D) < TwoPow53) {
    IntValue = castIv(D);
    IntLike = double(int64_t(IntValue)) == D;
  } else if (D < -TwoPow63 || D > TwoPow64 || std::isnan(D)) {
    IntLike = false;
  } else if (D <= TwoPow63) {
    int64_t I = castIv(D);
    IntLike = double(I) == D;
    IntValue = I;
  } else {
    uint64_t U = castUv(D);
    IntLike = double(U) == D && U != UINT64_MAX;
    IntValue = WideInt(U);
  }
  Result.Value = PerlNumber::realFromString(D, IntLike, IntValue);
  return Result;
}

} // namespace msprint
