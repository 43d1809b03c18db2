//===- Entry.cpp - The C entry points that instrumented code calls --------===//
//
// Part of massif-native, under the MIT licence.
//
// The pass rewrites direct calls such as malloc(n) into __massif_malloc(n)
// (include/massif/abi.h). The caller is instrumented code, built with frame
// pointers, so the frame walk from here is exact. strdup and strndup run
// glibc's own function, whose malloc call reaches the interposed malloc; the
// entry point's frame is left as the place to resume the walk, so the stack
// reads strdup <- caller <- ..., as under Valgrind, even though glibc's
// strdup keeps no frame pointer.
//
//===----------------------------------------------------------------------===//

#include "Allocate.h"

#include "massif/abi.h"

using namespace massif::native;

#define FRAME __builtin_frame_address(0)

extern "C" {

MASSIF_EXPORT extern const int __massif_abi_version_1 = MASSIF_ABI_VERSION;

MASSIF_EXPORT void *__massif_malloc(size_t SizeB) {
  return doMalloc(SizeB, FRAME);
}

MASSIF_EXPORT void *__massif_calloc(size_t Count, size_t SizeB) {
  return doCalloc(Count, SizeB, FRAME);
}

MASSIF_EXPORT void *__massif_realloc(void *P, size_t SizeB) {
  return doRealloc(P, SizeB, FRAME);
}

MASSIF_EXPORT void *__massif_reallocarray(void *P, size_t Count,
                                          size_t SizeB) {
  return doReallocArray(P, Count, SizeB, FRAME);
}

MASSIF_EXPORT void __massif_free(void *P) { doFree(P, FRAME); }

MASSIF_EXPORT void *__massif_memalign(size_t AlignB, size_t SizeB) {
  return doMemalign(AlignB, SizeB, FRAME);
}

MASSIF_EXPORT int __massif_posix_memalign(void **Out, size_t AlignB,
                                          size_t SizeB) {
  return doPosixMemalign(Out, AlignB, SizeB, FRAME);
}

MASSIF_EXPORT void *__massif_aligned_alloc(size_t AlignB, size_t SizeB) {
  return doAlignedAlloc(AlignB, SizeB, FRAME);
}

MASSIF_EXPORT void *__massif_valloc(size_t SizeB) {
  return doValloc(SizeB, false, FRAME);
}

MASSIF_EXPORT void *__massif_pvalloc(size_t SizeB) {
  return doValloc(SizeB, true, FRAME);
}

// The resume frame is set only for the duration of the libc call; a nested
// use (a signal handler calling strdup) saves and restores it.
MASSIF_EXPORT char *__massif_strdup(const char *S) {
  if (countingForMemusage()) {
    MemusageShiftScope Shift(FRAME);
    return strdup(S);
  }
  ThreadState &T = thisThread();
  const void *Saved = T.ResumeFrame;
  T.ResumeFrame = FRAME;
  char *Copy = strdup(S);
  T.ResumeFrame = Saved;
  return Copy;
}

MASSIF_EXPORT char *__massif_strndup(const char *S, size_t MaxB) {
  if (countingForMemusage()) {
    MemusageShiftScope Shift(FRAME);
    return strndup(S, MaxB);
  }
  ThreadState &T = thisThread();
  const void *Saved = T.ResumeFrame;
  T.ResumeFrame = FRAME;
  char *Copy = strndup(S, MaxB);
  T.ResumeFrame = Saved;
  return Copy;
}

} // extern "C"
