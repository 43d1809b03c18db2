//===- Counters.cpp - The instruction clock for --time-unit=i -------------===//
//
// Part of massif-native, under the MIT licence.
//
// Code built with counters (the pass's -massif-count-instructions, on by
// default in mscc) adds each basic block's instruction count to the running
// thread's __massif_thread_instructions, defined here. Massif's clock for
// --time-unit=i is the number of instructions the whole process has run, so
// the runtime sums the counters of every live thread and adds what threads
// that have exited had counted.
//
// Each thread's counter is registered when the thread starts (Threads.cpp
// wraps pthread_create) or, for the main thread and any thread that started
// otherwise, at its first reading of the clock. A pthread key destructor
// moves the counter's final value into the exited total under the registry
// lock, so the sum never goes backwards. Instructions a thread runs after
// that destructor (in later destructors) are not counted.
//
// Lock order: the model's lock, then the registry's (the clock is read
// inside the model); fork takes them in that order too (Fork.h).
//
//===----------------------------------------------------------------------===//

#include "Counters.h"

#include "Arena.h"
#include "Lock.h"
#include "State.h"

#include "massif/abi.h"

#include <pthread.h>
#include <time.h>

using namespace massif;
using namespace massif::native;

extern "C" {
// The marker every counted module defines (llvm-pass/Markers.cpp); absent
// (null) when no linked code counts.
extern const char CountersLinkedMarker __asm__(
    MASSIF_ABI_COUNTERS_LINKED_SYMBOL)
    __attribute__((weak, visibility("default")));
}

uint64_t native::ExitedInstructions = 0; // what exited threads had counted

/// A registered thread's counter, in the list the clock sums.
struct native::CounterSlot {
  const unsigned long long *Counter;
  CounterSlot *Next;
  CounterSlot *Prev;
};

namespace {

using Slot = CounterSlot;

/// Taken by the model's thread at every batch: a line of its own.
alignas(64) Mutex RegistryLock;
Slot *Live = nullptr;     // the registered threads' counters
Slot *Spare = nullptr;    // slots of exited threads, for reuse
bool Ready = false;       // the key exists
pthread_key_t ExitKey;

void unlink(Slot *S) {
  if (S->Prev)
    S->Prev->Next = S->Next;
  else
    Live = S->Next;
  if (S->Next)
    S->Next->Prev = S->Prev;
  S->Next = Spare;
  S->Prev = nullptr;
  Spare = S;
}

// The count moves into the total and leaves the counter: what a later
// thread on this stack finds there is its own (ThreadArea.h).
void onThreadExit(void *P) {
  Slot *S = (Slot *)P;
  ThreadArea &A = threadArea();
  MutexLock L(RegistryLock);
  ExitedInstructions += __atomic_load_n(S->Counter, __ATOMIC_RELAXED);
  __atomic_store_n(&A.Instructions, 0, __ATOMIC_RELAXED);
  unlink(S);
  A.Counter = nullptr;
  markEnded(A, &ThreadArea::CounterExited);
}

} // namespace

void native::countersBeforeFork() { RegistryLock.lock(); }

void native::countersAfterForkParent() { RegistryLock.unlock(); }

// Only the forking thread lives on in the child. The others' counts stay
// in the total, as Valgrind's child continues the parent's count.
void native::countersAfterForkChild() {
  RegistryLock.reset();
  Slot *S = Live;
  while (S) {
    Slot *Next = S->Next;
    if (S != threadArea().Counter) {
      ExitedInstructions += *S->Counter;
      unlink(S);
    }
    S = Next;
  }
}

/// The registration itself, once per thread.
__attribute__((noinline)) static void registerSlow() {
  // pthread_key_create and pthread_setspecific may allocate: keep that out
  // of the profile.
  InsideRuntime Inside;
  Slot *S = nullptr;
  {
    MutexLock L(RegistryLock);
    if (!Ready)
      Ready = pthread_key_create(&ExitKey, onThreadExit) == 0;
    if (Ready) {
      if (Spare) {
        S = Spare;
        Spare = S->Next;
      } else {
        S = (Slot *)arenaAllocate(sizeof(Slot));
      }
    }
    if (S) {
      S->Counter = &threadArea().Instructions;
      S->Prev = nullptr;
      S->Next = Live;
      if (Live)
        Live->Prev = S;
      Live = S;
      threadArea().Counter = S;
    }
  }
  if (S)
    pthread_setspecific(ExitKey, S);
}

