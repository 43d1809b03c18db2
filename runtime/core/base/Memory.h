//===- Memory.h - Arrays and strings from the model's Allocator -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The core has no operator new and no std containers, so every array it owns
// comes through these few helpers: typed allocation from an Allocator, a
// growable array of trivially copyable values, and string copies. Private to
// runtime/core.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_MEMORY_H
#define MASSIF_CORE_MEMORY_H

#include "Base.h"

#include <string.h>

namespace massif {

/// Count zeroed objects of a trivial type T, or nullptr.
template <typename T> T *allocArray(const Allocator &A, size_t Count) {
  if (Count > (~size_t(0)) / sizeof(T))
    return nullptr;
  return static_cast<T *>(A.allocate(Count * sizeof(T)));
}

template <typename T> void freeArray(const Allocator &A, T *P, size_t Count) {
  if (P)
    A.deallocate(P, Count * sizeof(T));
}

/// Grows P (holding Count valid elements in Cap slots) to at least NewCap
/// slots; new slots are zero. Returns false (P unchanged) when memory is
/// exhausted. The allocator's Reallocate goes first: a large array then
/// moves by its pages, with no copy and no second array alive meanwhile.
template <typename T>
bool growArray(const Allocator &A, T *&P, size_t Count, size_t &Cap,
               size_t NewCap) {
  if (NewCap <= Cap)
    return true;
  if (NewCap > (~size_t(0)) / sizeof(T))
    return false;
  if (P) {
    if (void *R = A.reallocate(P, Cap * sizeof(T), NewCap * sizeof(T))) {
      P = static_cast<T *>(R);
      Cap = NewCap;
      return true;
    }
  }
  T *N = allocArray<T>(A, NewCap);
  if (!N)
    return false;
  if (Count)
    memcpy(N, P, Count * sizeof(T));
  freeArray(A, P, Cap);
  P = N;
  Cap = NewCap;
  return true;
}

/// A NUL-terminated copy of S[0..Len) from A, or nullptr.
inline char *copyString(const Allocator &A, const char *S, size_t Len) {
  char *C = allocArray<char>(A, Len + 1);
  if (!C)
    return nullptr;
  memcpy(C, S, Len);
  C[Len] = 0;
  return C;
}

} // namespace massif

#endif // MASSIF_CORE_MEMORY_H
