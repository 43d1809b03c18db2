//===- Preload.cpp - libmsmemusage.so, memusage's library for any program -===//
//
// Part of massif-native, under the MIT licence.
//
// Preloaded into a program (ms_memusage sets LD_PRELOAD), this library
// defines malloc, realloc, calloc and free, and mmap, mmap64, mremap and
// munmap, counts each call as glibc's libmemusage.so does and lets glibc
// answer it. At exit its destructor writes memusage's summary. Its only
// dependency is libc; it reads memusage's environment variables, so it can
// stand in for libmemusage.so under memusage's own script too.
//
// What the program sees is glibc's: its blocks are glibc's blocks, sizes
// are kept beside them (SizeTable.h), nothing the library needs for itself
// comes from malloc or mmap. What memusage adds to the count is kept as it
// adds it, so the summary is equal byte for byte:
//   - the stack is read as inside memusage's frames (Frames.h);
//   - mmap and mremap report failure as NULL, which they never return, so
//     a failed call is counted as made and not failed; an mmap that may
//     write to a file adds its length to the heap, anonymous ones do not,
//     and every mremap and munmap changes the heap by its lengths.
//
// In an mscc-built program the runtime counts the malloc family itself
// (RuntimeCount.h); this library then counts the mmap family into the
// runtime's count and writes the summary.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCount.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EXPORT extern "C" __attribute__((visibility("default")))
#define ENTRY massif::memusage::entryOf(__builtin_frame_address(0))

extern "C" {
void *__libc_malloc(size_t);
void __libc_free(void *);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
}

EXPORT const int __msmemusage_preloaded = 1;

using namespace massif::memusage;

namespace {

ProcessCount Own;
/// The runtime's count in an mscc-built program, else null.
RuntimeCount *Runtime;
/// This thread's start position (memusage's start_sp).
__thread uintptr_t StartSp __attribute__((tls_model("initial-exec")));

constexpr RealAllocator Glibc = {__libc_malloc, __libc_free, __libc_calloc,
                                 __libc_realloc};

ProcessCount &count() { return Runtime ? *Runtime->Count : Own; }
uintptr_t &threadStart() { return Runtime ? *Runtime->ThreadStart() : StartSp; }

void onTimer(int) {
  // Nothing is allocated: the stack pointer alone is recorded.
  uintptr_t Sp = ENTRY - TimerDepth;
  count().Counts.update(Tally::singleThreaded(), 0, 0, Sp, threadStart());
}

/// Finds the runtime of an mscc-built program (RuntimeCount.h), built
/// from the same count as this library; whether there is one.
bool attachToRuntime() {
  if (Runtime)
    return true;
  if (!__massif_memusage_count)
    return false;
  RuntimeCount *R = __massif_memusage_count();
  if (!R || R->Version != RuntimeCountVersion ||
      R->CountSize != sizeof(ProcessCount))
    return false;
  Runtime = R;
  return true;
}

/// Whether the call entered at Entry, in row C, is counted; starts the
/// count at the process's first call (in an mscc-built program, the
/// runtime's, which only the mmap family reaches here).
inline bool begin(Call C, uintptr_t Entry) {
  if (__builtin_expect(Runtime != nullptr, 0))
    return Runtime->Count->counting() ||
           Runtime->EnsureStarted(Entry - FirstCallDepth[C]);
  if (Own.counting())
    return true;
  if (attachToRuntime())
    return begin(C, Entry);
  return Own.ensureStarted(Entry - FirstCallDepth[C], StartSp,
                           program_invocation_short_name, onTimer);
}

// glibc's mmap family, found on first use.
using MmapFn = void *(*)(void *, size_t, int, int, int, off_t);
using MremapFn = void *(*)(void *, size_t, size_t, int, ...);
using MunmapFn = int (*)(void *, size_t);
MmapFn RealMmap, RealMmap64;
MremapFn RealMremap;
MunmapFn RealMunmap;

template <typename FnT> FnT next(FnT &Fn, const char *Name) {
  if (!Fn)
    Fn = (FnT)dlsym(RTLD_NEXT, Name);
  return Fn;
}

/// glibc's mmap or mmap64 (Real), counted for the call entered at Entry.
void *mapCounted(MmapFn Real, uintptr_t Entry, void *Addr, size_t Len,
                 int Prot, int Flags, int Fd, off_t Offset) {
  bool Counted = begin(CallMmapAnon, Entry);
  void *Result = Real(Addr, Len, Prot, Flags, Fd, Offset);
  ProcessCount &P = count();
  if (!Counted || !P.Counts.tracingMmap())
    return Result;
  bool S = Tally::singleThreaded();
  Call Row = (Flags & MAP_ANONYMOUS) ? CallMmapAnon
             : (Prot & PROT_WRITE)   ? CallMmapWrite
                                     : CallMmapRead;
  P.Counts.request(S, Row, Len);
  if (Result == nullptr)
    P.Counts.failed(S, Row);
  else if (Row == CallMmapWrite)
    P.Counts.update(S, Len, 0, Entry - CountDepth[Row], threadStart());
  return Result;
}

} // namespace

