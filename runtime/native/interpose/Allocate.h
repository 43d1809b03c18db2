//===- Allocate.h - The allocation functions, once for all entry points ---===//
//
// Part of massif-native, under the MIT licence.
//
// The body of every C allocation function, shared by the interposed symbols
// (malloc, ...) and the __massif_* entry points the pass calls. Each body is
// always inlined into the public function so that EntryFrame, that function's
// own frame, stays live while the stack is walked (a tail call into a helper
// would pop it). Behaviour follows glibc for the program and Massif for the
// profile: realloc(NULL, n) is malloc, realloc(p, 0) frees and returns NULL,
// a failed or overflowing allocation records nothing, free(NULL) is no event.
// Where glibc would abort (a second free, a free or realloc where no block
// begins), Massif's answer: the call is ignored, realloc returns NULL.
//
// This folder (interpose/) holds every function the program calls into the
// runtime by: libc's allocator and the names around it (Interpose.cpp,
// InterposeDl.cpp, Threads.cpp), the __massif_* entry points (Entry.cpp,
// EntryCxx.cpp) and the client requests. It calls record/ and below.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_ALLOCATE_H
#define MASSIF_NATIVE_ALLOCATE_H

#include "EmergencyHeap.h"
#include "EventRing.h"
#include "LiveStarts.h"
#include "Memusage.h"
#include "Record.h"
#include "State.h"

#include <errno.h>
#include <string.h>

