//===- Counting.h - One process's count, call by call -----------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// What memusage does at each call of the malloc family, on top of glibc's
// answer: count the request, let glibc answer, and on success update the
// heap and the stack. A block the count never saw allocated (made before
// counting began, or by memalign and its relatives, which memusage leaves
// alone) is passed to glibc uncounted at free and realloc.
//
// The process starts counting at its first call or in the constructor of
// whoever counts, whichever comes first (memusage's initialisation). Its
// phases: not started, starting (calls made meanwhile are glibc's alone),
// counting, or not counted (another program was named, or the data file
// cannot be created).
//
// The functions are inline: the preloaded library and the native runtime
// each build them around their own way to glibc (RealAllocator) and their
// own record of each thread's start position.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_MEMUSAGE_COUNTING_H
#define MASSIF_MEMUSAGE_COUNTING_H

#include "Frames.h"
#include "SizeTable.h"
#include "Tally.h"

/// The counting is inlined into each interposer: its frame is the one
/// whose entry the stack reading starts from, and a call costs no more.
#define MASSIF_MEMUSAGE_INLINE __attribute__((always_inline)) inline

namespace massif {
namespace memusage {

/// glibc's own allocation functions.
struct RealAllocator {
  void *(*Malloc)(size_t);
  void (*Free)(void *);
  void *(*Calloc)(size_t, size_t);
  void *(*Realloc)(void *, size_t);
};

enum Phase : uint32_t { NotStarted, Starting, Counting, NotCounted };

/// Zero-initialised as a global: no constructor runs for it.
struct ProcessCount {
  Tally Counts;
  SizeTable Sizes;
  uint32_t State; ///< a Phase

  bool counting() const {
    return __atomic_load_n(&State, __ATOMIC_ACQUIRE) == Counting;
  }

  /// Starts the count if nothing has (memusage's initialisation): the
  /// thread's start position becomes Sp unless it has one. OnTimer is the
  /// SIGPROF handler for the data file's timer. Whether the process is
  /// counted; false also while another thread is starting it.
  bool ensureStarted(uintptr_t Sp, uintptr_t &ThreadStart,
                     const char *ShortName, void (*OnTimer)(int)) {
    uint32_t S = __atomic_load_n(&State, __ATOMIC_ACQUIRE);
    if (__builtin_expect(S == Counting, 1))
      return true;
    if (S != NotStarted ||
        !__atomic_compare_exchange_n(&State, &S, (uint32_t)Starting, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      return false;
    Settings Set = readSettings(ShortName);
    if (Set.Profiled && ThreadStart == 0)
      ThreadStart = Sp;
    bool Counted = Counts.start(Set, OnTimer);
    __atomic_store_n(&State, Counted ? (uint32_t)Counting : (uint32_t)NotCounted,
                     __ATOMIC_RELEASE);
    return Counted;
  }

  /// glibc's answer P to a request of Len bytes counted in row C: a
  /// failure, or a block whose size is kept and which updates the heap.
  MASSIF_MEMUSAGE_INLINE void *allocated(bool S, Call C, void *P, size_t Len,
                                         uintptr_t Entry,
                                         uintptr_t &ThreadStart) {
    if (!P) {
      Counts.failed(S, C);
      return nullptr;
    }
    Sizes.insert(P, Len);
    Counts.update(S, Len, 0, Entry - CountDepth[C], ThreadStart);
    return P;
  }

  // The malloc family as memusage counts it. Entry is the stack pointer
  // just after the program's call; the caller has checked counting().

  MASSIF_MEMUSAGE_INLINE void *malloc(const RealAllocator &Real, size_t Len, uintptr_t Entry,
               uintptr_t &ThreadStart) {
    bool S = Tally::singleThreaded();
    Counts.request(S, CallMalloc, Len);
    return allocated(S, CallMalloc, Real.Malloc(Len), Len, Entry, ThreadStart);
  }

  MASSIF_MEMUSAGE_INLINE void *calloc(const RealAllocator &Real, size_t Count, size_t Len,
               uintptr_t Entry, uintptr_t &ThreadStart) {
    bool S = Tally::singleThreaded();
    // memusage's product wraps on overflow; glibc's calloc refuses it.
    size_t Total = Count * Len;
    Counts.request(S, CallCalloc, Total);
    return allocated(S, CallCalloc, Real.Calloc(Count, Len), Total, Entry,
                     ThreadStart);
  }

  MASSIF_MEMUSAGE_INLINE void free(const RealAllocator &Real, void *P, uintptr_t Entry,
            uintptr_t &ThreadStart) {
    bool S = Tally::singleThreaded();
    if (!P) {
      Counts.countCall(S, CallFree);
      return;
    }
    size_t Len;
    if (!Sizes.remove(P, Len)) {
      Real.Free(P);
      return;
    }
    Counts.countCall(S, CallFree);
    Counts.countBytes(S, CallFree, Len);
    Counts.update(S, 0, Len, Entry - CountDepth[CallFree], ThreadStart);
    Real.Free(P);
  }

  MASSIF_MEMUSAGE_INLINE void *realloc(const RealAllocator &Real, void *Old, size_t Len,
                uintptr_t Entry, uintptr_t &ThreadStart) {
    bool S = Tally::singleThreaded();
    size_t OldLen = 0;
    if (Old && !Sizes.remove(Old, OldLen))
      return Real.Realloc(Old, Len);
    uintptr_t Sp = Entry - CountDepth[CallRealloc];
    Counts.countCall(S, CallRealloc);
    if (Len > OldLen)
      Counts.countGrowth(S, CallRealloc, Len - OldLen);
    if (Len == 0 && Old) {
      // A free, in glibc as in memusage's count.
      Counts.reallocFreed(S);
      Counts.countBytes(S, CallFree, OldLen);
      Counts.update(S, 0, OldLen, Sp, ThreadStart);
      Real.Free(Old);
      return nullptr;
    }
    Counts.histogram(S, Len);
    void *P = Real.Realloc(Old, Len);
    if (!P) {
      Counts.failed(S, CallRealloc);
      if (Old)
        Sizes.insert(Old, OldLen); // still the program's, unchanged
      return nullptr;
    }
    if (P == Old)
      Counts.reallocInPlace(S);
    if (OldLen > Len)
      Counts.reallocShrank(S);
    Sizes.insert(P, Len);
    Counts.update(S, Len, OldLen, Sp, ThreadStart);
    return P;
  }
};

} // namespace memusage
} // namespace massif

#endif // MASSIF_MEMUSAGE_COUNTING_H
