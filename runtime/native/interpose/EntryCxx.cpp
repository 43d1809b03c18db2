//===- EntryCxx.cpp - The C++ operator entry points -----------------------===//
//
// Part of massif-native, under the MIT licence.
//
// __massif_Znwm and friends stand for operator new/delete in instrumented
// code (include/massif/abi.h). They call the program's real operator (the
// C++ runtime's, or the program's own replacement) with the recursion guard
// set, so its internal malloc is not counted twice, and record the block
// themselves. Calling the real operator keeps its semantics whole: the
// new_handler loop, std::bad_alloc, and pairing with uninstrumented deletes.
// This file is built into libmassif_rt_cxx.a with exceptions enabled, so an
// exception leaving operator new clears the guard on its way out; C
// programs never link it and so never need libstdc++.
//
//===----------------------------------------------------------------------===//

#include "Allocate.h"
#include "EventRing.h"
#include "Record.h"
#include "State.h"

#include "massif/abi.h"

#include <new>

#include <dlfcn.h>
#include <string.h>

using namespace massif;
using namespace massif::native;

namespace {

/// Clears the recursion guard when the operator returns or throws.
struct GuardScope {
  ThreadState &T;
  ~GuardScope() { endEvent(T); }
};

/// Under ms_memusage (Memusage.h): the operator runs as the program's call
/// of it would.
template <typename OperatorFn>
MASSIF_ALWAYS_INLINE auto forMemusage(const void *EntryFrame,
                                      OperatorFn Operator) {
  MemusageShiftScope Scope(EntryFrame);
  return Operator();
}

template <typename NewFn>
MASSIF_ALWAYS_INLINE void *newBlock(size_t SizeB, size_t AlignB, NewFn New,
                                    const void *EntryFrame) {
  if (countingForMemusage())
    return forMemusage(EntryFrame, New);
  ThreadState *T = beginEvent();
  if (!T)
    return New();
  GuardScope G{*T};
  void *P = New();
  if (P)
    recordAlloc(*T, P, SizeB, AlignB, EntryFrame);
  return P;
}

/// The address of the operator delete Op (delete or delete[]) taking the
/// parameters given.
#define DELETE_FN(Op, ...)                                                     \
  ((const void *)static_cast<void (*)(__VA_ARGS__)>(&::operator Op))

/// Whether every form of operator delete is the C++ runtime's (libstdc++):
/// then each releases its block with free, directly or through another
/// form. A program that replaces any form keeps all of them called.
/// Decided once.
bool deletesAreFrees() {
  static int Known = 0; // 0 unknown, 1 yes, 2 no
  int K = __atomic_load_n(&Known, __ATOMIC_ACQUIRE);
  if (K)
    return K == 1;
  const void *Forms[] = {
      DELETE_FN(delete, void *),
      DELETE_FN(delete[], void *),
      DELETE_FN(delete, void *, size_t),
      DELETE_FN(delete[], void *, size_t),
      DELETE_FN(delete, void *, const std::nothrow_t &),
      DELETE_FN(delete[], void *, const std::nothrow_t &),
      DELETE_FN(delete, void *, std::align_val_t),
      DELETE_FN(delete[], void *, std::align_val_t),
      DELETE_FN(delete, void *, size_t, std::align_val_t),
      DELETE_FN(delete[], void *, size_t, std::align_val_t),
      DELETE_FN(delete, void *, std::align_val_t, const std::nothrow_t &),
      DELETE_FN(delete[], void *, std::align_val_t, const std::nothrow_t &),
  };
  bool Library = true;
  for (const void *Fn : Forms) {
    Dl_info Info;
    Library &= dladdr(Fn, &Info) && Info.dli_fname &&
               strstr(Info.dli_fname, "libstdc++") != nullptr;
  }
  __atomic_store_n(&Known, Library ? 1 : 2, __ATOMIC_RELEASE);
  return Library;
}

template <typename DeleteFn>
MASSIF_ALWAYS_INLINE void deleteBlock(void *P, DeleteFn Delete,
                                      const void *EntryFrame) {
  if (countingForMemusage())
    return forMemusage(EntryFrame, Delete);
  if (!P)
    return;
  ThreadState *T = beginEvent();
  if (!T) {
    Delete();
    return;
  }
  GuardScope G{*T};
  // With threads, or the model's thread, the library's delete is a free,
  // and frees are batched (EventRing.h); a program's own operator delete runs now, after the
  // model has applied the free. The library's free would claim the block
  // (LiveStarts.h); the batched one claims it here.
  StackId FreeStack = freeStack(*T, EntryFrame);
  if ((!__atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED) ||
       __atomic_load_n(&ApplierRunning, __ATOMIC_RELAXED)) &&
      deletesAreFrees()) {
    if (!claimForFree(P) || ringFree(P, FreeStack))
      return;
    recordFree(P, FreeStack);
    glibcFree(P);
    return;
  }
  recordFree(P, FreeStack);
  Delete();
}

} // namespace

