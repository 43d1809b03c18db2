//===- Glibc.h - glibc's own allocator, behind the interposers --*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The executable defines malloc and its relatives, __libc_malloc and its
// relatives too (as Valgrind replaces both), so every call in the process
// binds to the runtime. The real work is glibc's: the runtime calls the
// functions libc.so.6 defines under those names, found once in its dynamic
// symbol table (Glibc.cpp) on the first call, without dlsym, which may
// allocate, or any lock.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_GLIBC_H
#define MASSIF_NATIVE_GLIBC_H

#include <stddef.h>

namespace massif {
namespace native {

/// glibc's allocation functions (libc.so.6's __libc_* and
/// malloc_usable_size).
struct GlibcAllocator {
  void *(*Malloc)(size_t SizeB);
  void (*Free)(void *P);
  void *(*Calloc)(size_t Count, size_t SizeB);
  void *(*Realloc)(void *P, size_t SizeB);
  void *(*Memalign)(size_t AlignB, size_t SizeB);
  void *(*Valloc)(size_t SizeB);
  void *(*Pvalloc)(size_t SizeB);
  size_t (*UsableSize)(void *P);
};

/// Finds glibc's functions and puts them in TheGlibc. Ends the process
/// with a message if libc.so.6 lacks one of them.
const GlibcAllocator &findGlibc();

/// glibc's functions. Until the first call finds them, each member is a
/// stand-in that finds them and calls the real one, so callers never test.
extern GlibcAllocator TheGlibc __attribute__((visibility("hidden")));

inline void *libcMalloc(size_t SizeB) {
  return __atomic_load_n(&TheGlibc.Malloc, __ATOMIC_RELAXED)(SizeB);
}
inline void libcFree(void *P) {
  __atomic_load_n(&TheGlibc.Free, __ATOMIC_RELAXED)(P);
}
inline void *libcCalloc(size_t Count, size_t SizeB) {
  return __atomic_load_n(&TheGlibc.Calloc, __ATOMIC_RELAXED)(Count, SizeB);
}
inline void *libcRealloc(void *P, size_t SizeB) {
  return __atomic_load_n(&TheGlibc.Realloc, __ATOMIC_RELAXED)(P, SizeB);
}
inline void *libcMemalign(size_t AlignB, size_t SizeB) {
  return __atomic_load_n(&TheGlibc.Memalign, __ATOMIC_RELAXED)(AlignB, SizeB);
}
inline void *libcValloc(size_t SizeB) {
  return __atomic_load_n(&TheGlibc.Valloc, __ATOMIC_RELAXED)(SizeB);
}
inline void *libcPvalloc(size_t SizeB) {
  return __atomic_load_n(&TheGlibc.Pvalloc, __ATOMIC_RELAXED)(SizeB);
}
inline size_t libcUsableSize(void *P) {
  return __atomic_load_n(&TheGlibc.UsableSize, __ATOMIC_RELAXED)(P);
}

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_GLIBC_H
