//===- symbolize.cpp - Cost of naming 10,000 distinct code addresses ------===//
//
// Part of massif-native, under the MIT licence.
//
// The symbolization the runtime does when it writes the profile at exit:
// every distinct code address of every stack described once (function,
// file:line, inlined levels) through runtime/native/Symbolize.cpp, cold (a
// fresh Dwfl session, empty cache). The program's generated sites (see
// gen_sites.py) each record the return address of one call, a distinct
// address in a distinct function; those addresses are described and the
// elapsed time printed.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"
#include "Symbolize.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern "C" {
#include "sites_main.h"
}

using namespace massif;
using namespace massif::native;

static uintptr_t Sites[100000];
static unsigned NumSites;

extern "C" __attribute__((noinline)) uintptr_t site_here(void) {
  return (uintptr_t)__builtin_return_address(0);
}

extern "C" void site_record(uintptr_t Pc) { Sites[NumSites++] = Pc - 1; }

static double nowMs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1e3 + T.tv_nsec / 1e6;
}

int main() {
  free(malloc(1)); // starts the runtime
  run_all_sites();
  ThreadState &T = TheThread;
  T.InRuntime = true; // as at exit: libdw's own mallocs are not profiled
  const Symbolizer &S = processSymbolizer();
  double T0 = nowMs();
  unsigned Named = 0, Inlined = 0;
  for (unsigned I = 0; I < NumSites; ++I) {
    FrameInfo F[8];
    uint32_t N = S.Describe(S.Ctx, Sites[I], F, 8);
    Named += F[N - 1].Function && F[0].Line;
    Inlined += N > 1;
  }
  double Ms = nowMs() - T0;
  T.InRuntime = false;
  printf("%u addresses (%u named with a line, %u inlined) in %.1f ms\n",
         NumSites, Named, Inlined, Ms);
  return Named == NumSites ? 0 : 1;
}
