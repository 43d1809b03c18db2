//===- Lock.h - A futex mutex that never allocates --------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The runtime's locks: a three-state futex mutex (unlocked, locked,
// contended) in the style of Drepper's "Futexes Are Tricky". It is
// constant-initialised, never allocates and never calls into pthreads, so it
// can guard the model from inside malloc, and a forked child can reset it.
//
// While the process has one thread, no other can contend: glibc's
// __libc_single_threaded says so (it turns false in every thread creation,
// glibc's internal ones included, before the new thread runs, and never
// back), and lock and unlock are then plain stores, as glibc's own malloc
// skips its atomics; unless the runtime runs a thread of its own, which
// glibc does not know of (RuntimeThreads). A mutex taken that way and
// released after a second thread appeared is released correctly: the
// state word is the same.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SUPPORT_LOCK_H
#define MASSIF_SUPPORT_LOCK_H

#include <stdint.h>

extern "C" char __libc_single_threaded; // glibc 2.32+

namespace massif {

/// Set (and never cleared but in a forked child) when the runtime starts a
/// thread of its own, which __libc_single_threaded does not count.
extern bool RuntimeThreads;

/// Whether no other thread can contend for a lock now.
inline bool lockUncontended() {
  return __atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED) &&
         !__atomic_load_n(&RuntimeThreads, __ATOMIC_RELAXED);
}

class Mutex {
public:
  constexpr Mutex() = default;

  /// Blocks until the mutex is held; spins briefly before sleeping.
  void lock() {
    if (lockUncontended()) {
      __atomic_store_n(&State, 1u, __ATOMIC_RELAXED);
      __atomic_signal_fence(__ATOMIC_SEQ_CST);
      return;
    }
    lockShared();
  }
  /// Takes the mutex if it is free; whether it did.
  bool tryLock() {
    if (lockUncontended()) {
      lock();
      return true;
    }
    uint32_t Expected = 0;
    return __atomic_compare_exchange_n(&State, &Expected, 1u, false,
                                       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
  }
  /// Releases the mutex, waking one waiter if there is one.
  void unlock() {
    if (lockUncontended()) {
      __atomic_signal_fence(__ATOMIC_SEQ_CST);
      __atomic_store_n(&State, 0u, __ATOMIC_RELAXED);
      return;
    }
    unlockShared();
  }
  /// Forces the unlocked state (for a forked child, whose other threads are
  /// gone and cannot release what they held).
  void reset() { __atomic_store_n(&State, 0u, __ATOMIC_RELAXED); }

private:
  void lockShared();
  void unlockShared();

  uint32_t State = 0; // 0 unlocked, 1 locked, 2 locked with waiters
};

/// Holds a Mutex for the lifetime of a scope.
class MutexLock {
public:
  explicit MutexLock(Mutex &M) : M(M) { M.lock(); }
  ~MutexLock() { M.unlock(); }
  MutexLock(const MutexLock &) = delete;
  MutexLock &operator=(const MutexLock &) = delete;

private:
  Mutex &M;
};

} // namespace massif

#endif // MASSIF_SUPPORT_LOCK_H
