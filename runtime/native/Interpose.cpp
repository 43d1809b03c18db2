//===- Interpose.cpp - The malloc family, for the whole process -----------===//
//
// Part of massif-native, under the MIT licence.
//
// This archive member defines malloc and its relatives in the executable, so
// the dynamic linker binds every call in the process to them, including
// calls made inside libc (strdup, getline, stdio buffers) and other
// uninstrumented libraries. glibc's __libc_malloc and its relatives are
// defined here too, as Valgrind replaces them: a program that calls them
// gets the same answers and the same profile as through malloc. The real
// work is done by libc.so.6's own functions (Glibc.h). mallopt and
// malloc_trim stay glibc's.
//
//===----------------------------------------------------------------------===//

#include "Allocate.h"

using namespace massif::native;

#define FRAME __builtin_frame_address(0)

extern "C" {

MASSIF_EXPORT void *malloc(size_t SizeB) { return doMalloc(SizeB, FRAME); }

MASSIF_EXPORT void free(void *P) { doFree(P); }

MASSIF_EXPORT void *calloc(size_t Count, size_t SizeB) {
  return doCalloc(Count, SizeB, FRAME);
}

MASSIF_EXPORT void *realloc(void *P, size_t SizeB) {
  return doRealloc(P, SizeB, FRAME);
}

MASSIF_EXPORT void *reallocarray(void *P, size_t Count, size_t SizeB) {
  return doReallocArray(P, Count, SizeB, FRAME);
}

MASSIF_EXPORT void *memalign(size_t AlignB, size_t SizeB) {
  return doMemalign(AlignB, SizeB, FRAME);
}

MASSIF_EXPORT int posix_memalign(void **Out, size_t AlignB, size_t SizeB) {
  return doPosixMemalign(Out, AlignB, SizeB, FRAME);
}

MASSIF_EXPORT void *aligned_alloc(size_t AlignB, size_t SizeB) {
  return doAlignedAlloc(AlignB, SizeB, FRAME);
}

MASSIF_EXPORT void *valloc(size_t SizeB) { return doValloc(SizeB, false, FRAME); }

MASSIF_EXPORT void *pvalloc(size_t SizeB) { return doValloc(SizeB, true, FRAME); }

MASSIF_EXPORT size_t malloc_usable_size(void *P) {
  if (inEmergency())
    return emergencyUsableSize(P);
  ThreadState *T = beginEvent();
  size_t UsableB = usableSize(P, T != nullptr);
  if (T)
    endEvent(*T);
  return UsableB;
}

// glibc's own names for the same functions: the same functions.
#define MASSIF_ALIAS(Name, Of) __attribute__((alias(#Of))) MASSIF_EXPORT

void *__libc_malloc(size_t) MASSIF_ALIAS(__libc_malloc, malloc);
void __libc_free(void *) MASSIF_ALIAS(__libc_free, free);
void *__libc_calloc(size_t, size_t) MASSIF_ALIAS(__libc_calloc, calloc);
void *__libc_realloc(void *, size_t) MASSIF_ALIAS(__libc_realloc, realloc);
void *__libc_memalign(size_t, size_t) MASSIF_ALIAS(__libc_memalign, memalign);
void *__libc_valloc(size_t) MASSIF_ALIAS(__libc_valloc, valloc);
void *__libc_pvalloc(size_t) MASSIF_ALIAS(__libc_pvalloc, pvalloc);

} // extern "C"
