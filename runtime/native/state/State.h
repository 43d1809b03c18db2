//===- State.h - The native runtime's state and event protocol -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Every allocation entry point (interposed malloc, __massif_* entry points)
// follows one protocol:
//
//   ThreadState *T = beginEvent();      // null: forward to glibc and return
//   ... the real allocation ...
//   recordAlloc(*T, P, ReqB, AlignB, __builtin_frame_address(0));
//   endEvent(*T);
//
// beginEvent sets the calling thread's recursion guard, so anything the
// runtime itself allocates meanwhile (dlsym, pthread_getattr_np) goes
// straight to glibc and never reaches the profile. The first event of the
// process initialises the runtime; the first event of a thread finds its
// stack bounds. The record* functions (record/Record.h) capture and intern
// the stack before they take the one short lock around the model.
//
// This folder (state/) is the bottom of the native runtime: the state every
// other part reads (here, and every thread's in ThreadArea.h), and the way
// to glibc's allocator (Glibc.h, Next.h, LiveStarts.h, EmergencyHeap.h).
// It calls nothing above it but the four hooks the event protocol
// declares here: prepareEvent and ensureInitialised (start-up) and
// deliverPendingSignal, defined in lifecycle/.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_STATE_H
#define MASSIF_NATIVE_STATE_H

#include "Glibc.h"
#include "Lock.h"
#include "Options.h"
#include "Profile.h"
#include "StackDepot.h"
#include "ThreadArea.h"

#include <stddef.h>
#include <stdint.h>

#define MASSIF_EXPORT __attribute__((visibility("default")))

namespace massif {
namespace native {

// The runtime's own globals are hidden: code reaches them PC-relative,
// not through the GOT (the archive is built -fPIC).
#define MASSIF_HIDDEN __attribute__((visibility("hidden")))

/// The calling thread's state of the event protocol (ThreadArea.h).
__attribute__((always_inline)) inline ThreadState &thisThread() {
  return threadArea().Thread;
}

/// Marks the calling thread inside the runtime for a scope, as it was
/// before at the end: what glibc's functions allocate meanwhile (dlsym,
/// pthread_key_create, ...) goes to glibc, out of the profile.
class InsideRuntime {
public:
  InsideRuntime() : T(thisThread()), Was(T.InRuntime) { T.InRuntime = true; }
  ~InsideRuntime() { T.InRuntime = Was; }
  InsideRuntime(const InsideRuntime &) = delete;
  InsideRuntime &operator=(const InsideRuntime &) = delete;

private:
  ThreadState &T;
  bool Was;
};

enum RuntimeState : uint32_t {
  StateUninitialised, ///< no event seen yet
  StateInitialising,  ///< one thread is setting up
  StateActive,        ///< events are recorded
  StateFinished,      ///< the profile was written; events forward
  StateDisabled,      ///< initialisation failed; events forward
};

/// The process-wide state word, read on every event.
extern uint32_t TheState MASSIF_HIDDEN;

/// The model and what events need to feed it. Set up once by the first
/// event; Lock serialises every call into Prof.
struct Model {
  Mutex Lock;              ///< taken through ModelLock
  ThreadState *Owner;      ///< the thread holding Lock, or null
  // What every event reads, a cache line apart from the lock, which the
  // model's thread (record/Applier.h) writes at every batch.
  alignas(64) Options *Opts;
  StackDepot *Depot;
  Profile *Prof;
  uint32_t CaptureMax; ///< frames to capture (lifecycle/Start.cpp, captureMax)
  uint64_t MallocAlignB; ///< --alignment, the alignment of plain malloc
  /// Stacks end at main's frame: Massif cuts below main, unless main is
  /// an --alloc-fn (then one frame below it is kept).
  bool StopAtMain;
  /// --xtree-memory=full: a free's stack is captured too (the freed bytes
  /// are charged to it).
  bool XtreeFull;
};

extern Model TheModel MASSIF_HIDDEN;

/// Holds the model's lock for a scope, and says which thread holds it (a
/// fault inside glibc's allocator may come while this thread holds it).
class ModelLock {
public:
  ModelLock() { acquire(); }
  ~ModelLock() { release(); }
  ModelLock(const ModelLock &) = delete;
  ModelLock &operator=(const ModelLock &) = delete;

