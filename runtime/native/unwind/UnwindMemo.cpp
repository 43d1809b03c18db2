//===- UnwindMemo.cpp - Each thread's memos, mapped on first use ----------===//
//
// Part of massif-native, under the MIT licence.
//
// A thread's CaptureCache is mapped (zeroed: no memo valid) on its first
// capture and unmapped by a thread-specific-data destructor when it exits.
// Captures made after that, by later destructors that allocate, walk
// without memos. The pages a thread's walks never touch cost nothing.
//
//===----------------------------------------------------------------------===//

#include "UnwindMemo.h"

#include "Arena.h"

#include <pthread.h>

using namespace massif;
using namespace massif::native;

namespace {

enum : uint32_t { KeyNone, KeyCreating, KeyReady, KeyFailed };
uint32_t KeyState = KeyNone;
pthread_key_t CacheKey;

void release(void *P) {
  // In this order, a signal handler that captures meanwhile either uses
  // the cache still mapped or goes without one; it never maps another.
  ThreadArea &A = threadArea();
  markEnded(A, &ThreadArea::CacheReleased);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  A.Cache = nullptr;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  arenaDeallocate(P, sizeof(CaptureCache));
}

/// The key whose destructor releases a thread's cache, created once.
bool keyReady() {
  uint32_t S = __atomic_load_n(&KeyState, __ATOMIC_ACQUIRE);
  if (S == KeyNone) {
    uint32_t Expected = KeyNone;
    if (__atomic_compare_exchange_n(&KeyState, &Expected, KeyCreating, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
      S = pthread_key_create(&CacheKey, release) == 0 ? KeyReady : KeyFailed;
      __atomic_store_n(&KeyState, S, __ATOMIC_RELEASE);
    } else {
      S = Expected;
    }
  }
  // Another thread is creating it: this capture goes without memos.
  return S == KeyReady;
}

} // namespace

CaptureCache *native::mapCaptureCache() {
  ThreadArea &A = threadArea();
  if ((A.CacheReleased && endedHere(A)) || !keyReady())
    return nullptr;
  // pthread_setspecific may allocate; the caller is inside the runtime,
  // so that allocation is not recorded.
  auto *C = (CaptureCache *)arenaAllocate(sizeof(CaptureCache));
  if (!C)
    return nullptr;
  if (pthread_setspecific(CacheKey, C) != 0) {
    arenaDeallocate(C, sizeof(CaptureCache));
    return nullptr;
  }
  A.Cache = C;
  return C;
}
