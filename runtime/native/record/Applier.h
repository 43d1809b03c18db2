//===- Applier.h - The model's thread ---------------------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// A program of one thread that allocates a lot pays for the model (the
// block table, the replay of Valgrind's allocator, the tree and the
// snapshots) on its own thread, event by event, while the machine's other
// cores are idle. Once such a program has made enough events, the runtime
// starts a thread of its own that applies them instead: the program's
// thread only captures the stack and appends to its ring (EventRing.h),
// and the model keeps up on another core.
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
// process may use one CPU only. MASSIF_MODEL_THREAD=no keeps it from
// starting at all; =yes starts it at the first event.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_APPLIER_H
#define MASSIF_NATIVE_APPLIER_H

#include <stdint.h>

namespace massif {
namespace native {

/// Events the process has applied directly; the model's thread starts
/// when they reach ApplierStartEvents. A program that allocates little
/// never has one.
extern uint32_t DirectEvents __attribute__((visibility("hidden")));
constexpr uint32_t ApplierStartEvents = 1u << 14;

/// Whether start-up allows the model's thread (Start.cpp decides, from the
/// options and MASSIF_MODEL_THREAD); Eager starts it at the first event
/// (MASSIF_MODEL_THREAD=yes).
void allowApplier(bool Allowed, bool Eager);

/// Starts the model's thread (slow path of noteDirectEvent). Inside an
/// event, without the model's lock.
void startApplier();

/// Counts an event applied directly; starts the model's thread when the
/// program has shown it allocates a lot. Inside an event, without the
/// model's lock.
inline void noteDirectEvent() {
  if (__builtin_expect(++DirectEvents == ApplierStartEvents, 0))
    startApplier();
}

/// In a forked child (first of the child's steps, Fork.h): the model's
/// thread was the parent's.
void applierAfterForkChild();

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_APPLIER_H
