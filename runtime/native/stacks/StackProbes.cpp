//===- StackProbes.cpp - Stack sizes for --stacks=yes ---------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Code built with stack probes (the pass's -massif-stack-probes, on by
// default in mscc) has a sled after each function's prologue and before
// each return; with --stacks=yes they are patched into calls of
// __massif_stack_sled_enter and _leave (StackSleds.cpp), which act only in
// threads whose __massif_stack_probes_on flag is set. The runtime sets the
// flag when --stacks=yes is given: in the main thread from a constructor,
// in every other thread before its start routine (Threads.cpp). Code built
// by the pass before sleds tests the flag itself and calls
// __massif_stack_enter and _leave with both stack pointers; those hooks
// stay. With --time-unit=i or B the sleds' hooks (ProbeHooks.cpp) try
// their common paths in assembly before the C++ hooks here.
//
// Each thread remembers the stack pointer of its last event. A lower one is
// growth: Massif adds it and attempts a Normal snapshot. A higher one is a
// shrink: a Peak attempt, the subtraction, a Normal attempt
// (Profile::onStackDelta does both). The main thread's stack starts at
// zero at the process's initial stack pointer (__libc_stack_end), as
// Massif's starts at zero when the program's first instruction runs; every
// other thread's starts at zero where its start routine is called. A jump
// larger than Valgrind's default --max-stackframe (2,000,000 bytes) is a
// switch to another stack (sigaltstack, a coroutine) and is not counted,
// as in Valgrind.
//
// Where a leave goes back to. Both probes pass the function's stack
// pointer and the one its caller has (the return address's slot + 8, as
// computed where the probe sits). An enter pushes a shadow entry: the
// function's own pointer, and its caller's -- the lower of the last
// event's pointer and the computed one, so that:
//  - normally they are equal;
//  - uninstrumented frames between an instrumented caller and the function
//    (qsort calling a comparator) make the computed one lower, and right;
//  - a function inlined after the pass ran (LTO) computes its host's
//    caller's pointer, higher; the last event's, its host's own, is right;
//  - a last event deeper than the new frame (at a lower address) is
//    stale: frames went without their leave (longjmp, an exception), and
//    the computed pointer is used.
// A leave pops its function's entry and goes back to the lower of the
// entry's caller pointer and the one it computed itself. Entries whose own
// pointer lies below the current one belong to frames left without their
// leave: enter and leave drop them first. A thread deeper than the
// shadow's capacity falls back to the computed pointer for the frames
// beyond it.
//
//===----------------------------------------------------------------------===//

#include "StackProbes.h"

#include "Arena.h"
#include "Counters.h"
#include "EventRing.h"
#include "Messages.h"
#include "OutFile.h"
#include "ProbeHooks.h"
#include "Record.h"
#include "StackSleds.h"
#include "State.h"
#include "Unwind.h"

#include "massif/abi.h"

#include <pthread.h>
#include <unistd.h>

using namespace massif;
using namespace massif::native;

extern "C" {
// The marker every probed module defines (llvm-pass/RuntimeSymbols.cpp).
extern const char
    StackProbesLinkedMarker __asm__(MASSIF_ABI_STACK_PROBES_LINKED_SYMBOL)
        __attribute__((weak, visibility("default")));
}

StackHot *native::ProbeHot = nullptr;

