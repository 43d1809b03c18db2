//===- Tally.cpp - Counting, the peaks and the data file ------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The data file is memusage's: two records written when it is opened and
// rewritten at the end (the first with the peak of heap plus stack, the
// second with the peaks of heap and stack and the end time), then one
// record per counted call, gathered in a buffer of two halves that are
// written out in turn as each fills. With a data file, a SIGPROF timer at
// the highest rate the system allows records the stack between calls too
// (unless MEMUSAGE_NO_TIMER is set).
//
//===----------------------------------------------------------------------===//

#include "Tally.h"

#include "SystemMemory.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

using namespace massif::memusage;

Record massif::memusage::stampNow(uint64_t Heap, uint64_t Stack) {
  uint32_t Low, High;
  __asm__ volatile("rdtsc" : "=a"(Low), "=d"(High));
  return Record{Heap, Stack, Low, High};
}

Settings massif::memusage::readSettings(const char *ShortName) {
  Settings S;
  if (!ShortName) // a call from the dynamic linker before libc has started
    ShortName = "";
  // MEMUSAGE_PROG_NAME selects the program by the end of its name.
  if (const char *Want = getenv("MEMUSAGE_PROG_NAME")) {
    size_t WantLen = strlen(Want), NameLen = strlen(ShortName);
    if (WantLen > NameLen ||
        strcmp(Want, ShortName + NameLen - WantLen) != 0 ||
        (NameLen != WantLen && ShortName[NameLen - WantLen - 1] != '/'))
      return S;
  }
  S.Profiled = true;
  const char *Out = getenv("MEMUSAGE_OUTPUT");
  // As memusage: a file it may neither read and write nor create is not
  // written, and the rest is counted as without one.
  if (Out && Out[0] && (access(Out, R_OK | W_OK) == 0 || errno == ENOENT))
    S.Output = Out;
  if (const char *Records = getenv("MEMUSAGE_BUFFER_SIZE")) {
    long N = strtol(Records, nullptr, 10);
    int AsInt = (int)N; // memusage keeps atoi's int
    if (AsInt >= 1 && AsInt <= (int)DefaultBufferRecords)
      S.BufferRecords = (uint32_t)AsInt;
  }
  S.Timer = getenv("MEMUSAGE_NO_TIMER") == nullptr;
  S.TraceMmap = getenv("MEMUSAGE_TRACE_MMAP") != nullptr;
  return S;
}

bool Tally::start(const Settings &S, void (*OnTimer)(int)) {
  if (!S.Profiled)
    return false;
  TraceMmap = S.TraceMmap;
  if (!S.Output)
    return true;
  int F = creat(S.Output, 0666);
  if (F == -1)
    return false; // memusage counts nothing then
  // Two records of room for the totals the end writes over them.
  First = stampNow(0, 0);
  write(F, &First, sizeof(First));
  write(F, &First, sizeof(First));
  BufferRecords = S.BufferRecords;
  void *Mem = massif::systemMmap(
      nullptr, 2 * (size_t)BufferRecords * sizeof(Record),
      PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Mem == MAP_FAILED) {
    close(F);
    return true;
  }
  Buffer = (Record *)Mem;
  Fd = F;
  __atomic_store_n(&Writing, true, __ATOMIC_RELEASE);
  if (S.Timer) {
    struct sigaction Act;
    memset(&Act, 0, sizeof(Act));
    Act.sa_handler = OnTimer;
    Act.sa_flags = SA_RESTART;
    sigfillset(&Act.sa_mask);
    if (sigaction(SIGPROF, &Act, nullptr) >= 0) {
      // One microsecond: as often as the kernel's profiling timer fires.
      itimerval Every = {{0, 1}, {0, 1}};
      setitimer(ITIMER_PROF, &Every, nullptr);
    }
  }
  return true;
}

void Tally::writeRecord(uint64_t Stack) {
  uint32_t Half = BufferRecords, Whole = 2 * Half;
  uint32_t Index = __atomic_fetch_add(&BufferCount, 1, __ATOMIC_RELAXED);
  if (Index + 1 >= Whole) {
    // Wrap the count; a thread that raced past does the same for its own.
    uint32_t Reset = (Index + 1) % Whole, Expected = Index + 1;
    __atomic_compare_exchange_n(&BufferCount, &Expected, Reset, false,
                                __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
    if (Index >= Whole)
      Index = Reset - 1;
  }
  // memusage records the heap as it stands now, not as this call left it.
  Buffer[Index] =
      stampNow(__atomic_load_n(&CurrentHeap, __ATOMIC_RELAXED), Stack);
  if (Index + 1 == Half)
    write(Fd, Buffer, Half * sizeof(Record));
  else if (Index + 1 == Whole)
    write(Fd, Buffer + Half, Half * sizeof(Record));
}

void Tally::finishFile() {
  if (!__atomic_exchange_n(&Writing, false, __ATOMIC_ACQ_REL))
    return;
  uint32_t Count = __atomic_load_n(&BufferCount, __ATOMIC_ACQUIRE);
  if (Count > BufferRecords)
    write(Fd, Buffer + BufferRecords,
          (Count - BufferRecords) * sizeof(Record));
  else
    write(Fd, Buffer, Count * sizeof(Record));
  lseek(Fd, 0, SEEK_SET);
  First.Stack = PeakTotal;
  write(Fd, &First, sizeof(First));
  Record Peaks = stampNow(PeakHeap, PeakStack);
  write(Fd, &Peaks, sizeof(Peaks));
  close(Fd);
}

void Tally::finish() {
  finishFile();
  report();
}
