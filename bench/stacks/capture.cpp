//===- capture.cpp - Cost of capturing and interning one stack ------------===//
//
// Part of massif-native, under the MIT licence.
//
// Microbenchmark of the unwinder's budget: the time to capture the stack of
// an allocation (runtime/native/unwind/Unwind.cpp) and intern it in the
// model's StackDepot, the work every recorded allocation does before any
// lock (captureStackId, which skips hashing a stack it captured again from
// the same state), and for comparison a full capture and a full intern.
// Built with mscc and the headers of the runtime's state/ and unwind/
// parts, it calls the runtime's internals directly, from four places:
//
//   fp     DEPTH instrumented frames above main (frame pointers all the way,
//          then libc's start-up frames below main)
//   lib    the same depth, but the innermost frames are a -O2 gcc library
//          without frame pointers (LIBDEPTH of them) calling back into the
//          program, as allocations from library callbacks are
//   qsort  a comparator called by glibc's qsort at the same depth
//   cold   as lib, but the library is entered at 64 different stack
//          depths in turn, so that its frames never sit where they sat the
//          last time: every capture steps through them by .eh_frame rules
//          (the per-thread memos of earlier runs cannot be replayed)
//
// Each prints nanoseconds of CPU time (the thread's, so that other
// processes on a shared machine do not count) per capture+intern, and per
// capture and per intern alone: the best of 5 timed rounds, after a warm-up
// that fills the rule cache, the per-thread run memos and the depot.
//
// usage: capture DEPTH ROUNDS
//
//===----------------------------------------------------------------------===//

#include "State.h"
#include "Unwind.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

using namespace massif::native;

extern "C" void uninstr_descend(int Depth, void (*Callback)(void));

namespace {

long Rounds;
volatile uint32_t Sink;
const char *Label;

double nowNs() {
  timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return T.tv_sec * 1e9 + T.tv_nsec;
}

/// The best per-iteration time of Body over rounds 1..5 (round 0 warms up).
template <typename F> double best(F Body) {
  double Best = 1e30;
  for (int Round = 0; Round < 6; ++Round) {
    double T0 = nowNs();
    for (long I = 0; I < Rounds; ++I)
      Body();
    double Per = (nowNs() - T0) / Rounds;
    if (Round > 0 && Per < Best)
      Best = Per;
  }
  return Best;
}

__attribute__((noinline)) void measure() {
  // The runtime is set up by the program's first allocation.
  ThreadState &T = thisThread();
  uint64_t Pcs[MaxCapturedFrames];
  UnwindStart Start = {__builtin_frame_address(0), nullptr, T.StackLo,
                       T.StackHi};
  uint32_t Frames = captureStack(Start, Pcs, TheModel.CaptureMax);
  // What the runtime does for every allocation (record/Record.cpp).
  double Both = best([&] {
    Sink = captureStackId(Start, *TheModel.Depot, TheModel.CaptureMax);
  });
  double Capture =
      best([&] { Sink = captureStack(Start, Pcs, TheModel.CaptureMax); });
  double Intern = best([&] { Sink = TheModel.Depot->intern(Pcs, Frames); });
  printf("%-6s %3u frames  %6.1f ns capture+intern  (capture %5.1f, "
         "intern %5.1f)\n",
         Label, Frames, Both, Capture, Intern);
}

int Remaining;

// One real frame per level (the volatile store keeps it from becoming a
// tail call).
__attribute__((noinline)) void descend(int Depth, void (*Leaf)(void)) {
  if (Depth == 0)
    Leaf();
  else
    descend(Depth - 1, Leaf);
  Sink = Sink + 1;
}

void viaLibrary() { uninstr_descend(Remaining, measure); }

uint32_t ColdFrames;

__attribute__((noinline)) void captureOnce() {
  ThreadState &T = thisThread();
  uint64_t Pcs[MaxCapturedFrames];
  UnwindStart Start = {__builtin_frame_address(0), nullptr, T.StackLo,
                       T.StackHi};
  Sink = captureStackId(Start, *TheModel.Depot, TheModel.CaptureMax);
  if (!ColdFrames)
    ColdFrames = captureStack(Start, Pcs, TheModel.CaptureMax);
}

__attribute__((noinline)) void shifted(long I) {
  // A different stack position for the library's frames each time.
  volatile char *Pad = (volatile char *)__builtin_alloca(16 * (I & 63) + 16);
  Pad[0] = 0;
  uninstr_descend(Remaining, captureOnce);
}

__attribute__((noinline)) void viaLibraryCold() {
  double Per = best([] {
    static long I;
    shifted(I++);
  });
  printf("%-6s %3u frames  %6.1f ns capture+intern\n", "cold", ColdFrames,
         Per);
}

int compareInts(const void *A, const void *B) {
  static bool Done;
  if (!Done) {
    Done = true;
    measure();
  }
  return *(const int *)A - *(const int *)B;
}

void viaQsort() {
  int V[4] = {3, 1, 2, 0};
  qsort(V, 4, sizeof(int), compareInts);
}

} // namespace

int main(int Argc, char **Argv) {
  int Depth = Argc > 1 ? atoi(Argv[1]) : 20;
  Rounds = Argc > 2 ? atol(Argv[2]) : 1000000;
  free(malloc(1)); // starts the runtime
  if (!TheModel.Depot) {
    fprintf(stderr, "the runtime is not active\n");
    return 1;
  }
  Label = "fp";
  descend(Depth - 1, measure);
  Label = "lib";
  Remaining = 5;
  descend(Depth - 1 - 2 * Remaining, viaLibrary);
  Label = "qsort";
  descend(Depth - 4, viaQsort);
  descend(Depth - 2 - 2 * Remaining, viaLibraryCold);
  return 0;
}