#define FRAME __builtin_frame_address(0)
#define ALIGN(A) static_cast<std::align_val_t>(A)
#define NOTHROW (*static_cast<const std::nothrow_t *>(NoThrow))

extern "C" {

MASSIF_EXPORT void *__massif_Znwm(size_t SizeB) {
  return newBlock(SizeB, 0, [&] { return ::operator new(SizeB); }, FRAME);
}

MASSIF_EXPORT void *__massif_Znam(size_t SizeB) {
  return newBlock(SizeB, 0, [&] { return ::operator new[](SizeB); }, FRAME);
}

MASSIF_EXPORT void *__massif_ZnwmRKSt9nothrow_t(size_t SizeB,
                                                const void *NoThrow) {
  return newBlock(
      SizeB, 0, [&] { return ::operator new(SizeB, NOTHROW); }, FRAME);
}

MASSIF_EXPORT void *__massif_ZnamRKSt9nothrow_t(size_t SizeB,
                                                const void *NoThrow) {
  return newBlock(
      SizeB, 0, [&] { return ::operator new[](SizeB, NOTHROW); }, FRAME);
}

MASSIF_EXPORT void *__massif_ZnwmSt11align_val_t(size_t SizeB, size_t AlignB) {
  return newBlock(
      SizeB, AlignB, [&] { return ::operator new(SizeB, ALIGN(AlignB)); },
      FRAME);
}

MASSIF_EXPORT void *__massif_ZnamSt11align_val_t(size_t SizeB, size_t AlignB) {
  return newBlock(
      SizeB, AlignB, [&] { return ::operator new[](SizeB, ALIGN(AlignB)); },
      FRAME);
}

MASSIF_EXPORT void *
__massif_ZnwmSt11align_val_tRKSt9nothrow_t(size_t SizeB, size_t AlignB,
                                           const void *NoThrow) {
  return newBlock(
      SizeB, AlignB,
      [&] { return ::operator new(SizeB, ALIGN(AlignB), NOTHROW); }, FRAME);
}

MASSIF_EXPORT void *
__massif_ZnamSt11align_val_tRKSt9nothrow_t(size_t SizeB, size_t AlignB,
                                           const void *NoThrow) {
  return newBlock(
      SizeB, AlignB,
      [&] { return ::operator new[](SizeB, ALIGN(AlignB), NOTHROW); }, FRAME);
}

MASSIF_EXPORT void __massif_ZdlPv(void *P) {
  deleteBlock(P, [&] { ::operator delete(P); }, FRAME);
}

MASSIF_EXPORT void __massif_ZdaPv(void *P) {
  deleteBlock(P, [&] { ::operator delete[](P); }, FRAME);
}

MASSIF_EXPORT void __massif_ZdlPvm(void *P, size_t SizeB) {
  deleteBlock(P, [&] { ::operator delete(P, SizeB); }, FRAME);
}

MASSIF_EXPORT void __massif_ZdaPvm(void *P, size_t SizeB) {
  deleteBlock(P, [&] { ::operator delete[](P, SizeB); }, FRAME);
}

MASSIF_EXPORT void __massif_ZdlPvRKSt9nothrow_t(void *P, const void *NoThrow) {
  deleteBlock(P, [&] { ::operator delete(P, NOTHROW); }, FRAME);
}

MASSIF_EXPORT void __massif_ZdaPvRKSt9nothrow_t(void *P, const void *NoThrow) {
  deleteBlock(P, [&] { ::operator delete[](P, NOTHROW); }, FRAME);
}

MASSIF_EXPORT void __massif_ZdlPvSt11align_val_t(void *P, size_t AlignB) {
  deleteBlock(P, [&] { ::operator delete(P, ALIGN(AlignB)); }, FRAME);
}

MASSIF_EXPORT void __massif_ZdaPvSt11align_val_t(void *P, size_t AlignB) {
  deleteBlock(P, [&] { ::operator delete[](P, ALIGN(AlignB)); }, FRAME);
}

MASSIF_EXPORT void __massif_ZdlPvmSt11align_val_t(void *P, size_t SizeB,
                                                  size_t AlignB) {
  deleteBlock(P, [&] { ::operator delete(P, SizeB, ALIGN(AlignB)); }, FRAME);
}

MASSIF_EXPORT void __massif_ZdaPvmSt11align_val_t(void *P, size_t SizeB,
                                                  size_t AlignB) {
  deleteBlock(P, [&] { ::operator delete[](P, SizeB, ALIGN(AlignB)); }, FRAME);
}

MASSIF_EXPORT void __massif_ZdlPvSt11align_val_tRKSt9nothrow_t(
    void *P, size_t AlignB, const void *NoThrow) {
  deleteBlock(P, [&] { ::operator delete(P, ALIGN(AlignB), NOTHROW); }, FRAME);
}

MASSIF_EXPORT void __massif_ZdaPvSt11align_val_tRKSt9nothrow_t(
    void *P, size_t AlignB, const void *NoThrow) {
  deleteBlock(P, [&] { ::operator delete[](P, ALIGN(AlignB), NOTHROW); }, FRAME);
}

} // extern "C"
