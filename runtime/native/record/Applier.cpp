//===- Applier.cpp - The model's thread -----------------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// See Applier.h. The thread is started with clone (CLONE_THREAD and the
// rest of what a thread shares, CLONE_SETTLS for a thread pointer of its
// own) on memory of the runtime's: its stack, then room for the static TLS
// that glibc's code would address below the thread pointer (errno, should
// a system call's wrapper fail), then the thread control block, whose
// header is the starting thread's (its stack guard and pointer guard)
// pointing at itself, and whose area at %fs:0x80 (ThreadArea.h) says the
// thread is inside the runtime. It loops: a batch of events under the
// model's lock when the lock is free, short pauses while events come, and
// sleeps, longer and longer, while none do. With MASSIF_MODEL_THREAD=auto
// it stops for good when the machine has no core to spare for it.
//
//===----------------------------------------------------------------------===//

#include "Applier.h"

#include "EventRing.h"
#include "Lock.h"
#include "State.h"
#include "SystemMemory.h"

#include <sched.h>
#include <sys/prctl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

using namespace massif;
using namespace massif::native;

uint32_t native::DirectEventsLeft = 0;

namespace {

bool Allowed = false;
bool Tried = false; ///< once per process
/// MASSIF_MODEL_THREAD=yes: from the first event, and for good.
bool Forced = false;

constexpr size_t StackB = 256 * 1024;
/// Below the thread pointer: where glibc's static TLS would be.
constexpr size_t TlsB = 64 * 1024;
/// The thread control block, and the rest of glibc's thread descriptor
/// after it, which glibc's code may read (zero: no cancellation).
constexpr size_t TcbB = 8 * 1024;
/// The header of glibc's x86-64 thread control block (tcbhead_t) before
/// the runtime's area: copied from the starting thread.
constexpr size_t TcbHeaderB = MASSIF_ABI_THREAD_AREA_OFFSET;
/// Batches: at most this many events under the lock at a time.
constexpr uint32_t BatchEvents = 512;
/// A batch smaller than this is followed by a pause, so that the next one
/// is bigger: each batch costs the lock, the clock's reading and the cache
/// lines that move between the cores, and the program's thread pays for
/// every line the model's thread reads while it writes.
constexpr int FullBatch = 128;
/// The pause, in time-stamp counter ticks (a few microseconds).
constexpr uint64_t PauseTicks = 8192;
/// Pauses without events before the thread sleeps, and its sleeps: from
/// 50 us, doubling while nothing comes, to 1 ms, within which the one
/// thread's ring (8,192 events) does not fill at the rates programs
/// allocate (a ring that fills is applied by its own thread meanwhile).
/// Nobody wakes the thread: woken by the program's thread, the scheduler
/// would run it on that thread's core, behind it, and the two would share
/// one core while another sat idle. (Sleeping between all batches, for
/// about as long as their events take to come, measured slower: lua 1.60
/// times native against 1.43.)
constexpr uint32_t IdlePauses = 16;
constexpr uint64_t FirstSleepNs = 50 * 1000, LastSleepNs = 1000 * 1000;

/// The thread only pays while it has a core of its own. When every core
/// is busy (a parallel build, other programs), the kernel keeps it waiting
/// to run; the program's thread then waits for it (a full ring, the
/// model's lock held by a thread that is not running) and both threads pay
/// for the cache lines that move between them: jsoncpp ran 1.8 times
/// slower than with the events applied directly. So the thread measures,
/// over windows of about 20 ms of the time-stamp counter, the time it was
/// neither running nor asleep by its own choice (waiting for a core, or
/// woken late); after StarvedWindows windows in a row that lost more than
/// a quarter of their time so, it stops, and the program's thread applies
/// its ring itself, as a thread of a program with threads does. With a
/// core to spare it loses microseconds a window. MASSIF_MODEL_THREAD=yes
/// keeps it going regardless.
constexpr uint64_t WindowTicks = uint64_t(1) << 26;
constexpr int StarvedWindows = 2;

void pause() {
  uint64_t Until = __builtin_ia32_rdtsc() + PauseTicks;
  while (__builtin_ia32_rdtsc() < Until)
    __builtin_ia32_pause();
}

/// The raw system call: glibc's wrappers would set errno (in memory glibc
/// did not set up for this thread) and test for cancellation.
long rawSyscall(long Nr, long A1, long A2) {
  long Ret;
  __asm__ volatile("syscall"
                   : "=a"(Ret)
                   : "0"(Nr), "D"(A1), "S"(A2)
                   : "rcx", "r11", "memory");
  return Ret;
}

void sleepNs(uint64_t Ns) {
  timespec T = {(time_t)(Ns / 1000000000), (long)(Ns % 1000000000)};
  rawSyscall(SYS_nanosleep, (long)&T, 0);
}

uint64_t clockNs(clockid_t Clock) {
  timespec T = {0, 0};
  rawSyscall(SYS_clock_gettime, Clock, (long)&T);
  return (uint64_t)T.tv_sec * 1000000000 + (uint64_t)T.tv_nsec;
}

/// Whether the thread has been starved of a core (see WindowTicks).
struct StarvationWatch {
  uint64_t WindowEnd = __builtin_ia32_rdtsc() + WindowTicks;
  uint64_t Wall = clockNs(CLOCK_MONOTONIC);
  uint64_t Cpu = clockNs(CLOCK_THREAD_CPUTIME_ID);
  uint64_t SleptNs = 0; ///< asked for in this window
  int Starved = 0;

