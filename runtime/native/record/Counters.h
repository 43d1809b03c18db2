//===- Counters.h - The clocks of --time-unit=i and ms ----------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The process's instruction count: every thread's counter, registered when
// the thread starts (interpose/Threads.cpp wraps pthread_create) or at its
// first reading, even in threads that never allocate. And the monotonic
// clock in milliseconds, read at every event with --time-unit=ms.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_COUNTERS_H
#define MASSIF_NATIVE_COUNTERS_H

#include "Base.h"
#include "Lock.h"
#include "ThreadArea.h"

#include "massif/abi.h"

#include <stdint.h>

namespace massif {
namespace native {

/// Adds the calling thread's instruction counter to the sum (once per
/// thread; does nothing after the thread's exit hooks ran). Counters.cpp.
void registerThreadCounter();

/// The instructions the process has run in counted code: the clock of
/// --time-unit=i (Counters.cpp).
extern "C" uint64_t __massif_instructions_total(void);

/// The monotonic clock in milliseconds (--time-unit=ms). It moves once a
/// millisecond, and clock_gettime costs a few tens of nanoseconds, more
/// than the rest of an event's logging: each thread keeps its last
/// reading with the time-stamp counter's value before which the next
/// millisecond cannot have begun, and reads the clock again only from
/// there on. (With a counter that is not invariant, or before the
/// counter's rate is known, every call reads the clock.)
uint64_t millisecondClock();

/// Notes the counter and the clock at start-up, where the counter's rate
/// is measured from at a later reading. Once, before any thread starts.
void startMillisecondClock();

/// What exited threads had counted (Counters.cpp).
extern uint64_t ExitedInstructions __attribute__((visibility("hidden")));

/// The instruction clock (__massif_instructions_total) while no thread was
/// ever created, read without a lock or a call; NoSingleThreadClock
/// otherwise. For the stack probes' hooks and the model's clock.
constexpr uint64_t NoSingleThreadClock = ~uint64_t(0);
MASSIF_PRESERVE_ALL inline uint64_t singleThreadInstructions() {
  // No thread was ever created: this one is the only one counting, and
  // nobody can race with its reading.
  const ThreadArea &A = threadArea();
  if (!__atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED) ||
      !A.Counter)
    return NoSingleThreadClock;
  return ExitedInstructions + A.Instructions;
}

/// What every thread has counted but the one whose counter is at Except:
/// the threads that exited, and the live ones now. From any thread (the
/// model's too); takes the registry's lock.
uint64_t instructionsBesides(const unsigned long long *Except);

/// Whether any linked code counts instructions (defines the pass's marker).
bool instructionCountersLinked();

/// Across fork (Fork.h): no thread is registering or retiring its counter.
/// The child adds the gone threads' counts to the exited total.
void countersBeforeFork();
void countersAfterForkParent();
void countersAfterForkChild();

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_COUNTERS_H