namespace {

constexpr size_t ShadowB = ShadowCap * sizeof(ShadowEntry);

/// The calling thread's probe state (ThreadArea.h).
__attribute__((always_inline)) inline ProbeState &ownProbes() {
  return threadArea().Probes;
}

/// How a probe reads the clock without a call: the byte clock is the
/// model's own; the instruction clock is one add while the process has
/// one thread; the millisecond clock always takes the locked path.
enum class ProbeClockKind : uint8_t { Locked, Bytes, Instructions };
ProbeClockKind ProbeClock = ProbeClockKind::Locked;

pthread_key_t ShadowKey;
pthread_once_t ShadowKeyOnce = PTHREAD_ONCE_INIT;

void releaseShadow(void *P) {
  ThreadArea &A = threadArea();
  A.StackProbesOn = 0;
  A.Probes.Shadow = nullptr;
  arenaDeallocate(P, ShadowB);
}

void createShadowKey() { pthread_key_create(&ShadowKey, releaseShadow); }

/// Turns the probes on in the calling thread, whose stack is taken to be
/// empty at \p TopSP, if the runtime is active with --stacks=yes.
void startProbes(uintptr_t TopSP) {
  ThreadState *T = beginEvent(); // initialises the runtime if need be
  if (!T)
    return;
  bool On = TheModel.Opts->Stacks;
  ProbeState &P = ownProbes();
  if (On && !P.Shadow) {
    // pthread_setspecific may allocate: inside the event, it forwards.
    pthread_once(&ShadowKeyOnce, createShadowKey);
    P.Shadow = (ShadowEntry *)arenaAllocate(ShadowB);
    if (P.Shadow)
      pthread_setspecific(ShadowKey, P.Shadow);
  }
  ProbeHot = TheModel.Prof->stackHot();
  switch (TheModel.Opts->TimeUnit) {
  case TimeUnit::Bytes:
    ProbeClock = ProbeClockKind::Bytes;
    break;
  case TimeUnit::Instructions:
    ProbeClock = ProbeClockKind::Instructions;
    break;
  case TimeUnit::Milliseconds:
    ProbeClock = ProbeClockKind::Locked;
    break;
  }
  endEvent(*T);
  if (!On)
    return;
  P.LastSP = TopSP;
  P.Depth = 0;
  threadArea().StackProbesOn =
      ProbeClock == ProbeClockKind::Instructions ? ProbesOnInstructions
      : ProbeClock == ProbeClockKind::Bytes      ? ProbesOnBytes
                                                 : ProbesOn;
}

/// The change of the stack the hook could not apply itself: once the
/// process has threads, into the thread's ring (EventRing.h), whose order
/// the model keeps; else, when it may take a snapshot, under the model's
/// lock.
void stackDeltaElsewhere(int64_t GrowthB) {
  if (ringStackDelta(GrowthB))
    return;
  ModelLock L;
  if (__atomic_load_n(&TheState, __ATOMIC_ACQUIRE) == StateActive) {
    catchUpFor(0);
    TheModel.Prof->onStackDelta(GrowthB);
  }
}

// The hooks' ways out to ordinary functions, which may clobber any
// scratch register: these save them (preserve_all), so the hooks' common
// path, which calls nothing else, saves only what it uses.
__attribute__((preserve_all, noinline)) void
stackDeltaElsewherePreserving(int64_t GrowthB) {
  stackDeltaElsewhere(GrowthB);
}

__attribute__((preserve_all, noinline)) void deliverPendingPreserving() {
  deliverPendingSignal();
}

/// Makes \p SP the thread's stack pointer: growth or shrink of the stack.
/// While the process has one thread and no snapshot is due, the model
/// takes the change without a lock (Profile::tryStackDelta).
MASSIF_PRESERVE_ALL __attribute__((always_inline)) inline void
moveTo(ProbeState &P, uintptr_t SP) {
  int64_t GrowthB = (int64_t)(P.LastSP - SP);
  uint64_t SizeB = GrowthB < 0 ? (uint64_t)-GrowthB : (uint64_t)GrowthB;
  P.LastSP = SP;
  if (GrowthB == 0 || SizeB > MaxStackFrameB ||
      __atomic_load_n(&TheState, __ATOMIC_ACQUIRE) != StateActive)
    return;
  uint64_t Now = 0;
  bool Fast = ProbeClock != ProbeClockKind::Locked &&
              __atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED);
  if (Fast && ProbeClock == ProbeClockKind::Instructions) {
    Now = singleThreadInstructions();
    Fast = Now != NoSingleThreadClock;
  }
  if (!Fast || !tryStackDelta(*ProbeHot, GrowthB, Now))
    stackDeltaElsewherePreserving(GrowthB);
}

/// Drops the entries of frames below \p SP: left without their leave.
MASSIF_PRESERVE_ALL __attribute__((always_inline)) inline void
dropStale(ProbeState &P, uintptr_t SP) {
  while (P.Depth && P.Shadow[P.Depth - 1].OwnSP < SP)
    --P.Depth;
}

} // namespace

void native::startThreadStack(uintptr_t TopSP) { startProbes(TopSP); }

/// The start and end of a probe's event. Probes in code the runtime itself
/// called (the program's operator new) are not events. The runtime is
/// initialised: probes run only after startProbes.
static MASSIF_PRESERVE_ALL inline bool beginProbe(ThreadState &T) {
  if (T.InRuntime)
    return false;
  T.InRuntime = true;
  return true;
}

