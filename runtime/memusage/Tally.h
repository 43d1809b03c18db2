//===- Tally.h - glibc memusage's statistics of one process -----*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// glibc's memusage(1) answers four questions about a run: how much the
// program asked for in all (heap total), the most it held at once (heap
// peak), the deepest its stack went at an allocator call (stack peak), and
// how its calls were spread over functions and sizes. Its data file holds
// one record per call, heap and stack, for the graph. This is that model,
// counted as memusage counts it:
//
//   - every call of malloc, realloc, calloc and free on a block the counter
//     saw allocated, and with tracing on (-m) mmap, mmap64, mremap and
//     munmap, is counted: calls, bytes, failures, the size histogram in
//     16-byte bins below 64 KiB;
//   - heap is the sum of the requested sizes of the live blocks (plus what
//     memusage adds for the mmap family, see Preload.cpp);
//   - stack is measured from the stack pointer at the point where memusage
//     reads it, inside its own frames (Frames.h; the caller gives that
//     position, computed from its entry), against the thread's start
//     position, as memusage measures it (Tally::update).
//
// Two programs share this code: libmsmemusage.so (Preload.cpp), preloaded
// into any program, and the native runtime of an mscc-built program, which
// counts the malloc family itself when that library is preloaded into it
// (one count, never two: the library then counts only what the runtime does
// not see, the mmap family, into the runtime's tally).
//
// Counters are updated with plain operations while the process has one
// thread and with atomics after, as glibc's catomic_* are. Nothing here
// allocates: the record buffer of the data file is mapped when the file
// is opened.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_MEMUSAGE_TALLY_H
#define MASSIF_MEMUSAGE_TALLY_H

#include <stddef.h>
#include <stdint.h>

extern "C" char __libc_single_threaded; // glibc 2.32+

namespace massif {
namespace memusage {

/// The rows of memusage's table, in its order.
enum Call : unsigned {
  CallMalloc,
  CallRealloc,
  CallCalloc,
  CallFree,
  CallMmapRead,
  CallMmapWrite,
  CallMmapAnon,
  CallMremap,
  CallMunmap,
  NumCalls
};

/// One record of the data file, as memusagestat reads it: heap and stack
/// in bytes, the time stamp counter split in halves.
struct Record {
  uint64_t Heap;
  uint64_t Stack;
  uint32_t TimeLow;
  uint32_t TimeHigh;
};
static_assert(sizeof(Record) == 24, "memusage's record is 24 bytes");

/// memusage's buffer of records: 32768 (MEMUSAGE_BUFFER_SIZE lowers it),
/// written out a half at a time.
constexpr uint32_t DefaultBufferRecords = 32768;
/// The size histogram: one bin for each 16 bytes below 64 KiB, and one
/// for everything larger.
constexpr size_t HistogramLimit = 65536;
constexpr size_t HistogramBins = HistogramLimit / 16;

/// Where a process's settings come from: the environment, as memusage's
/// library reads it (MEMUSAGE_PROG_NAME, MEMUSAGE_OUTPUT,
/// MEMUSAGE_BUFFER_SIZE, MEMUSAGE_NO_TIMER, MEMUSAGE_TRACE_MMAP).
struct Settings {
  bool Profiled = false; ///< this process is the one to count
  bool TraceMmap = false;
  bool Timer = false;
  uint32_t BufferRecords = DefaultBufferRecords;
  const char *Output = nullptr; ///< the data file, or null
};

/// Reads Settings from the environment for the program named ShortName.
Settings readSettings(const char *ShortName);

/// Zero-initialised as a global: no constructor runs for it.
class Tally {
public:
  /// Starts counting (memusage's first call): opens the data file, if any,
  /// and with it starts the timer, which calls OnTimer on SIGPROF. Returns
  /// false when the process is not to be counted, because of its name or
  /// an output file it cannot create (as memusage, which then counts
  /// nothing).
  bool start(const Settings &S, void (*OnTimer)(int));

  bool tracingMmap() const { return TraceMmap; }

  // Each call's updates read once whether the process has one thread
  // (Single) and then use plain operations or atomics throughout.
  static bool singleThreaded() {
    return __atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED);
  }

