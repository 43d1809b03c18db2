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
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_ALLOCATE_H
#define MASSIF_NATIVE_ALLOCATE_H

#include "EventRing.h"
#include "Runtime.h"

#include <errno.h>
#include <string.h>

namespace massif {
namespace native {

constexpr size_t PageB = 4096;

MASSIF_ALWAYS_INLINE void *doMalloc(size_t SizeB, const void *EntryFrame) {
  ThreadState *T = beginEvent();
  void *P = __libc_malloc(SizeB);
  if (T) {
    if (P)
      recordAlloc(*T, P, SizeB, 0, EntryFrame);
    endEvent(*T);
  }
  return P;
}

MASSIF_ALWAYS_INLINE void *doCalloc(size_t Count, size_t SizeB,
                                    const void *EntryFrame) {
  ThreadState *T = beginEvent();
  void *P = __libc_calloc(Count, SizeB); // NULL on overflow
  if (T) {
    if (P)
      recordAlloc(*T, P, Count * SizeB, 0, EntryFrame);
    endEvent(*T);
  }
  return P;
}

MASSIF_ALWAYS_INLINE void doFree(void *P) {
  if (!P)
    return;
  if (ThreadState *T = beginEvent()) {
    // With threads, the free is batched and the block released once the
    // model has applied it (EventRing.h).
    if (!ringFree(P)) {
      recordFree(P);
      // Under the guard: a fatal signal raised inside glibc's free (its
      // heap checks abort) must see the thread as inside the allocator.
      __libc_free(P);
    }
    endEvent(*T);
    return;
  }
  __libc_free(P);
}

MASSIF_ALWAYS_INLINE void *doRealloc(void *P, size_t SizeB,
                                     const void *EntryFrame) {
  ThreadState *T = beginEvent();
  if (!T)
    return __libc_realloc(P, SizeB);
  void *NewP = nullptr;
  if (!P) {
    NewP = __libc_malloc(SizeB);
    if (NewP)
      recordAlloc(*T, NewP, SizeB, 0, EntryFrame);
  } else if (SizeB == 0) {
    if (!ringFree(P)) {
      recordFree(P);
      __libc_free(P);
    }
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
                                      const void *EntryFrame) {
  ThreadState *T = beginEvent();
  void *P = __libc_memalign(AlignB, SizeB);
  if (T) {
    if (P)
      recordAlloc(*T, P, SizeB, AlignB, EntryFrame);
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
  void *P = doMemalign(AlignB, SizeB, EntryFrame);
  if (!P)
    return ENOMEM;
  errno = SavedErrno;
  *Out = P;
  return 0;
}

MASSIF_ALWAYS_INLINE void *doAlignedAlloc(size_t AlignB, size_t SizeB,
                                          const void *EntryFrame) {
  if (AlignB == 0 || (AlignB & (AlignB - 1)) != 0) { // as glibc 2.36
    errno = EINVAL;
    return nullptr;
  }
  return doMemalign(AlignB, SizeB, EntryFrame);
}

/// valloc, and pvalloc recorded as a valloc of its size rounded up to a
/// page: Massif aborts the program at pvalloc, which the runtime must not.
MASSIF_ALWAYS_INLINE void *doValloc(size_t SizeB, bool RoundUp,
                                    const void *EntryFrame) {
  ThreadState *T = beginEvent();
  void *P = RoundUp ? __libc_pvalloc(SizeB) : __libc_valloc(SizeB);
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
