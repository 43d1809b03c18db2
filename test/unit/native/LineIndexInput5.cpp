//===- LineIndexInput5.cpp - A unit with DWARF 5 line tables for tests -----===//
//
// Part of massif-native, under the MIT licence.
//
// Compiled with -O2 -gdwarf-5 into native-unit-tests, so that LineIndexTest
// finds a DWARF 5 line program (with .debug_line_str names and MD5 sums)
// with inlined code and several files, beside the test's DWARF 4 units.
//
//===----------------------------------------------------------------------===//

#include "LineIndexInput5.h"

#include <string.h>

namespace {

#include "LineIndexInput5.inc"

} // namespace

unsigned lineIndexInput5(const char *S, unsigned N) {
  unsigned Sum = 0;
  for (unsigned I = 0; I < N; ++I) {
    if (S[I] == ',')
      Sum += mix(Sum, I);
    else if (S[I] >= '0' && S[I] <= '9')
      Sum = Sum * 10 + unsigned(S[I] - '0');
    else
      Sum ^= unsigned(strlen(S + I));
  }
  return Sum;
}