namespace massif {
namespace native {

constexpr size_t PageB = 4096;

/// Whether the thread is writing the profile after a fault in glibc's
/// allocator: its allocations then come from EmergencyHeap.h.
MASSIF_ALWAYS_INLINE bool inEmergency() {
  return __builtin_expect(thisThread().Emergency, 0);
}

/// The result of glibc's allocation functions: a block is marked live
/// (LiveStarts.h) whether or not it is recorded.
MASSIF_ALWAYS_INLINE void *marked(void *P) {
  if (P)
    TheLiveStarts.mark(P);
  return P;
}

/// Claims P for a free: true when it begins a live block, which the
/// caller then frees. A second free is ignored silently, as Massif's
/// allocator ignores it; a free where no block begins (Massif's allocator
/// aborts there) is ignored with one warning.
MASSIF_ALWAYS_INLINE bool claimForFree(void *P) {
  Claim C = TheLiveStarts.claim(P);
  if (__builtin_expect(C == Claim::Live, 1))
    return true;
  if (C == Claim::Unknown)
    warnIgnoredFree(P);
  return false;
}

MASSIF_ALWAYS_INLINE void *doMalloc(size_t SizeB, const void *EntryFrame) {
  if (countingForMemusage())
    return memusageMalloc(SizeB, EntryFrame);
  if (inEmergency())
    return emergencyAllocate(SizeB);
  ThreadState *T = beginEvent();
  void *P = marked(glibcMalloc(SizeB));
  if (T) {
    if (P)
      recordAlloc(*T, P, SizeB, 0, EntryFrame);
    endEvent(*T);
  }
  return P;
}

MASSIF_ALWAYS_INLINE void *doCalloc(size_t Count, size_t SizeB,
                                    const void *EntryFrame) {
  if (countingForMemusage())
    return memusageCalloc(Count, SizeB, EntryFrame);
  size_t TotalB;
  if (inEmergency())
    return __builtin_mul_overflow(Count, SizeB, &TotalB)
               ? nullptr
               : emergencyAllocate(TotalB);
  ThreadState *T = beginEvent();
  void *P = marked(glibcCalloc(Count, SizeB)); // NULL on overflow
  if (T) {
    if (P)
      recordAlloc(*T, P, Count * SizeB, 0, EntryFrame);
    endEvent(*T);
  }
  return P;
}

/// The free of a claimed block: with threads batched, and the block
/// released once the model has applied it (EventRing.h). Inside an event.
MASSIF_ALWAYS_INLINE void freeClaimed(ThreadState &T, void *P,
                                      const void *EntryFrame,
                                      uint64_t ReplacementPc = 0) {
  StackId FreeStack = freeStack(T, EntryFrame, ReplacementPc);
  if (!ringFree(P, FreeStack)) {
    recordFree(P, FreeStack);
    // Under the guard: a fatal signal raised inside glibc's free (its
    // heap checks abort) must see the thread as inside the allocator.
    glibcFree(P);
  }
}

/// ReplacementPc: see recordAlloc (realloc(p, 0) frees from inside
/// Valgrind's realloc).
MASSIF_ALWAYS_INLINE void doFree(void *P, const void *EntryFrame,
                                 uint64_t ReplacementPc = 0) {
  if (countingForMemusage())
    return memusageFree(P, EntryFrame);
  if (!P || inEmergency() || !claimForFree(P))
    return;
  if (ThreadState *T = beginEvent()) {
    freeClaimed(*T, P, EntryFrame, ReplacementPc);
    endEvent(*T);
    return;
  }
  glibcFree(P);
}

/// realloc as Massif's allocator answers it: a block that is not live is
/// neither freed nor moved, and the answer is NULL (ENOMEM unless freeing).
MASSIF_ALWAYS_INLINE void *doRealloc(void *P, size_t SizeB,
                                     const void *EntryFrame) {
  if (countingForMemusage())
    return memusageRealloc(P, SizeB, EntryFrame);
  if (inEmergency())
    return emergencyReallocate(P, SizeB);
  if (P && SizeB == 0) {
    doFree(P, EntryFrame, replacement_pc::Realloc);
    return nullptr;
  }
  if (P && TheLiveStarts.claim(P) != Claim::Live) {
    errno = ENOMEM;
    return nullptr;
  }
  ThreadState *T = beginEvent();
  if (!T) {
    void *NewP = glibcRealloc(P, SizeB);
    TheLiveStarts.mark(NewP ? NewP : P); // on failure P is still live
    return NewP;
  }
  void *NewP;
  if (!P) {
    NewP = marked(glibcMalloc(SizeB));
    if (NewP)
      recordAlloc(*T, NewP, SizeB, 0, EntryFrame);
  } else {
    NewP = reallocAndRecord(*T, P, SizeB, EntryFrame);
  }
  endEvent(*T);
  return NewP;
}

MASSIF_ALWAYS_INLINE void *doReallocArray(void *P, size_t Count, size_t SizeB,
                                          const void *EntryFrame) {
  size_t TotalB;
  if (__builtin_mul_overflow(Count, SizeB, &TotalB)) {
    errno = ENOMEM;
    return nullptr;
  }
  return doRealloc(P, TotalB, EntryFrame);
}

/// memalign and the aligned forms built on it; the model charges the slop
/// of an AlignB-aligned block.
MASSIF_ALWAYS_INLINE void *doMemalign(size_t AlignB, size_t SizeB,
                                      const void *EntryFrame,
                                      uint64_t ReplacementPc = 0) {
  if (inEmergency())
    return emergencyAllocate(SizeB, AlignB);
  ThreadState *T = beginEvent();
  void *P = marked(glibcMemalign(AlignB, SizeB));
  if (T) {
    // Massif's memalign: an alignment below 16 is 16, whatever --alignment
    // says (0 would mean malloc's, which --alignment sets).
    if (P)
      recordAlloc(*T, P, SizeB, AlignB < 16 ? 16 : AlignB, EntryFrame,
                  ReplacementPc);
    endEvent(*T);
  }
  return P;
}

MASSIF_ALWAYS_INLINE int doPosixMemalign(void **Out, size_t AlignB,
                                         size_t SizeB, const void *EntryFrame) {
  // glibc's checks: a power of two multiple of sizeof(void *).
  if (AlignB % sizeof(void *) != 0 || AlignB == 0 ||
      (AlignB & (AlignB - 1)) != 0)
    return EINVAL;
  int SavedErrno = errno;
  // Valgrind's posix_memalign calls its memalign: Massif's stack keeps
  // posix_memalign's frame.
  void *P =
      doMemalign(AlignB, SizeB, EntryFrame, replacement_pc::PosixMemalign);
  if (!P)
    return ENOMEM;
  errno = SavedErrno;
  *Out = P;
  return 0;
}

/// glibc 2.36's aligned_alloc is memalign: any alignment is taken (below
/// 16 as 16, others rounded up to a power of two), as Massif's is.
MASSIF_ALWAYS_INLINE void *doAlignedAlloc(size_t AlignB, size_t SizeB,
                                          const void *EntryFrame) {
  return doMemalign(AlignB, SizeB, EntryFrame);
}

/// valloc, and pvalloc recorded as a valloc of its size rounded up to a
/// page: Massif aborts the program at pvalloc, which the runtime must not.
MASSIF_ALWAYS_INLINE void *doValloc(size_t SizeB, bool RoundUp,
                                    const void *EntryFrame) {
  if (inEmergency())
    return emergencyAllocate(SizeB, PageB);
  ThreadState *T = beginEvent();
  void *P = marked(glibcValloc(SizeB, RoundUp));
  if (T) {
    if (P)
      recordAlloc(*T, P, RoundUp ? (SizeB + PageB - 1) & ~(PageB - 1) : SizeB,
                  PageB, EntryFrame);
    endEvent(*T);
  }
  return P;
}

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_ALLOCATE_H
