//===- symbolize.cpp - Cost of naming 10,000 distinct code addresses ------===//
//
// Part of massif-native, under the MIT licence.
//
// The symbolization behind the profile the runtime writes at exit: every
// distinct code address of every stack described once (function,
// file:line, inlined levels) by the symbolizer (runtime/symbolizer/
// Symbolize.cpp), cold (a fresh Dwfl session, no module read yet). The
// symbolizer runs in a process of its own, which the runtime asks through a
// pipe (runtime/symbolizer/Protocol.h); here its code is linked into the
// program and pointed at the program's own pid, so that its work alone is
// timed, without the process's start or the pipe. The program is built
// with mscc like any profiled one, the runtime included; its generated
// sites (see gen_sites.py) each record the return address of one call, a
// distinct address in a distinct function. Those addresses are prepared
// and described as one request of the runtime is (Main.cpp), and the
// elapsed time printed.
//
//===----------------------------------------------------------------------===//

#include "State.h"
#include "Symbolize.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

extern "C" {
#include "sites_main.h"
}

using namespace massif;
using namespace massif::symbolizer;

static uint64_t Sites[100000];
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
  // The symbolizer's own process is not profiled: meanwhile every malloc
  // (libdw's) goes straight to glibc.
  native::ThreadState &T = native::thisThread();
  T.InRuntime = true;
  // The runtime's client names its process and thread the same way.
  setTarget(getpid(), gettid());
  double T0 = nowMs();
  prepare(Sites, NumSites);
  unsigned Named = 0, Inlined = 0;
  for (unsigned I = 0; I < NumSites; ++I) {
    FrameInfo F[MaxInlineFrames];
    uint32_t N = describe(Sites[I], F);
    Named += F[N - 1].Function && F[0].Line;
    Inlined += N > 1;
  }
  double Ms = nowMs() - T0;
  T.InRuntime = false;
  printf("%u addresses (%u named with a line, %u inlined) in %.1f ms\n",
         NumSites, Named, Inlined, Ms);
  return Named == NumSites ? 0 : 1;
}
