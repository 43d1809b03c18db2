//===- Freestanding.cpp - The C functions the model calls -----------------===//
//
// Part of massif-native's Valgrind tool, under the GNU GPL, version 2 or
// later (see LICENSE in this folder).
//
// A Valgrind tool links no C library. runtime/core needs a few string
// functions (its check-core-symbols test lists them); Valgrind's core
// defines memcpy, memset and memmove, and these come from its own libc.
//
//===----------------------------------------------------------------------===//

#include "Tool.h"

extern "C" {

size_t strlen(const char *S) { return VG_(strlen)(S); }
int strcmp(const char *A, const char *B) { return VG_(strcmp)(A, B); }
int strncmp(const char *A, const char *B, size_t N) {
  return VG_(strncmp)(A, B, N);
}
int memcmp(const void *A, const void *B, size_t N) {
  return VG_(memcmp)(A, B, N);
}
int bcmp(const void *A, const void *B, size_t N) {
  return VG_(memcmp)(A, B, N);
}

} // extern "C"
