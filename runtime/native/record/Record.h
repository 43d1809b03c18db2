//===- Record.h - Recording allocation events into the model ----*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The part of every event after the real allocation (state/State.h says
// the protocol). This folder (record/) feeds the model: the events of one
// thread applied directly or batched in its ring (EventRing.h), the
// instruction clock (Counters.h), the stack probes (StackSleds.h). It calls
// state/, unwind/ and runtime/core, nothing above.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_RECORD_H
#define MASSIF_NATIVE_RECORD_H

#include "State.h"

namespace massif {
namespace native {

/// The stack above EntryFrame, the frame of the runtime function the
/// program called, interned. Call before taking the model's lock.
StackId captureAndIntern(ThreadState &T, const void *EntryFrame);

/// The same with ReplacementPc (Symbolizer.h) as the innermost frame: the
/// frame Valgrind's malloc replacement leaves where one replacement calls
/// another.
StackId captureWithReplacementFrame(ThreadState &T, const void *EntryFrame,
                                    uint64_t ReplacementPc);

/// Records a new block of ReqB bytes at P (non-null) aligned to AlignB (0 for
/// malloc's alignment), charged to the stack above EntryFrame, below
/// ReplacementPc when not 0.
void recordAlloc(ThreadState &T, void *P, size_t ReqB, size_t AlignB,
                 const void *EntryFrame, uint64_t ReplacementPc = 0);

/// Before an event applied directly to the model, which refers to the
/// block at Addr (0: none): applies the calling thread's ring of batched
/// events (EventRing.h), so its events stay in order, and every thread's
/// when the model does not know Addr yet. Model lock held.
void catchUpFor(uint64_t Addr);

/// Records the release of P (non-null). Call before the memory is released,
/// so that no other thread can be handed P before the model forgets it.
/// FreeStack is the freeing call's stack with --xtree-memory=full, else 0.
void recordFree(void *P, StackId FreeStack = 0);

/// The stack of a free with --xtree-memory=full (freeStack's slow part).
StackId captureFreeStack(ThreadState &T, const void *EntryFrame,
                         uint64_t ReplacementPc);

/// The stack a free charges its bytes to: with --xtree-memory=full, the
/// stack above EntryFrame; otherwise 0, at the cost of one predictable
/// branch. Call before taking the model's lock.
MASSIF_ALWAYS_INLINE StackId freeStack(ThreadState &T, const void *EntryFrame,
                                       uint64_t ReplacementPc = 0) {
  if (__builtin_expect(TheModel.XtreeFull, 0))
    return captureFreeStack(T, EntryFrame, ReplacementPc);
  return 0;
}

/// Performs realloc(P, SizeB) for non-null P and non-zero SizeB and records
/// it, under the model lock so that the old address cannot be reused by
/// another thread before the model has moved the block.
void *reallocAndRecord(ThreadState &T, void *P, size_t SizeB,
                       const void *EntryFrame);

/// malloc_usable_size for P: what glibc reports, but, when Recorded (the
/// caller began an event), no more than the requested plus modelled slop
/// bytes of a block the profile knows, like Massif, yet never more than
/// is really usable.
size_t usableSize(void *P, bool Recorded);

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_RECORD_H