  static void acquire() {
    TheModel.Lock.lock();
    TheModel.Owner = &thisThread();
  }
  static bool tryAcquire() {
    if (!TheModel.Lock.tryLock())
      return false;
    TheModel.Owner = &thisThread();
    return true;
  }
  static void release() {
    TheModel.Owner = nullptr;
    TheModel.Lock.unlock();
  }
  /// Whether the calling thread holds the lock.
  static bool heldHere() {
    return __atomic_load_n(&TheModel.Owner, __ATOMIC_RELAXED) == &thisThread();
  }
};

/// Calls glibc's allocator through F with the thread marked as inside it:
/// a fault or an abort there comes from glibc's own checks of a corrupted
/// heap, and the model is whole (lifecycle/Write.cpp writes the profile anyway).
template <typename Fn> MASSIF_ALWAYS_INLINE auto inGlibc(Fn F) {
  ThreadState &T = thisThread();
  T.InGlibc = true;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  auto R = F();
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  T.InGlibc = false;
  return R;
}

// glibc's allocator (Glibc.h), called through inGlibc.
MASSIF_ALWAYS_INLINE void *glibcMalloc(size_t SizeB) {
  return inGlibc([&] { return libcMalloc(SizeB); });
}
MASSIF_ALWAYS_INLINE void *glibcCalloc(size_t Count, size_t SizeB) {
  return inGlibc([&] { return libcCalloc(Count, SizeB); });
}
MASSIF_ALWAYS_INLINE void *glibcRealloc(void *P, size_t SizeB) {
  return inGlibc([&] { return libcRealloc(P, SizeB); });
}
MASSIF_ALWAYS_INLINE void *glibcMemalign(size_t AlignB, size_t SizeB) {
  return inGlibc([&] { return libcMemalign(AlignB, SizeB); });
}
MASSIF_ALWAYS_INLINE void *glibcValloc(size_t SizeB, bool RoundUp) {
  return inGlibc(
      [&] { return RoundUp ? libcPvalloc(SizeB) : libcValloc(SizeB); });
}
MASSIF_ALWAYS_INLINE size_t glibcUsableSize(void *P) {
  return inGlibc([&] { return libcUsableSize(P); });
}
MASSIF_ALWAYS_INLINE void glibcFree(void *P) {
  // After a fault in glibc's allocator the writer leaves its heap alone.
  if (__builtin_expect(thisThread().Emergency, 0))
    return;
  inGlibc([&] {
    libcFree(P);
    return 0;
  });
}

/// Slow half of beginEvent: starts the runtime and this thread. Defined
/// by the runtime's start-up (lifecycle/Start.cpp): with deliverPendingSignal
/// below, the one call from this layer up. Returns false when the event must
/// be forwarded.
bool prepareEvent(ThreadState &T);

/// Starts the runtime once (lifecycle/Start.cpp); other threads wait for
/// the first. Whether it is active.
bool ensureInitialised();

/// Starts an event; returns null when it must only be forwarded to glibc
/// (the runtime is busy on this thread, finished, or disabled).
MASSIF_ALWAYS_INLINE ThreadState *beginEvent() {
  ThreadState &T = thisThread();
  if (T.InRuntime)
    return nullptr;
  T.InRuntime = true;
  if (__builtin_expect(__atomic_load_n(&TheState, __ATOMIC_ACQUIRE) !=
                               StateActive ||
                           !T.StackKnown,
                       0) &&
      !prepareEvent(T)) {
    T.InRuntime = false;
    return nullptr;
  }
  return &T;
}

/// Runs the monitor command Line (runtime/core/control/Monitor.h) now, on the
/// calling thread, which must be outside the runtime (lifecycle/Monitor.cpp);
/// the reply goes to ReplyTo. Returns a control::ReplyStatus
/// (support/ControlChannel.h): 0 done, 1 not recognised (or no model is
/// active), 2 done but its file could not be written.
int runMonitorCommand(const char *Line, const Sink &ReplyTo);

/// A fatal signal that arrived while its thread was inside the runtime,
/// waiting for that thread to leave (lifecycle/Signals.cpp), and
/// control::RequestBit when ms_control asks for a monitor command
/// (lifecycle/Control.cpp, which maps this word's page); 0 when none.
extern int PendingSignal MASSIF_HIDDEN;

/// Writes the profile and dies of PendingSignal (lifecycle/Signals.cpp).
void deliverPendingSignal();

MASSIF_ALWAYS_INLINE void endEvent(ThreadState &T) {
  T.InRuntime = false;
  __atomic_signal_fence(__ATOMIC_SEQ_CST); // a handler sees the store first
  if (__builtin_expect(__atomic_load_n(&PendingSignal, __ATOMIC_RELAXED), 0))
    deliverPendingSignal();
}

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_STATE_H
