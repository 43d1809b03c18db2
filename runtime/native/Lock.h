//===- Lock.h - A futex mutex that never allocates --------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The runtime's locks: a three-state futex mutex (unlocked, locked,
// contended) in the style of Drepper's "Futexes Are Tricky". It is
// constant-initialised, never allocates and never calls into pthreads, so it
// can guard the model from inside malloc, and a forked child can reset it.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_LOCK_H
#define MASSIF_NATIVE_LOCK_H

#include <stdint.h>

namespace massif {
namespace native {

class Mutex {
public:
  constexpr Mutex() = default;

  /// Blocks until the mutex is held; spins briefly before sleeping.
  void lock();
  /// Releases the mutex, waking one waiter if there is one.
  void unlock();
  /// Forces the unlocked state (for a forked child, whose other threads are
  /// gone and cannot release what they held).
  void reset() { __atomic_store_n(&State, 0u, __ATOMIC_RELAXED); }

private:
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

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_LOCK_H
