//===- PerlFormat.cpp - The printf formats and helpers ms_print prints with ===//
//
// Part of massif-native, under the MIT licence.
//
// Implements PerlFormat.h. The fast "%05.2f" path computes round(V * 100)
// exactly: the product V * 100 is split into its rounded value and the
// exact rounding error (with fma), which decides the rare cases where the
// rounded product sits exactly on a half. Ties round to even, as glibc's
// printf does in the default rounding mode.
//
//===----------------------------------------------------------------------===//

#include "PerlFormat.h"

#include <cmath>
#include <cstdio>

namespace msprint {

namespace {

/// Perl's spelling of an infinity or NaN, padded to Width.
void appendInfNan(std::string &Out, double V, int Width, bool ZeroPad) {
  const char *Text = std::isnan(V) ? "NaN" : V < 0 ? "-Inf" : "Inf";
  size_t Len = std::char_traits<char>::length(Text);
  if (Width > 0 && size_t(Width) > Len)
    Out.append(size_t(Width) - Len, ZeroPad ? '0' : ' ');
  Out += Text;
}

} // namespace

void appendCommified(std::string &Out, std::string_view Text) {
  size_t Digits = 0;
  while (Digits < Text.size() && Text[Digits] >= '0' && Text[Digits] <= '9')
    ++Digits;
  if (Digits <= 3) {
    Out.append(Text.data(), Text.size());
    return;
  }
  size_t Head = Digits % 3 == 0 ? 3 : Digits % 3;
  Out.append(Text.data(), Head);
  for (size_t I = Head; I < Digits; I += 3) {
    Out += ',';
    Out.append(Text.data() + I, 3);
  }
  Out.append(Text.data() + Digits, Text.size() - Digits);
}

std::string commify(std::string_view Text) {
  std::string S;
  appendCommified(S, Text);
  return S;
}

void appendRightAligned(std::string &Out, std::string_view Text,
                        size_t Width) {
  if (Text.size() < Width)
    Out.append(Width - Text.size(), ' ');
  Out.append(Text.data(), Text.size());
}

void appendFixed(std::string &Out, const PerlNumber &V, int Width,
                 int Precision, bool ZeroPad) {
  double D = V.toDouble();
  if (!std::isfinite(D)) {
    appendInfNan(Out, D, Width, ZeroPad);
    return;
  }
  char Buf[512];
  int Len = ZeroPad ? std::snprintf(Buf, sizeof(Buf), "%0*.*f", Width,
                                    Precision, D)
                    : std::snprintf(Buf, sizeof(Buf), "%*.*f", Width,
                                    Precision, D);
  if (Len >= 0 && size_t(Len) < sizeof(Buf)) {
    Out.append(Buf, size_t(Len));
    return;
  }
  // Only magnitudes with hundreds of digits get here; let snprintf size
  // the buffer.
  std::string Big(size_t(Len) + 1, '\0');
  if (ZeroPad)
    std::snprintf(Big.data(), Big.size(), "%0*.*f", Width, Precision, D);
  else
    std::snprintf(Big.data(), Big.size(), "%*.*f", Width, Precision, D);
  Big.resize(size_t(Len));
  Out += Big;
}

void appendPercent(std::string &Out, double V) {
  // Exact for 0 <= V < 2^45, which covers every percentage a valid tree
  // produces; anything else goes to the C library.
  if (!(V >= 0.0 && V < 35184372088832.0) || std::signbit(V)) {
    appendFixed(Out, PerlNumber::real(V), 5, 2, true);
    return;
  }
  double P = V * 100.0;
  double Err = std::fma(V, 100.0, -P); // V * 100 == P + Err exactly.
  double N = std::floor(P);
  double Frac = P - N; // Exact: P and N are close and P < 2^52.
  // Err is at most half an ulp of P, so it only matters when P lies
  // exactly on a half; a product just below an integer still rounds to it.
  uint64_t Rounded = uint64_t(N);
  if (Frac > 0.5 || (Frac == 0.5 && (Err > 0.0 || (Err == 0.0 &&
                                                     (Rounded & 1)))))
    ++Rounded;
  uint64_t Whole = Rounded / 100;
  unsigned Cents = unsigned(Rounded % 100);
  char Buf[32];
  char *End = Buf + sizeof(Buf);
  char *Q = End;
  *--Q = char('0' + Cents % 10);
  *--Q = char('0' + Cents / 10);
  *--Q = '.';
  do {
    *--Q = char('0' + Whole % 10);
    Whole /= 10;
  } while (Whole);
  if (End - Q < 5)
    *--Q = '0';
  Out.append(Q, End);
}

void appendPercent(std::string &Out, const PerlNumber &V) {
  if (V.isInteger() && V.intValue() == 0) {
    Out += "00.00";
    return;
  }
  appendPercent(Out, V.toDouble());
}

void appendInteger(std::string &Out, const PerlNumber &V, int Width) {
  double D = V.toDouble();
  if (!V.ivPleasable() && !std::isfinite(D)) {
    appendInfNan(Out, D, Width, false);
    return;
  }
  char Buf[64];
  int Len = std::snprintf(Buf, sizeof(Buf), "%*lld", Width,
                          (long long)perlCastToIv(V));
  Out.append(Buf, size_t(Len));
}

} // namespace msprint
