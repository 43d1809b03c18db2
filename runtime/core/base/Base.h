//===- Base.h - Freestanding basics for the profile model -------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// runtime/core is shared by every engine: the native runtime linked into
// instrumented programs and the Valgrind tool. It is freestanding C++: no
// libstdc++ runtime, no exceptions, no RTTI, no global constructors. Memory
// comes from an Allocator passed in; output goes through a Sink. This header
// holds the few types every core file uses.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_BASE_H
#define MASSIF_CORE_BASE_H

#include <stddef.h>
#include <stdint.h>

namespace massif {

/// Page-granular or byte-granular memory for the model. Allocate returns
/// zeroed memory or nullptr; it must be callable from any thread.
/// Reallocate, optional, grows a block in place or by moving its pages,
/// without copying: the first OldB bytes kept, the rest zero; nullptr (the
/// block unchanged) when it cannot, and the model then copies.
struct Allocator {
  void *(*Allocate)(void *Ctx, size_t SizeB);
  void (*Deallocate)(void *Ctx, void *P, size_t SizeB);
  void *Ctx;
  void *(*Reallocate)(void *Ctx, void *P, size_t OldB, size_t NewB) = nullptr;

  void *allocate(size_t SizeB) const { return Allocate(Ctx, SizeB); }
  void deallocate(void *P, size_t SizeB) const { Deallocate(Ctx, P, SizeB); }
  void *reallocate(void *P, size_t OldB, size_t NewB) const {
    return Reallocate ? Reallocate(Ctx, P, OldB, NewB) : nullptr;
  }
};

/// Where text output goes. Write returns false on an I/O error.
struct Sink {
  bool (*Write)(void *Ctx, const char *Data, size_t Len);
  void *Ctx;
};

/// Index of an interned call stack; 0 means "no stack".
using StackId = uint32_t;

/// For the functions of the hot paths that the compiler must fold into
/// their callers whatever their size and however large the callers.
#define MASSIF_ALWAYS_INLINE __attribute__((always_inline)) inline

/// A function that saves every register it uses, so that a hook running
/// in the middle of instrumented code (a stack probe) costs its caller no
/// spill. Such a function may only call others like it.
#if defined(__clang__) && defined(__x86_64__)
#define MASSIF_PRESERVE_ALL __attribute__((preserve_all))
#else
#define MASSIF_PRESERVE_ALL
#endif

} // namespace massif

#endif // MASSIF_CORE_BASE_H
