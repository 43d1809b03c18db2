//===- EventRing.h - Heap events batched per thread -------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// While the process has one thread, every event goes straight into the
// model (Record.cpp), and the model's lock is a plain store. Once it has
// threads, one lock around the model for each event makes them queue on
// it, and the model's memory moves between cores at every event. So from
// then on each thread appends its allocations and frees to a ring of its
// own, without a lock, and a whole ring goes into the model in one
// critical section:
//
//     thread A   malloc ──► append ──┐
//                free   ──► append ──┤   ring A [e1 e2 e3 ...]
//                                    │      │ full: lock, apply, unlock
//                                    ▼      ▼
//                          model ◄── each ring's events, in its order
//
// The model sees each thread's events in the thread's order and the
// threads' batches one after another, as Valgrind runs threads in turns.
// Three rules keep the books exact:
//
// * A freed block goes back to glibc only once the model has applied its
//   free, so no thread can be handed the same address meanwhile: an
//   address is never live twice in the model. (A block of 64 KiB or more
//   is freed directly: its memory is not held.)
// * A free that reaches the model before its block's allocation (a block
//   passed between threads, its allocation still in the other thread's
//   ring) is parked, its memory held, and applied right after that
//   allocation.
// * What must be answered from the model at once (realloc,
//   malloc_usable_size, a C++ delete, a client request) first applies the
//   thread's own ring, so its order holds; when the block is not known
//   yet, every ring is applied first. A stack change (--stacks=yes) needs
//   no answer: it goes into the ring like an allocation.
//
// Rings are applied when full, before such a direct event; all of them
// when a thread starts or ends, before the profile is
// written and in a forked child; every ring in the order the rings were
// made.
//
// A program of one thread that allocates a lot has its events applied by
// the model's thread (Applier.h) on another core: its one ring is then
// used too, and since no other thread can be handed a freed block before
// the model has seen the free in that same ring, its frees release their
// blocks at once and its reallocs are logged like the rest. Each event carries its time: the thread's instruction
// counter (--time-unit=i) or the millisecond clock (ms); the model's clock
// reads the event's time while the event is applied (eventClock).
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_EVENTRING_H
#define MASSIF_NATIVE_EVENTRING_H

#include "Base.h"
#include "Lock.h"
#include "ThreadArea.h"

#include <stddef.h>
#include <stdint.h>

namespace massif {
namespace native {

struct Ring;

/// The calling thread's ring: null until its first event once the process
/// has threads, and again after its end.
__attribute__((always_inline)) inline Ring *&ownRing() {
  return threadArea().OwnRing;
}

/// Whether the model's thread (Applier.h) applies the events of the
/// process's one thread.
extern bool ApplierRunning __attribute__((visibility("hidden")));

/// Whether the calling thread's events may go through a ring. While the
/// process has had one thread only, and no model's thread, no ring exists
/// and events are applied directly: the common case costs three loads,
/// not a call.
inline bool mayUseRing() {
  return ownRing() ||
         !__atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED) ||
         __atomic_load_n(&ApplierRunning, __ATOMIC_RELAXED);
}

/// Whether the calling thread is the process's one thread, whose events
/// the model's thread applies: its freed blocks go back to glibc at once.
inline bool singleProducer() {
  return __atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED) &&
         __atomic_load_n(&ApplierRunning, __ATOMIC_RELAXED);
}

bool ringAllocSlow(void *P, size_t ReqB, size_t AlignB, StackId Stack);
bool ringFreeSlow(void *P, StackId FreeStack);
void applyOwnRingSlow();

/// Appends a change of the calling thread's stack (--stacks=yes) to its
/// ring: the model applies it in the thread's order, as the thread's heap
/// events. False when the thread has no ring (the process has one
/// thread): apply it directly. Inside a probe's event.
bool ringStackDelta(int64_t GrowthB);

/// Logs realloc(Old) = New of ReqB bytes, done already, for the model's
/// thread (singleProducer only). Inside an event.
void ringRealloc(void *Old, void *New, size_t ReqB, StackId Stack);

/// Appends an allocation to the calling thread's ring. False when the
/// process has one thread (or the thread has no ring): apply it directly.
/// Inside an event.
inline bool ringAlloc(void *P, size_t ReqB, size_t AlignB, StackId Stack) {
  return mayUseRing() && ringAllocSlow(P, ReqB, AlignB, Stack);
}

/// Appends a free of a glibc block to the calling thread's ring; the ring
/// releases the memory once the model has applied the free. False when the
/// free must be applied, and the memory released, directly. Inside an
/// event.
inline bool ringFree(void *P, StackId FreeStack = 0) {
  return mayUseRing() && ringFreeSlow(P, FreeStack);
}

/// Applies the calling thread's ring. Model lock held.
inline void applyOwnRing() {
  if (ownRing())
    applyOwnRingSlow();
}

/// Applies every thread's ring, and releases parked frees that no ring
/// holds an allocation for. Model lock held.
void applyAllRings();

/// Applies and retires the calling thread's ring at its end; its later
/// events are applied directly.
void retireOwnRing();

/// Applies every ring as a thread starts: what the threads did before it
/// (its creator's pthread_create allocated its DTV) comes before its own
/// events in the model, as it did in time. Not an event.
void applyRingsAtThreadStart();

/// A ring event is being applied: its time is the model's clock reading.
/// Model lock held.
extern bool ApplyingRingEvent;

/// The model's clock, written at every event applied, by the model's
/// thread too: on a cache line of its own, apart from what the program's
/// threads read at every event. (With the variables the linker put after
/// it on its line, __massif_main_frame among them, which every capture
/// reads, each event applied took that line from the program's core.)
struct alignas(64) ModelClock {
  uint64_t OverrideTime; ///< the time of the ring event being applied
  uint64_t LastTime;     ///< the last reading eventClock gave (never back)
};
static_assert(sizeof(ModelClock) == 64, "the clock fills its line");
extern ModelClock TheClock __attribute__((visibility("hidden")));

/// The model's clock reading: the time of the ring event being applied,
/// else what Read reads, never less than a reading given before. Inline:
/// the model reads it at every event. Model lock held.
template <uint64_t (*Read)()> inline uint64_t eventClock() {
  uint64_t V = ApplyingRingEvent ? TheClock.OverrideTime : Read();
  if (V < TheClock.LastTime)
    V = TheClock.LastTime;
  TheClock.LastTime = V;
  return V;
}

/// The model's thread's side (Applier.cpp). applierBatch applies up to Max
/// events of the rings, if the model's lock is free: how many, or -1 when
/// the model's thread must end (the process has more threads now, or the
/// profile is written), having applied none. Called from a thread glibc
/// does not know: it must not reach glibc's allocator.
int applierBatch(uint32_t Max);

/// Across fork (Fork.h): no other thread is handing blocks of its applied
/// frees back to glibc. The child applies the rings of the threads that
/// are gone, releases their blocks and forgets them; a child of one
/// thread goes back to applying its events directly. Model lock held.
void ringsBeforeFork();
void ringsAfterForkParent();
void ringsAfterForkChild();

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_EVENTRING_H
