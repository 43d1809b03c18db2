//===- Lock.cpp - A futex mutex that never allocates ----------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The paths of Mutex once the process has threads: a compare-and-swap, a
// short spin (the model's critical sections are a
// few hundred nanoseconds) and then FUTEX_WAIT, so a thread that waits while
// the profile is being written does not burn a core.
//
//===----------------------------------------------------------------------===//

#include "Lock.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace massif;

bool massif::RuntimeThreads = false;

static void futexWait(uint32_t *Addr, uint32_t Expected) {
  syscall(SYS_futex, Addr, FUTEX_WAIT_PRIVATE, Expected, nullptr, nullptr, 0);
}

static void futexWake(uint32_t *Addr) {
  syscall(SYS_futex, Addr, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

void Mutex::lockShared() {
  uint32_t Expected = 0;
  if (__atomic_compare_exchange_n(&State, &Expected, 1u, false,
                                  __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return;
  for (int Spin = 0; Spin < 100; ++Spin) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    Expected = 0;
    if (__atomic_compare_exchange_n(&State, &Expected, 1u, false,
                                    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
      return;
  }
  // Mark the mutex contended; whoever unlocks it then wakes a waiter.
  while (__atomic_exchange_n(&State, 2u, __ATOMIC_ACQUIRE) != 0)
    futexWait(&State, 2);
}

void Mutex::unlockShared() {
  if (__atomic_exchange_n(&State, 0u, __ATOMIC_RELEASE) == 2)
    futexWake(&State);
}