EXPORT void *malloc(size_t Len) {
  uintptr_t Entry = ENTRY;
  if (!begin(CallMalloc, Entry))
    return __libc_malloc(Len);
  return Own.malloc(Glibc, Len, Entry, StartSp);
}

EXPORT void free(void *P) {
  uintptr_t Entry = ENTRY;
  if (!begin(CallFree, Entry))
    return __libc_free(P);
  Own.free(Glibc, P, Entry, StartSp);
}

EXPORT void *calloc(size_t Count, size_t Len) {
  uintptr_t Entry = ENTRY;
  if (!begin(CallCalloc, Entry))
    return __libc_calloc(Count, Len);
  return Own.calloc(Glibc, Count, Len, Entry, StartSp);
}

EXPORT void *realloc(void *Old, size_t Len) {
  uintptr_t Entry = ENTRY;
  if (!begin(CallRealloc, Entry))
    return __libc_realloc(Old, Len);
  return Own.realloc(Glibc, Old, Len, Entry, StartSp);
}

EXPORT void *mmap(void *Addr, size_t Len, int Prot, int Flags, int Fd,
                  off_t Offset) {
  return mapCounted(next(RealMmap, "mmap"), ENTRY, Addr, Len, Prot, Flags, Fd,
                    Offset);
}

EXPORT void *mmap64(void *Addr, size_t Len, int Prot, int Flags, int Fd,
                    off_t Offset) {
  return mapCounted(next(RealMmap64, "mmap64"), ENTRY, Addr, Len, Prot, Flags,
                    Fd, Offset);
}

EXPORT void *mremap(void *Start, size_t OldLen, size_t Len, int Flags, ...) {
  uintptr_t Entry = ENTRY;
  void *NewAddr = nullptr;
  if (Flags & MREMAP_FIXED) {
    va_list Args;
    va_start(Args, Flags);
    NewAddr = va_arg(Args, void *);
    va_end(Args);
  }
  bool Counted = begin(CallMremap, Entry);
  void *R = next(RealMremap, "mremap")(Start, OldLen, Len, Flags, NewAddr);
  ProcessCount &P = count();
  if (!Counted || !P.Counts.tracingMmap())
    return R;
  bool S = Tally::singleThreaded();
  P.Counts.countCall(S, CallMremap);
  if (Len > OldLen)
    P.Counts.countGrowth(S, CallMremap, Len - OldLen);
  P.Counts.histogram(S, Len);
  if (R == nullptr) {
    P.Counts.failed(S, CallMremap);
    return R;
  }
  if (R == Start)
    P.Counts.mremapInPlace(S);
  if (OldLen > Len)
    P.Counts.mremapShrank(S);
  P.Counts.update(S, Len, OldLen, Entry - CountDepth[CallMremap], threadStart());
  return R;
}

EXPORT int munmap(void *Start, size_t Len) {
  uintptr_t Entry = ENTRY;
  bool Counted = begin(CallMunmap, Entry);
  int R = next(RealMunmap, "munmap")(Start, Len);
  ProcessCount &P = count();
  if (!Counted || !P.Counts.tracingMmap())
    return R;
  bool S = Tally::singleThreaded();
  int SavedErrno = errno;
  P.Counts.countCall(S, CallMunmap);
  if (R == 0) {
    P.Counts.countBytes(S, CallMunmap, Len);
    P.Counts.update(S, 0, Len, Entry - CountDepth[CallMunmap], threadStart());
  } else {
    P.Counts.failed(S, CallMunmap);
  }
  errno = SavedErrno;
  return R;
}

namespace {

/// memusage's constructor: the main thread's start position is here.
__attribute__((constructor)) void startCounting() {
  uintptr_t Sp = ENTRY - ConstructorDepth;
  if (attachToRuntime()) {
    *Runtime->ThreadStart() = Sp;
    Runtime->EnsureStarted(Sp);
    return;
  }
  StartSp = Sp;
  Own.ensureStarted(Sp, StartSp, program_invocation_short_name, onTimer);
}

/// memusage's destructor: the data file's totals and the summary. Calls
/// made meanwhile are glibc's alone.
__attribute__((destructor)) void finishCounting() {
  ProcessCount &P = count();
  uint32_t Expected = Counting;
  if (!__atomic_compare_exchange_n(&P.State, &Expected, (uint32_t)NotCounted,
                                   false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return;
  P.Counts.finish();
  __atomic_store_n(&P.State, (uint32_t)Counting, __ATOMIC_RELEASE);
}

} // namespace
