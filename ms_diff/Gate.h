//===- Gate.h - --fail-if-*: the regression gates ------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// A limit is how much a figure of B may exceed A's: for
// --fail-if-peak-grows= the peak total (heap + extra-heap + stacks at the
// peak snapshot), for --fail-if-leaks-grow= the leaked bytes (bytes, as
// below); for --fail-if-calls-grow= and --fail-if-temporary-grows= the
// allocation calls and the temporary allocations, counts (N% or N, no
// unit). A byte limit is
//
//   N%        N percent of A's peak total (N may have up to 6 decimals)
//   N, NB     N bytes
//   NKiB NMiB NGiB   N times 1024, 1024^2, 1024^3 bytes
//   NkB NMB NGB      N times 1000, 1000^2, 1000^3 bytes
//
// N is a decimal number without sign, with at most 6 decimals; a byte
// limit must come out a whole number of bytes (1.5KiB is 1536, 1.5B is
// refused). The gate fails when the growth is more than the limit: a
// percentage limit allows floor(A * N / 100) bytes.
//
//===----------------------------------------------------------------------===//

#ifndef MSDIFF_GATE_H
#define MSDIFF_GATE_H

#include <cstdint>
#include <string>
#include <string_view>

namespace msdiff {

struct GateLimit {
  /// The option's value as given, e.g. "5%" or "64KiB".
  std::string Text;
  bool Percent = false;
  /// A percentage as Num / Den (Den a power of ten); unused for bytes.
  uint64_t Num = 0;
  uint64_t Den = 1;
  /// A byte limit; unused for a percentage.
  uint64_t Bytes = 0;
};

/// What a limit counts: bytes (with the units above) or things (calls,
/// allocations: a whole number, no unit).
enum class LimitUnits { Bytes, Count };

/// Parses Text, the value of Option ("--fail-if-calls-grow="); on failure
/// returns false with Error saying what is wrong.
bool parseGateLimit(std::string_view Option, std::string_view Text,
                    LimitUnits Units, GateLimit &L, std::string &Error);

/// The same for --fail-if-peak-grows=.
inline bool parseGateLimit(std::string_view Text, GateLimit &L,
                           std::string &Error) {
  return parseGateLimit("--fail-if-peak-grows=", Text, LimitUnits::Bytes, L,
                        Error);
}

struct GateResult {
  uint64_t A = 0;
  uint64_t B = 0;
  /// The growth allowed, in bytes.
  uint64_t AllowedBytes = 0;
  bool Failed = false;
};

/// Applies L to A's and B's figures (the peak totals, the calls, ...).
GateResult applyGate(const GateLimit &L, uint64_t A, uint64_t B);

} // namespace msdiff

#endif // MSDIFF_GATE_H
