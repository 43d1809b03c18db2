//===- Gate.cpp - --fail-if-*: the regression gates -----------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Numbers are kept exact: a value with decimals is an integer over a power
// of ten, and products are taken in 128 bits.
//
//===----------------------------------------------------------------------===//

#include "Gate.h"

namespace msdiff {

namespace {

using u128 = unsigned __int128;

constexpr unsigned MaxDecimals = 6;
constexpr uint64_t MaxValue = uint64_t(1) << 62;

struct Unit {
  const char *Name;
  uint64_t Factor;
};

constexpr Unit Units[] = {
    {"", 1},
    {"B", 1},
    {"KiB", uint64_t(1) << 10},
    {"MiB", uint64_t(1) << 20},
    {"GiB", uint64_t(1) << 30},
    {"kB", 1000},
    {"MB", 1000 * 1000},
    {"GB", 1000 * 1000 * 1000},
};

} // namespace

bool parseGateLimit(std::string_view Option, std::string_view Text,
                    LimitUnits Kind, GateLimit &L, std::string &Error) {
  auto fail = [&](const std::string &Why) {
    Error = std::string(Option) + "'" + std::string(Text) + "': " + Why +
            (Kind == LimitUnits::Bytes
                 ? "; expected N% or N bytes with an optional unit B, KiB, "
                   "MiB, GiB, kB, MB or GB (e.g. 5%, 2.5%, 4096, 64KiB)"
                 : "; expected N% or a whole number N, without a unit "
                   "(e.g. 5%, 2.5%, 100)");
    return false;
  };
  L = GateLimit();
  L.Text = std::string(Text);
  if (!Text.empty() && (Text[0] == '-' || Text[0] == '+'))
    return fail("a sign is not allowed");
  size_t I = 0;
  uint64_t Num = 0, Den = 1;
  bool Digits = false;
  while (I < Text.size() && Text[I] >= '0' && Text[I] <= '9') {
    Num = Num * 10 + uint64_t(Text[I++] - '0');
    Digits = true;
    if (Num > MaxValue)
      return fail("too large");
  }
  if (I < Text.size() && Text[I] == '.') {
    ++I;
    unsigned Decimals = 0;
    while (I < Text.size() && Text[I] >= '0' && Text[I] <= '9') {
      if (++Decimals > MaxDecimals)
        return fail("more than 6 decimals");
      Num = Num * 10 + uint64_t(Text[I++] - '0');
      Den *= 10;
      Digits = true;
      if (Num > MaxValue)
        return fail("too large");
    }
  }
  if (!Digits)
    return fail(Text.empty() ? "no value" : "not a number");
  std::string_view Suffix = Text.substr(I);
  if (Suffix == "%") {
    L.Percent = true;
    L.Num = Num;
    L.Den = Den;
    return true;
  }
  for (const Unit &U : Units) {
    if (Suffix != U.Name || (Kind == LimitUnits::Count && *U.Name))
      continue;
    u128 Scaled = u128(Num) * U.Factor;
    if (Scaled % Den != 0)
      return fail(Kind == LimitUnits::Bytes ? "not a whole number of bytes"
                                            : "not a whole number");
    Scaled /= Den;
    if (Scaled > MaxValue)
      return fail("too large");
    L.Bytes = uint64_t(Scaled);
    return true;
  }
  return fail("unknown unit '" + std::string(Suffix) + "'");
}

GateResult applyGate(const GateLimit &L, uint64_t A, uint64_t B) {
  GateResult R;
  R.A = A;
  R.B = B;
  if (L.Percent) {
    u128 Allowed = u128(A) * L.Num / (u128(L.Den) * 100);
    R.AllowedBytes = Allowed > UINT64_MAX ? UINT64_MAX : uint64_t(Allowed);
  } else
    R.AllowedBytes = L.Bytes;
  R.Failed = B > A && B - A > R.AllowedBytes;
  return R;
}

} // namespace msdiff