  bool starved() {
    if (__builtin_expect(__builtin_ia32_rdtsc() < WindowEnd, 1))
      return false;
    uint64_t NowWall = clockNs(CLOCK_MONOTONIC);
    uint64_t NowCpu = clockNs(CLOCK_THREAD_CPUTIME_ID);
    uint64_t WallNs = NowWall - Wall, UsedNs = (NowCpu - Cpu) + SleptNs;
    bool Lost = UsedNs < WallNs && WallNs - UsedNs > WallNs / 4;
    Starved = Lost ? Starved + 1 : 0;
    Wall = NowWall;
    Cpu = NowCpu;
    SleptNs = 0;
    WindowEnd = __builtin_ia32_rdtsc() + WindowTicks;
    return Starved >= StarvedWindows;
  }
};

int applierMain(void *) {
  ThreadArea &A = threadArea();
  A.Thread.InRuntime = true; // nothing it does is an event
  A.Thread.StackKnown = true;
  // Sleeps of microseconds, not the 50 us the kernel may add by default.
  rawSyscall(SYS_prctl, PR_SET_TIMERSLACK, 1000);
  uint64_t SleepNs = FirstSleepNs;
  StarvationWatch Watch;
  for (uint32_t Idle = 0;;) {
    if (!Forced && Watch.starved())
      break;
    int N = applierBatch(BatchEvents);
    if (N < 0)
      break;
    if (N > 0) {
      Idle = 0;
      SleepNs = FirstSleepNs;
      if (N < FullBatch)
        pause();
      continue;
    }
    if (++Idle < IdlePauses) {
      pause();
      continue;
    }
    sleepNs(SleepNs);
    Watch.SleptNs += SleepNs;
    SleepNs = SleepNs * 2 < LastSleepNs ? SleepNs * 2 : LastSleepNs;
  }
  // The program's threads apply their rings from now on.
  __atomic_store_n(&ApplierRunning, false, __ATOMIC_RELEASE);
  return 0;
}

/// How many CPUs the process may run on. The system call itself: glibc's
/// wrapper and CPU_COUNT's helper sit on pages of libc the program may
/// never use, which the kernel maps in sixteen at a time.
int usableCpus() {
  uint64_t Mask[16] = {};
  long B = syscall(SYS_sched_getaffinity, 0, sizeof(Mask), Mask);
  if (B <= 0)
    return 1;
  int N = 0;
  for (long I = 0; I < B / 8; ++I)
    N += __builtin_popcountll(Mask[I]);
  return N;
}

} // namespace

void native::allowApplier(bool Allow, bool Eager) {
  Allowed = Allow && usableCpus() >= 2;
  Forced = Allowed && Eager;
  DirectEventsLeft = !Allowed ? 0 : Eager ? 1 : ApplierStartEvents;
}

void native::startApplier() {
  if (!Allowed || Tried ||
      !__atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED))
    return;
  Tried = true;
  char *Mem = (char *)systemMmap(nullptr, StackB + TlsB + TcbB,
                                 PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                                 -1, 0);
  if (Mem == MAP_FAILED)
    return;
  char *Tcb = Mem + StackB + TlsB;
  char *Self;
  __asm__("movq %%fs:0, %0" : "=r"(Self));
  memcpy(Tcb, Self, TcbHeaderB);
  void **Header = (void **)Tcb;
  Header[0] = Tcb; // tcbhead_t.tcb: the thread pointer's first word
  Header[2] = Tcb; // tcbhead_t.self
  // From now on the runtime's locks are contended.
  __atomic_store_n(&RuntimeThreads, true, __ATOMIC_SEQ_CST);
  sigset_t All, Old;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Old);
  int Tid = clone(applierMain, Mem + StackB,
                  CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
                      CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS,
                  nullptr, nullptr, Tcb, nullptr);
  pthread_sigmask(SIG_SETMASK, &Old, nullptr);
  if (Tid <= 0) {
    __atomic_store_n(&RuntimeThreads, false, __ATOMIC_SEQ_CST);
    systemMunmap(Mem, StackB + TlsB + TcbB);
    return;
  }
  __atomic_store_n(&ApplierRunning, true, __ATOMIC_RELEASE);
}

void native::applierAfterForkChild() {
  __atomic_store_n(&ApplierRunning, false, __ATOMIC_RELAXED);
  __atomic_store_n(&RuntimeThreads, false, __ATOMIC_RELAXED);
  Tried = false;
  DirectEventsLeft = Allowed ? ApplierStartEvents : 0;
}
