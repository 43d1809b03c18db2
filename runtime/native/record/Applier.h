//===- Applier.h - The model's thread ---------------------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// A program of one thread pays for the model (the block table, the replay
// of Valgrind's allocator, the tree and the snapshots) on its own thread,
// event by event. On request (MASSIF_MODEL_THREAD=yes from the first
// event, =auto once the program has made enough), the runtime starts a
// thread of its own that applies them instead: the program's thread only
// captures the stack and appends to its ring (EventRing.h), and the model
// keeps up on another core. It is not the default: whether that pays
// depends on where the machine runs the two threads (docs/BENCHMARKS.md).
//
// The thread is the kernel's, not glibc's: glibc does not know of it, so
// __libc_single_threaded stays true and glibc's allocator and stdio keep
// their single-thread paths; the thread never calls into glibc but for
// memcpy and its kind (its thread pointer is a block of the runtime's).
// It blocks every signal, ends with the process, and is not copied into a
// forked child, which applies its events itself again. It stops, for good,
// when the program starts a thread (several threads apply their rings
// themselves: EventRing.h), and is not started with --stacks=yes (the
// probes change the totals directly), when names decide what is counted
// (--alloc-fn, --ignore-fn: the symbolizer would run on it), or when the
// process may use one CPU only.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_APPLIER_H
#define MASSIF_NATIVE_APPLIER_H

#include <stdint.h>

namespace massif {
namespace native {

/// Events still to be applied directly before the model's thread starts;
/// 0 when it is not to start (the default), so that the common event only
/// tests it. With =auto a program that allocates little never has one.
extern uint32_t DirectEventsLeft __attribute__((visibility("hidden")));
constexpr uint32_t ApplierStartEvents = 1u << 14;

/// Whether start-up allows the model's thread (Start.cpp decides, from the
/// options and MASSIF_MODEL_THREAD); Eager starts it at the first event
/// (MASSIF_MODEL_THREAD=yes).
void allowApplier(bool Allowed, bool Eager);

/// Starts the model's thread (slow path of noteDirectEvent). Inside an
/// event, without the model's lock.
void startApplier();

/// Counts an event applied directly, while the model's thread may start;
/// starts it at the last. Inside an event, without the model's lock.
inline void noteDirectEvent() {
  if (__builtin_expect(DirectEventsLeft != 0, 0) && --DirectEventsLeft == 0)
    startApplier();
}

/// In a forked child (first of the child's steps, Fork.h): the model's
/// thread was the parent's.
void applierAfterForkChild();

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_APPLIER_H
