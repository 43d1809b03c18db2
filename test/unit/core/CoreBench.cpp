//===- CoreBench.cpp - Cost of the model's hot path -----------------------===//
//
// Part of massif-native, under the MIT licence.
//
//   core-bench [live-blocks] [massif options...]
//
// Times the model's hot path with the native runtime's events (onMalloc,
// onFree: the model replays Valgrind's allocator for each) while
// live-blocks other blocks stay live, in two patterns:
//
//   fresh  malloc+free pairs on a few addresses reused last-in first-out
//          (as glibc's tcache hands them out): each block is split off the
//          free rest of a superblock and merged back;
//   churn  a random live block freed and another of a random small size
//          allocated: blocks reused from the free lists, split and merged.
//
// Prints nanoseconds per pair and model bytes per live block.
// CORE_BENCH_PAIRS sets the number of pairs of each pattern (default 20
// million; fewer for callgrind); CORE_BENCH_PATTERN=fresh or churn runs
// only that one; CORE_BENCH_REPLAY=0 gives the fresh pattern's blocks
// their slop (onAlloc) instead of replaying Valgrind's allocator, which
// separates the replay's cost from the rest of the model's. Not a test:
// timings on a shared machine vary.
//===----------------------------------------------------------------------===//

#include "Profile.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace massif;

namespace {
int64_t LiveB;
void *allocate(void *, size_t N) {
  LiveB += int64_t(N);
  return calloc(1, N);
}
void deallocate(void *, void *P, size_t N) {
  LiveB -= int64_t(N);
  free(P);
}
uint64_t Counter;
uint64_t readCounter(void *) { return Counter; }
uint32_t describe(void *, uint64_t, FrameInfo *Out, uint32_t) {
  Out[0] = FrameInfo{"f", "f.c", 1, nullptr};
  return 1;
}
} // namespace

int main(int Argc, char **Argv) {
  uint64_t Live = Argc > 1 ? strtoull(Argv[1], nullptr, 0) : 10000;
  Allocator A{allocate, deallocate, nullptr};
  Options O;
  for (int I = 2; I < Argc; ++I) {
    OptionError E;
    if (parseOption(O, Argv[I], A, E) != ParseResult::Ok) {
      fprintf(stderr, "%s\n", E.Text);
      return 1;
    }
  }
  StackDepot D;
  D.init(A);
  Profile P;
  if (!P.init(O, A, D, Symbolizer{describe, nullptr},
              Clock{readCounter, nullptr}))
    return 1;
  P.startup();
  std::vector<StackId> Stacks;
  for (uint64_t I = 0; I < 64; ++I) {
    uint64_t Pcs[5] = {0x1000 + I, 0x2000 + I % 7, 0x3000, 0x4000, 0x5000};
    Stacks.push_back(D.intern(Pcs, 5));
  }
  int64_t Before = LiveB;
  uint64_t Next = 0x10000000;
  for (uint64_t I = 0; I < Live; ++I)
    P.onMalloc(Next += 48, 32, 0, Stacks[I % 64]);
  double PerBlockB = Live ? double(LiveB - Before) / double(Live) : 0;

  uint64_t Pool[8];
  for (uint64_t &Addr : Pool)
    Addr = Next += 64;
  const char *Pairs = getenv("CORE_BENCH_PAIRS");
  const uint64_t N = Pairs ? strtoull(Pairs, nullptr, 0) : 20000000;
  const char *Pattern = getenv("CORE_BENCH_PATTERN");
  const bool Fresh = !Pattern || !strcmp(Pattern, "fresh");
  const bool Churn = !Pattern || !strcmp(Pattern, "churn");
  const char *Replay = getenv("CORE_BENCH_REPLAY");
  const bool NoReplay = Replay && !strcmp(Replay, "0");
  auto T0 = std::chrono::steady_clock::now();
  for (uint64_t I = 0; Fresh && I < N; ++I) {
    uint64_t Addr = Pool[I & 7];
    Counter += 100;
    uint64_t ReqB = 16 + (I & 15);
    if (NoReplay)
      P.onAlloc(Addr, ReqB, 32 - ReqB, Stacks[I & 63]);
    else
      P.onMalloc(Addr, ReqB, 0, Stacks[I & 63]);
    P.onFree(Addr);
  }
  auto T1 = std::chrono::steady_clock::now();
  if (Fresh)
    printf("%llu live blocks: %.1f ns per malloc+free pair (fresh%s), %.1f "
           "model bytes per live block\n",
           (unsigned long long)Live,
           std::chrono::duration<double, std::nano>(T1 - T0).count() / N,
           NoReplay ? ", no replay" : "", PerBlockB);

  if (!Live || !Churn)
    return 0;
  static const uint64_t Sizes[8] = {8, 24, 40, 64, 100, 200, 500, 1000};
  uint64_t Rng = 88172645463325252ull;
  auto T2 = std::chrono::steady_clock::now();
  for (uint64_t I = 0; I < N; ++I) {
    Rng ^= Rng << 13;
    Rng ^= Rng >> 7;
    Rng ^= Rng << 17;
    uint64_t Addr = 0x10000000 + 48 * (1 + Rng % Live);
    Counter += 100;
    P.onFree(Addr);
    P.onMalloc(Addr, Sizes[(Rng >> 40) & 7], 0, Stacks[I & 63]);
  }
  auto T3 = std::chrono::steady_clock::now();
  printf("%llu live blocks: %.1f ns per malloc+free pair (churn)\n",
         (unsigned long long)Live,
         std::chrono::duration<double, std::nano>(T3 - T2).count() / N);
  return 0;
}