  /// A call asking for Len bytes: its row's calls and bytes, the total,
  /// the histogram and the count of all calls.
  void request(bool Single, Call C, size_t Len) {
    add(Single, Rows[C].Calls, 1);
    add(Single, Rows[C].Bytes, Len);
    add(Single, GrandTotal, Len);
    histogram(Single, Len);
  }
  /// The histogram's bin for Len and the count of all calls.
  void histogram(bool Single, size_t Len) {
    add(Single, Len < HistogramLimit ? Histogram[Len / 16] : Large, 1);
    add(Single, CallsTotal, 1);
  }
  void countCall(bool Single, Call C) { add(Single, Rows[C].Calls, 1); }
  void countBytes(bool Single, Call C, size_t Len) {
    add(Single, Rows[C].Bytes, Len);
  }
  void countGrowth(bool Single, Call C, size_t Len) {
    add(Single, Rows[C].Bytes, Len);
    add(Single, GrandTotal, Len);
  }
  void failed(bool Single, Call C) { add(Single, Rows[C].Failed, 1); }
  void reallocInPlace(bool Single) { add(Single, InPlace, 1); }
  void reallocShrank(bool Single) { add(Single, Decreasing, 1); }
  void reallocFreed(bool Single) { add(Single, ReallocFree, 1); }
  void mremapInPlace(bool Single) { add(Single, InPlaceMremap, 1); }
  void mremapShrank(bool Single) { add(Single, DecreasingMremap, 1); }

  /// The heap changed by Len - OldLen with the stack pointer at Sp, as
  /// memusage reads it; ThreadStart is the calling thread's start position
  /// (0 until its first call). Writes a record when there is a data file.
  __attribute__((always_inline)) void update(bool Single, size_t Len,
                                             size_t OldLen, uintptr_t Sp,
                                             uintptr_t &ThreadStart) {
    uint64_t Delta = (uint64_t)Len - (uint64_t)OldLen; // wraps, as memusage's
    uint64_t Heap =
        Single ? CurrentHeap += Delta
               : __atomic_add_fetch(&CurrentHeap, Delta, __ATOMIC_RELAXED);
    // glibc 2.36's memusage is built as if the stack grew up (it tests
    // _STACK_GROWS_UP with #ifdef, and the macro is defined, as 0): the
    // start is the lowest stack pointer the thread's calls have had so far,
    // and the stack is how far above it a call is. A thread's first call
    // starts it.
    if (ThreadStart == 0 || Sp < ThreadStart)
      ThreadStart = Sp;
    uint64_t Stack = Sp - ThreadStart;
    raise(Single, PeakHeap, Heap);
    raise(Single, PeakStack, Stack);
    raise(Single, PeakTotal, Heap + Stack);
    if (__builtin_expect(__atomic_load_n(&Writing, __ATOMIC_ACQUIRE), 0))
      writeRecord(Stack);
  }

  /// Finishes the data file and writes the summary to standard error
  /// (memusage's destructor).
  void finish();

private:
  static void add(bool Single, uint64_t &V, uint64_t N) {
    if (Single)
      V += N;
    else
      __atomic_fetch_add(&V, N, __ATOMIC_RELAXED);
  }
  /// Raises V to N if below (memusage's catomic_max).
  static void raise(bool Single, uint64_t &V, uint64_t N) {
    if (Single) {
      if (V < N)
        V = N;
      return;
    }
    uint64_t Old = __atomic_load_n(&V, __ATOMIC_RELAXED);
    while (Old < N &&
           !__atomic_compare_exchange_n(&V, &Old, N, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
    }
  }
  void writeRecord(uint64_t Stack);
  void finishFile();
  void report() const;

  // Laid out for threads: what every call writes shares as few cache
  // lines as can be, and what every call only reads has a line of its own.
  alignas(64) uint64_t CurrentHeap;
  uint64_t GrandTotal, CallsTotal;
  uint64_t PeakHeap, PeakStack, PeakTotal;
  /// One row of the table.
  struct Row {
    uint64_t Calls, Bytes, Failed;
  };
  alignas(64) Row Rows[NumCalls];
  uint64_t InPlace, Decreasing, ReallocFree;
  uint64_t InPlaceMremap, DecreasingMremap;
  alignas(64) uint64_t Histogram[HistogramBins];
  uint64_t Large;
  alignas(64) bool TraceMmap;
  bool Writing; ///< the data file is open, as Fd
  int Fd;
  uint32_t BufferRecords;
  uint32_t BufferCount;
  Record *Buffer; ///< 2 * BufferRecords records, mapped with the file
  Record First;
};

/// The time stamp memusage puts in its records: the time stamp counter.
Record stampNow(uint64_t Heap, uint64_t Stack);

} // namespace memusage
} // namespace massif

#endif // MASSIF_MEMUSAGE_TALLY_H