static MASSIF_PRESERVE_ALL inline void endProbe(ThreadState &T) {
  T.InRuntime = false;
  __atomic_signal_fence(__ATOMIC_SEQ_CST); // a handler sees the store first
  if (__builtin_expect(__atomic_load_n(&PendingSignal, __ATOMIC_RELAXED), 0))
    deliverPendingPreserving();
}

/// What the hooks do with the flag set, given the probed function's stack
/// pointer and its caller's.
MASSIF_PRESERVE_ALL __attribute__((always_inline)) inline void
enterFrame(void *StackPointer, void *CallerStackPointer) {
  ThreadState &T = thisThread();
  if (!beginProbe(T))
    return;
  ProbeState &P = ownProbes();
  uintptr_t SP = (uintptr_t)StackPointer;
  uintptr_t CallerSP = (uintptr_t)CallerStackPointer;
  // The last event's stack pointer is normally the caller's; an inlined
  // function's computed one is its host's caller's, higher. A last event
  // deeper than this frame is stale: frames went without their leave.
  if (P.LastSP >= SP && P.LastSP < CallerSP)
    CallerSP = P.LastSP;
  if (P.Shadow) {
    dropStale(P, SP);
    if (P.Depth < ShadowCap)
      P.Shadow[P.Depth++] = ShadowEntry{CallerSP, SP};
  }
  moveTo(P, SP);
  endProbe(T);
}

MASSIF_PRESERVE_ALL __attribute__((always_inline)) inline void
leaveFrame(void *StackPointer, void *CallerStackPointer) {
  ThreadState &T = thisThread();
  if (!beginProbe(T))
    return;
  ProbeState &P = ownProbes();
  uintptr_t Target = (uintptr_t)CallerStackPointer;
  if (P.Shadow) {
    dropStale(P, (uintptr_t)StackPointer);
    if (P.Depth) {
      uintptr_t Entry = P.Shadow[--P.Depth].CallerSP;
      if (Entry < Target)
        Target = Entry;
    }
  }
  moveTo(P, Target);
  endProbe(T);
}

/// The hooks with the flag set. They save every register they use
/// (preserve_all), as the probes' callers expect. The probe hooks of code
/// built before sleds pass both stack pointers.
extern "C" __attribute__((preserve_all, used)) void
massifStackEnterSlow(void *StackPointer, void *CallerStackPointer) {
  enterFrame(StackPointer, CallerStackPointer);
}

extern "C" __attribute__((preserve_all, used)) void
massifStackLeaveSlow(void *StackPointer, void *CallerStackPointer) {
  leaveFrame(StackPointer, CallerStackPointer);
}

#if defined(__x86_64__)
/// A patched sled's hook jumps here, so the return address above this
/// frame is the probed function's: its stack pointer lies above it, and
/// its frame pointer, saved below it by this frame's prologue, is 16 below
/// its caller's. The probed function may be a leaf, whose stack the ABI
/// does not align: the prologue aligns it.
#define MASSIF_SLED_FRAME(Body)                                                \
  uintptr_t *Frame = (uintptr_t *)__builtin_frame_address(0);                  \
  Body((void *)(Frame + 2), (void *)(Frame[0] + 16))

extern "C" __attribute__((preserve_all, force_align_arg_pointer, used)) void
massifStackSledEnter() {
  MASSIF_SLED_FRAME(enterFrame);
}

extern "C" __attribute__((preserve_all, force_align_arg_pointer, used)) void
massifStackSledLeave() {
  MASSIF_SLED_FRAME(leaveFrame);
}
#undef MASSIF_SLED_FRAME

#endif

// After the runtime's start-up (priority 101 constructors run first) and
// before the program's own constructors.
__attribute__((constructor(102))) static void startMainThreadProbes() {
  bool Linked = &StackProbesLinkedMarker != nullptr;
  ThreadState *T = beginEvent();
  if (!T)
    return;
  bool On = TheModel.Opts->Stacks;
  endEvent(*T);
  if (!On)
    return;
  if (!Linked) {
    writeLine(warningFd(),
              "massif: warning: --stacks=yes requires stack probes, and "
              "no code of this program was built with them (mscc builds "
              "with them); stack sizes stay 0");
    return;
  }
  enableStackSleds();
  startProbes(initialStackPointer());
}
