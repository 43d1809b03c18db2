//===- Memusage.h - The malloc family counted as memusage counts it -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Under ms_memusage an mscc-built program's allocator calls all reach the
// runtime, not the preloaded libmsmemusage.so, so the runtime counts them
// (runtime/memusage/RuntimeCount.h): the same count, the same frames.
// The stack is read from the entry of the function the program called, as
// memusage reads it from its malloc's: the runtime's malloc or __massif_*
// entry point. Where a runtime function stands between the program and the
// C or C++ runtime's own (the C++ operators, strdup, pthread_create,
// dlopen), whatever allocates inside runs that function's frame lower than
// in the plain build; MemusageShiftScope makes up for it.
//
// The mode needs no state of its own: it is on exactly when the dynamic
// linker bound the weak reference to the library's __msmemusage_preloaded,
// which it did before the first instruction of the process. Every
// allocation function asks first; the profiler's path pays one load and a
// predictable branch.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_MEMUSAGE_H
#define MASSIF_NATIVE_MEMUSAGE_H

#include "State.h"

#include "Counting.h"
#include "RuntimeCount.h"

namespace massif {
namespace native {

extern memusage::ProcessCount TheMemusageCount MASSIF_HIDDEN;
extern const memusage::RealAllocator MemusageGlibc MASSIF_HIDDEN;

/// Whether libmsmemusage.so is preloaded: the runtime then counts the
/// malloc family as memusage does instead of profiling, and its start-up
/// leaves it disabled (lifecycle/Start.cpp).
MASSIF_ALWAYS_INLINE bool countingForMemusage() {
  return __builtin_expect(&__msmemusage_preloaded != nullptr, 0);
}

/// Starts memusage's count at the process's first call (Sp: where
/// memusage's initialisation would read the stack).
bool startMemusageCount(uintptr_t Sp);

/// The entry memusage's function would have had for this call, in row C
/// of its table; whether to count it (not while the runtime itself calls).
MASSIF_ALWAYS_INLINE bool memusageEntry(ThreadState &T, memusage::Call C,
                                        const void *EntryFrame,
                                        uintptr_t &Entry) {
  if (T.InRuntime)
    return false;
  Entry = memusage::entryOf(EntryFrame) + T.MemusageShift;
  return TheMemusageCount.counting() ||
         startMemusageCount(Entry - memusage::FirstCallDepth[C]);
}

/// For the scope of a runtime function that calls the C or C++ runtime's
/// own in the program's place: the allocator calls made meanwhile are read
/// as high as the plain build makes them, by the distance between the
/// function's entry and that of the one it calls. Inlined into the
/// function (Frame is its frame), whose stack pointer does not move
/// between here and its call.
struct MemusageShiftScope {
  ThreadState &T;
  uintptr_t Saved;
  MASSIF_ALWAYS_INLINE explicit MemusageShiftScope(const void *Frame)
      : T(thisThread()), Saved(T.MemusageShift) {
    uintptr_t Sp;
    __asm__ volatile("mov %%rsp, %0" : "=r"(Sp));
    T.MemusageShift = Saved + (memusage::entryOf(Frame) - (Sp - 8));
  }
  ~MemusageShiftScope() { T.MemusageShift = Saved; }
  MemusageShiftScope(const MemusageShiftScope &) = delete;
  MemusageShiftScope &operator=(const MemusageShiftScope &) = delete;
};

/// Counts the call in row C entered with EntryFrame (Count, given the
/// entry), or passes it to glibc uncounted (Forward).
template <typename CountFn, typename ForwardFn>
MASSIF_ALWAYS_INLINE auto countForMemusage(memusage::Call C,
                                           const void *EntryFrame,
                                           CountFn Count, ForwardFn Forward) {
  ThreadState &T = thisThread();
  uintptr_t Entry;
  if (!memusageEntry(T, C, EntryFrame, Entry))
    return Forward();
  return Count(Entry, T.MemusageStart);
}

MASSIF_ALWAYS_INLINE void *memusageMalloc(size_t SizeB,
                                          const void *EntryFrame) {
  return countForMemusage(
      memusage::CallMalloc, EntryFrame,
      [&](uintptr_t Entry, uintptr_t &Start) {
        return TheMemusageCount.malloc(MemusageGlibc, SizeB, Entry, Start);
      },
      [&] { return MemusageGlibc.Malloc(SizeB); });
}

MASSIF_ALWAYS_INLINE void *memusageCalloc(size_t Count, size_t SizeB,
                                          const void *EntryFrame) {
  return countForMemusage(
      memusage::CallCalloc, EntryFrame,
      [&](uintptr_t Entry, uintptr_t &Start) {
        return TheMemusageCount.calloc(MemusageGlibc, Count, SizeB, Entry,
                                       Start);
      },
      [&] { return MemusageGlibc.Calloc(Count, SizeB); });
}

MASSIF_ALWAYS_INLINE void *memusageRealloc(void *P, size_t SizeB,
                                           const void *EntryFrame) {
  return countForMemusage(
      memusage::CallRealloc, EntryFrame,
      [&](uintptr_t Entry, uintptr_t &Start) {
        return TheMemusageCount.realloc(MemusageGlibc, P, SizeB, Entry, Start);
      },
      [&] { return MemusageGlibc.Realloc(P, SizeB); });
}

MASSIF_ALWAYS_INLINE void memusageFree(void *P, const void *EntryFrame) {
  countForMemusage(
      memusage::CallFree, EntryFrame,
      [&](uintptr_t Entry, uintptr_t &Start) {
        TheMemusageCount.free(MemusageGlibc, P, Entry, Start);
      },
      [&] { MemusageGlibc.Free(P); });
}

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_MEMUSAGE_H
