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

  /// A call asking for Len bytes: its row's calls and bytes, the total,
  /// the histogram and the count of all calls.
  void request(Call C, size_t Len) {
    add(Calls[C], 1);
    add(Bytes[C], Len);
    add(GrandTotal, Len);
    histogram(Len);
  }
  /// The histogram's bin for Len and the count of all calls.
  void histogram(size_t Len) {
    if (Len < HistogramLimit)
      add(Histogram[Len / 16], 1);
    else
      add(Large, 1);
    add(CallsTotal, 1);
  }
  void countCall(Call C) { add(Calls[C], 1); }
  void countBytes(Call C, size_t Len) { add(Bytes[C], Len); }
  void countGrowth(Call C, size_t Len) {
    add(Bytes[C], Len);
    add(GrandTotal, Len);
  }
  void failed(Call C) { add(Failed[C], 1); }
  void reallocInPlace() { add(InPlace, 1); }
  void reallocShrank() { add(Decreasing, 1); }
  void reallocFreed() { add(ReallocFree, 1); }
  void mremapInPlace() { add(InPlaceMremap, 1); }
  void mremapShrank() { add(DecreasingMremap, 1); }

  /// The heap changed by Len - OldLen with the stack pointer at Sp, as
  /// memusage reads it; ThreadStart is the calling thread's start position
  /// (0 until its first call). Writes a record when there is a data file.
  void update(size_t Len, size_t OldLen, uintptr_t Sp, uintptr_t &ThreadStart);

  /// Finishes the data file and writes the summary to standard error
  /// (memusage's destructor).
  void finish();

private:
  static void add(uint64_t &V, uint64_t N) {
    if (__atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED))
      V += N;
    else
      __atomic_fetch_add(&V, N, __ATOMIC_RELAXED);
  }
  static void raise(uint64_t &V, uint64_t N);
  void writeRecord(uint64_t Stack);
  void finishFile();
  void report() const;

  uint64_t Calls[NumCalls];
  uint64_t Failed[NumCalls];
  uint64_t Bytes[NumCalls];
  uint64_t GrandTotal;
  uint64_t Histogram[HistogramBins];
  uint64_t Large;
  uint64_t CallsTotal;
  uint64_t InPlace, Decreasing, ReallocFree;
  uint64_t InPlaceMremap, DecreasingMremap;
  uint64_t CurrentHeap;
  uint64_t PeakHeap, PeakStack, PeakTotal;
  bool TraceMmap;
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
