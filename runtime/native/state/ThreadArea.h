//===- ThreadArea.h - The runtime's per-thread state, beside the TCB -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Every thread's state of the runtime, and the two words instrumented code
// writes (include/massif/abi.h), live in one struct at a fixed offset from
// the thread pointer, not in ELF TLS. A TLS variable in the executable
// makes it a TLS module of its own when the program has none: the loader
// then gives each thread a DTV one slot (16 bytes) longer than the native
// build's, a block Massif shows in the profile. glibc's x86-64 thread
// control block (tcbhead_t) keeps 512 bytes at %fs:0x80 that it no longer
// uses (__glibc_unused2, kept so that its size stays the same); the area
// is there.
//
// glibc zeroes that memory for a new thread only when it maps a new stack;
// a thread that reuses a cached stack finds the area as the last thread on
// that stack left it. So:
//   - the thread start of the runtime's pthread_create (interpose/
//     Threads.cpp) clears the area before the program's routine runs;
//   - a thread that glibc starts without it (SIGEV_THREAD timers, ...)
//     may find the flags a finished thread set. Each flag that says "this
//     thread has ended" is read together with Tid, the thread that set it
//     (adoptIfStale below): another thread's flag clears the area.
//
// Reading the area is a load of the thread pointer (%fs:0) and an offset,
// as an initial-exec TLS variable costs.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_THREAD_AREA_H
#define MASSIF_NATIVE_THREAD_AREA_H

#include "massif/abi.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace massif {
namespace native {

/// Per-thread state of the event protocol (State.h).
struct ThreadState {
  bool InRuntime;          ///< recursion guard: forward everything to glibc
  bool InGlibc;            ///< inside glibc's allocator, called by ours
  bool Emergency;          ///< writing after a fault in glibc's allocator:
                           ///< allocate from EmergencyHeap.h, not glibc
  bool StackKnown;         ///< the stack bounds have been looked up
  uintptr_t StackLo;       ///< lowest address of this thread's stack
  uintptr_t StackHi;       ///< one past the top of this thread's stack
  const void *ResumeFrame; ///< see UnwindStart::ResumeFrame
  /// Under ms_memusage (interpose/Memusage.h): the thread's start position
  /// in memusage's count, and how far the runtime's own frames currently
  /// push the thread's calls below where the plain build makes them.
  uintptr_t MemusageStart;
  uintptr_t MemusageShift;
};

struct ShadowEntry;
struct Ring;
struct CaptureCache;
struct CounterSlot;

/// A thread's stack-probe state (stacks/StackProbes.cpp).
struct ProbeState {
  uintptr_t LastSP;    ///< the stack pointer of the last event (or the top)
  ShadowEntry *Shadow; ///< the frames entered and not yet left
  uint32_t Depth;      ///< entries in Shadow
};

/// A thread's last reading of the millisecond clock, and the time-stamp
/// counter's value before which the clock cannot have moved on
/// (record/Counters.cpp: millisecondClock).
struct MsReading {
  uint64_t Ms;
  uint64_t UntilTsc;
};

struct ThreadArea {
  // The contract's words, at the offsets abi.h gives.
  unsigned long long Instructions; ///< MASSIF_ABI_THREAD_INSTRUCTIONS_OFFSET
  unsigned char StackProbesOn;     ///< MASSIF_ABI_STACK_PROBES_FLAG_OFFSET

  // What each part has ended for this thread (set by its key's
  // destructor; see adoptIfStale).
  bool CounterExited; ///< record/Counters.cpp: the count is in the total
  bool RingRetired;   ///< record/EventRing.cpp: the ring is gone
  bool CacheReleased; ///< unwind/UnwindMemo.cpp: the memos are gone
  pid_t Tid;          ///< the thread that set those flags

  ThreadState Thread;     ///< State.h
  ProbeState Probes;      ///< stacks/StackProbes.cpp
  Ring *OwnRing;          ///< record/EventRing.cpp
  CaptureCache *Cache;    ///< unwind/UnwindMemo.cpp
  CounterSlot *Counter;   ///< record/Counters.cpp
  MsReading Ms;           ///< record/Counters.cpp
};

static_assert(offsetof(ThreadArea, Instructions) ==
                  MASSIF_ABI_THREAD_INSTRUCTIONS_OFFSET -
                      MASSIF_ABI_THREAD_AREA_OFFSET,
              "abi.h places the counter");
static_assert(offsetof(ThreadArea, StackProbesOn) ==
                  MASSIF_ABI_STACK_PROBES_FLAG_OFFSET -
                      MASSIF_ABI_THREAD_AREA_OFFSET,
              "abi.h places the probes' flag");
static_assert(sizeof(ThreadArea) <= MASSIF_ABI_THREAD_AREA_SIZE,
              "the area glibc leaves unused");

/// The calling thread's area. The thread pointer's first word is the
/// pointer itself (the x86-64 TLS ABI), so one load finds it; the asm is
/// not volatile, so a function loads it once.
__attribute__((always_inline)) inline ThreadArea &threadArea() {
  char *TP;
  __asm__("movq %%fs:0, %0" : "=r"(TP));
  return *reinterpret_cast<ThreadArea *>(TP + MASSIF_ABI_THREAD_AREA_OFFSET);
}

/// The kernel's id of the calling thread (a system call).
inline pid_t currentTid() { return (pid_t)syscall(SYS_gettid); }

/// Clears the area for a thread that starts (the runtime's thread start).
inline void startThreadArea(ThreadArea &A) { memset(&A, 0, sizeof(A)); }

/// Marks a part as ended for the calling thread (\p Flag, one of the
/// area's flags).
inline void markEnded(ThreadArea &A, bool ThreadArea::*Flag) {
  if (A.Tid == 0)
    A.Tid = currentTid();
  A.*Flag = true;
}

/// Called where an "ended" flag was found set: true if the calling thread
/// set it. Otherwise a finished thread left it on this stack: the parts'
/// state is cleared for the calling thread, which may be inside an event
/// (Thread is the event protocol's, and the stack bounds are this stack's)
/// and may have counted already (the finished thread's count left the
/// counter when it went into the total).
inline bool endedHere(ThreadArea &A) {
  if (A.Tid == currentTid())
    return true;
  A.StackProbesOn = 0;
  A.CounterExited = A.RingRetired = A.CacheReleased = false;
  A.Tid = 0;
  A.Probes = ProbeState{};
  A.OwnRing = nullptr;
  A.Cache = nullptr;
  A.Counter = nullptr;
  return false;
}

/// After fork, the child's only thread has a new id.
inline void threadAreaAfterForkChild() {
  ThreadArea &A = threadArea();
  if (A.Tid != 0)
    A.Tid = currentTid();
}

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_THREAD_AREA_H