void native::registerThreadCounter() {
  ThreadArea &A = threadArea();
  if (__builtin_expect(A.Counter != nullptr, 1))
    return;
  if (A.CounterExited && endedHere(A))
    return;
  registerSlow();
}

bool native::instructionCountersLinked() {
  return &CountersLinkedMarker != nullptr;
}

/// The instructions the process has run in counted code so far: Massif's
/// clock for --time-unit=i.
extern "C" MASSIF_EXPORT uint64_t __massif_instructions_total(void) {
  registerThreadCounter();
  uint64_t Now = singleThreadInstructions();
  if (Now != NoSingleThreadClock)
    return Now;
  MutexLock L(RegistryLock);
  uint64_t Sum = ExitedInstructions;
  for (const Slot *S = Live; S; S = S->Next)
    Sum += __atomic_load_n(S->Counter, __ATOMIC_RELAXED);
  return Sum;
}

uint64_t native::instructionsBesides(const unsigned long long *Except) {
  MutexLock L(RegistryLock);
  uint64_t Sum = ExitedInstructions;
  for (const Slot *S = Live; S; S = S->Next)
    if (S->Counter != Except)
      Sum += __atomic_load_n(S->Counter, __ATOMIC_RELAXED);
  return Sum;
}

// The main thread counts from the start, whether or not it ever reads the
// clock itself.
__attribute__((constructor(101))) static void registerMainThread() {
  registerThreadCounter();
}

//===-- The millisecond clock ---------------------------------------------===//

namespace {

/// Counter ticks per nanosecond, times 2^16, taken 1% low so that a
/// deadline worked out from it comes early rather than late; 0 until
/// measured, or for good when the counter is not invariant.
uint64_t TicksPerNs16 = 0;
/// The counter and the clock at start-up (startMillisecondClock); the rate
/// is measured against them once 16 ms have passed.
uint64_t StartTsc = 0, StartNs = 0;
constexpr uint64_t RateAfterNs = 16 * 1000 * 1000;

uint64_t monotonicNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return (uint64_t)T.tv_sec * 1000000000 + (uint64_t)T.tv_nsec;
}

/// Whether the time-stamp counter ticks at one rate on every core, in
/// every power state (CPUID 0x80000007, EDX bit 8).
bool invariantTsc() {
  unsigned Max, B, C, D;
  __asm__("cpuid" : "=a"(Max), "=b"(B), "=c"(C), "=d"(D) : "a"(0x80000000u));
  if (Max < 0x80000007u)
    return false;
  unsigned A;
  __asm__("cpuid" : "=a"(A), "=b"(B), "=c"(C), "=d"(D) : "a"(0x80000007u));
  return (D >> 8) & 1;
}

} // namespace

void native::startMillisecondClock() {
  if (!invariantTsc())
    return;
  StartTsc = __builtin_ia32_rdtsc();
  StartNs = monotonicNs();
}

uint64_t native::millisecondClock() {
  MsReading &Last = threadArea().Ms;
  // Read first, so that the deadline below, worked out from the clock read
  // after it, comes early.
  uint64_t Tsc = __builtin_ia32_rdtsc();
  if (Tsc < Last.UntilTsc)
    return Last.Ms;
  uint64_t Ns = monotonicNs();
  uint64_t Ms = Ns / 1000000;
  uint64_t Rate = __atomic_load_n(&TicksPerNs16, __ATOMIC_RELAXED);
  if (Rate == 0 && StartNs != 0 && Ns - StartNs >= RateAfterNs &&
      Tsc > StartTsc) {
    // In 128 bits: the first reading after the 16 ms may come days later.
    Rate = uint64_t(((unsigned __int128)(Tsc - StartTsc) << 16) /
                    (Ns - StartNs) / 100 * 99);
    __atomic_store_n(&TicksPerNs16, Rate, __ATOMIC_RELAXED);
  }
  Last.Ms = Ms;
  Last.UntilTsc = Rate ? Tsc + (((Ms + 1) * 1000000 - Ns) * Rate >> 16) : 0;
  return Ms;
}
