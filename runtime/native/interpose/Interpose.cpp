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
#include "Next.h"

using namespace massif::native;

#define FRAME __builtin_frame_address(0)

extern "C" {

MASSIF_EXPORT void *MASSIF_STANDS_IN_FOR(malloc)(size_t SizeB) { return doMalloc(SizeB, FRAME); }

MASSIF_EXPORT void MASSIF_STANDS_IN_FOR(free)(void *P) { doFree(P, FRAME); }

MASSIF_EXPORT void *MASSIF_STANDS_IN_FOR(calloc)(size_t Count, size_t SizeB) {
  return doCalloc(Count, SizeB, FRAME);
}

MASSIF_EXPORT void *MASSIF_STANDS_IN_FOR(realloc)(void *P, size_t SizeB) {
  return doRealloc(P, SizeB, FRAME);
}

MASSIF_EXPORT void *MASSIF_STANDS_IN_FOR(reallocarray)(void *P, size_t Count, size_t SizeB) {
  return doReallocArray(P, Count, SizeB, FRAME);
}

MASSIF_EXPORT void *MASSIF_STANDS_IN_FOR(memalign)(size_t AlignB, size_t SizeB) {
  return doMemalign(AlignB, SizeB, FRAME);
}

MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(posix_memalign)(void **Out, size_t AlignB, size_t SizeB) {
  return doPosixMemalign(Out, AlignB, SizeB, FRAME);
}

MASSIF_EXPORT void *MASSIF_STANDS_IN_FOR(aligned_alloc)(size_t AlignB, size_t SizeB) {
  return doAlignedAlloc(AlignB, SizeB, FRAME);
}

MASSIF_EXPORT void *MASSIF_STANDS_IN_FOR(valloc)(size_t SizeB) { return doValloc(SizeB, false, FRAME); }

MASSIF_EXPORT void *MASSIF_STANDS_IN_FOR(pvalloc)(size_t SizeB) { return doValloc(SizeB, true, FRAME); }

MASSIF_EXPORT size_t MASSIF_STANDS_IN_FOR(malloc_usable_size)(void *P) {
  if (inEmergency())
    return emergencyUsableSize(P);
  ThreadState *T = beginEvent();
  size_t UsableB = usableSize(P, T != nullptr);
  if (T)
    endEvent(*T);
  return UsableB;
}

// glibc's own names for the same functions: the same functions.
#define MASSIF_ALIAS_OF(Of)                                                    \
  __attribute__((alias(MASSIF_STRINGIFY(MASSIF_STANDS_IN_FOR(Of))))) MASSIF_EXPORT

void *MASSIF_STANDS_IN_FOR(__libc_malloc)(size_t) MASSIF_ALIAS_OF(malloc);
void MASSIF_STANDS_IN_FOR(__libc_free)(void *) MASSIF_ALIAS_OF(free);
void *MASSIF_STANDS_IN_FOR(__libc_calloc)(size_t, size_t)
    MASSIF_ALIAS_OF(calloc);
void *MASSIF_STANDS_IN_FOR(__libc_realloc)(void *, size_t)
    MASSIF_ALIAS_OF(realloc);
void *MASSIF_STANDS_IN_FOR(__libc_memalign)(size_t, size_t)
    MASSIF_ALIAS_OF(memalign);
void *MASSIF_STANDS_IN_FOR(__libc_valloc)(size_t) MASSIF_ALIAS_OF(valloc);
void *MASSIF_STANDS_IN_FOR(__libc_pvalloc)(size_t) MASSIF_ALIAS_OF(pvalloc);

} // extern "C"
