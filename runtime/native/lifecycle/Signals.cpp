//===- Signals.cpp - The profile at a fatal signal ------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Valgrind writes Massif's file whenever a signal's default action ends the
// process, since the process dies under its control. Natively the runtime
// puts a handler on every such signal whose disposition is SIG_DFL, writes
// the profile from it, restores SIG_DFL and lets the signal do what it would
// have done: a fault returns and faults again at the same instruction, any
// other signal is raised again. Exit status and core dumps are those of the
// program without the runtime. A signal sent while its thread is inside the
// runtime (which may hold the locks the write needs) waits until the thread
// leaves it, unless it comes from the thread's own code (a fault, glibc's
// abort inside malloc): then nothing is written.
//
// The program must never notice the handler: sigaction, signal and
// bsd_signal are interposed so that asking for SIG_DFL keeps the runtime's
// handler in place (remembering what the program asked for), any other
// disposition replaces it, and every query reports what the program set. A
// handler the program installs therefore runs exactly as without the
// runtime; when it resets SIG_DFL and raises again, the runtime's handler
// is back and writes the profile.
//
//===----------------------------------------------------------------------===//

#include "ControlChannel.h"
#include "FatalSignals.h"
#include "Fork.h"
#include "Lifecycle.h"
#include "Lock.h"
#include "Next.h"
#include "State.h"
#include "SystemMemory.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

using namespace massif;
using namespace massif::native;

// glibc's, which its headers no longer declare.
extern "C" sighandler_t bsd_signal(int Sig, sighandler_t Handler);

MASSIF_DECLARE_NEXT(signal);
MASSIF_DECLARE_NEXT(bsd_signal);
MASSIF_DECLARE_NEXT(raise);
MASSIF_DECLARE_NEXT(pthread_kill);

// glibc's sigaction under the name that the interposer cannot shadow.
extern "C" int __sigaction(int Sig, const struct sigaction *Act,
                           struct sigaction *OldAct);

namespace {

/// The runtime's handler is installed while the program believes the
/// disposition is ProgramView[Sig] (a SIG_DFL).
bool Ours[MaxSignal];
struct sigaction ProgramView[MaxSignal];
bool Installed = false;
/// Serialises the interposed sigaction with the handler's reset; taken
/// with every signal blocked so that no handler on the same thread can
/// want it meanwhile.
Mutex ViewLock;

using SignalFn = sighandler_t (*)(int, sighandler_t);
SignalFn RealSignal = nullptr;
SignalFn RealBsdSignal = nullptr;
using RaiseFn = int (*)(int);
RaiseFn RealRaise = nullptr;
using PthreadKillFn = int (*)(pthread_t, int);
PthreadKillFn RealPthreadKill = nullptr;

bool watched(int Sig) { return isFatalSignal(Sig); }

void onFatalSignal(int Sig, siginfo_t *Info, void *);

struct sigaction runtimeAction() {
  struct sigaction A;
  memset(&A, 0, sizeof(A));
  A.sa_sigaction = onFatalSignal;
  A.sa_mask = asyncFatalSignals();
  A.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  return A;
}

/// Holds ViewLock with all signals blocked on this thread.
class ViewGuard {
public:
  ViewGuard() {
    sigset_t All;
    sigfillset(&All);
    pthread_sigmask(SIG_SETMASK, &All, &Old);
    ViewLock.lock();
  }
  ~ViewGuard() {
    ViewLock.unlock();
    pthread_sigmask(SIG_SETMASK, &Old, nullptr);
  }

private:
  sigset_t Old;
};

/// An alternate stack for the thread that starts the runtime (the main
/// thread, nearly always), so that a stack overflow there still reaches
/// the handler. Left alone when the program already has one.
void installAltStack() {
  stack_t Old;
  if (sigaltstack(nullptr, &Old) != 0 || !(Old.ss_flags & SS_DISABLE))
    return;
  constexpr size_t GuardB = 4096, StackB = 256 * 1024;
  void *Mem = systemMmap(nullptr, GuardB + StackB, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Mem == MAP_FAILED)
    return;
  mprotect(Mem, GuardB, PROT_NONE);
  stack_t New;
  New.ss_sp = (char *)Mem + GuardB;
  New.ss_size = StackB;
  New.ss_flags = 0;
  if (sigaltstack(&New, nullptr) != 0)
    systemMunmap(Mem, GuardB + StackB);
}

/// Puts SIG_DFL back, which is what the program believes is there.
void resetToDefault(int Sig) {
  struct sigaction Dfl;
  memset(&Dfl, 0, sizeof(Dfl));
  Dfl.sa_handler = SIG_DFL;
  ViewGuard G;
  __sigaction(Sig, &Dfl, nullptr);
  Ours[Sig] = false;
}

/// Writes the profile and dies of Sig as the program would have: a fault
/// the kernel raised (Info from the handler) returns to fault again at the
/// same instruction, with the default action, so the core dump shows the
/// program's own state; any other signal is raised again.
void dieOf(int Sig, const siginfo_t *Info) {
  char Name[24] = "SIG";
  const char *Abbrev = sigabbrev_np(Sig);
  strncat(Name, Abbrev ? Abbrev : "?", sizeof(Name) - 4);
  writeProfile(WriteReason::Signal, Name);
  resetToDefault(Sig);
  if (isSynchronous(Sig) && Sig != SIGTRAP && Sig != SIGSYS && Info &&
      Info->si_code > 0)
    return;
  sigset_t Only;
  sigemptyset(&Only);
  sigaddset(&Only, Sig);
  pthread_sigmask(SIG_UNBLOCK, &Only, nullptr);
  if (RealRaise)
    RealRaise(Sig);
  else
    syscall(SYS_tgkill, getpid(), gettid(), Sig);
}

/// A signal that does not come from the interrupted instruction stream
/// itself (SIGABRT does: glibc's malloc aborts) can wait for its thread to
/// leave the runtime.
bool canWait(int Sig) { return !isSynchronous(Sig) && Sig != SIGABRT; }

/// Sends Sig to the process again in 200 ms, in case no thread reaches the
/// end of an event before (a guard outside events). Raw syscalls: nothing
/// here may allocate.
bool armFallback(int Sig) {
  struct sigevent Ev;
  memset(&Ev, 0, sizeof(Ev));
  Ev.sigev_notify = SIGEV_SIGNAL;
  Ev.sigev_signo = Sig;
  int Id = 0;
  if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &Ev, &Id) != 0)
    return false;
  struct itimerspec When;
  memset(&When, 0, sizeof(When));
  When.it_value.tv_nsec = 200 * 1000 * 1000;
  if (syscall(SYS_timer_settime, Id, 0, &When, nullptr) != 0) {
    syscall(SYS_timer_delete, Id);
    return false;
  }
  return true;
}

void onFatalSignal(int Sig, siginfo_t *Info, void *) {
  int SavedErrno = errno;
  // Inside the runtime this thread may hold the locks that writing needs.
  // A signal that can wait is left pending until a thread ends its event
  // (endEvent delivers it), with a fallback timer that sends it again. The
  // first one is kept; a later one, or the timer's, that lands inside the
  // runtime again (a thread waiting for the model's lock, on a busy
  // machine, may take longer than the timer) only arms the timer anew.
  if (insideRuntime() && canWait(Sig) && ownsRuntime()) {
    // A control request (Control.cpp) may share the word: keep it.
    int Expected =
        __atomic_load_n(&PendingSignal, __ATOMIC_RELAXED) & control::RequestBit;
    bool Kept = __atomic_compare_exchange_n(&PendingSignal, &Expected,
                                            Expected | Sig, false,
                                            __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    if (armFallback(Sig)) {
      errno = SavedErrno;
      return;
    }
    if (Kept)
      __atomic_fetch_and(&PendingSignal, control::RequestBit,
                         __ATOMIC_RELEASE);
  }
  dieOf(Sig, Info);
  errno = SavedErrno;
}

/// SIGKILL cannot be caught, but Valgrind sees a process send it to itself
/// (kill, tgkill) and writes the file before dying; so does the runtime.
void beforeKillingSelf(int Sig) {
  if (Sig == SIGKILL)
    writeProfile(WriteReason::Immediate, "SIGKILL");
}

/// signal() and bsd_signal(): glibc's own when the runtime is not involved
/// (it keeps siginterrupt's state), the interposed sigaction for SIG_DFL.
sighandler_t setSignal(SignalFn Real, int Sig, sighandler_t Handler) {
  if (!watched(Sig) || !__atomic_load_n(&Installed, __ATOMIC_ACQUIRE))
    return Real ? Real(Sig, Handler) : SIG_ERR;
  if (Handler == SIG_DFL) {
    struct sigaction A, Old;
    memset(&A, 0, sizeof(A));
    A.sa_handler = SIG_DFL;
    sigemptyset(&A.sa_mask);
    sigaddset(&A.sa_mask, Sig);
    A.sa_flags = SA_RESTART;
    if (sigaction(Sig, &A, &Old) != 0)
      return SIG_ERR;
    return Old.sa_handler;
  }
  if (!Real)
    return SIG_ERR;
  ViewGuard G;
  bool WasOurs = Ours[Sig];
  sighandler_t Old = Real(Sig, Handler);
  if (Old == SIG_ERR)
    return SIG_ERR;
  Ours[Sig] = false;
  return WasOurs ? ProgramView[Sig].sa_handler : Old;
}

} // namespace

void native::installFatalSignalHandlers() {
  noteFatalSignals();

  MASSIF_RESOLVE_NEXT(RealSignal, signal);
  MASSIF_RESOLVE_NEXT(RealBsdSignal, bsd_signal);
  MASSIF_RESOLVE_NEXT(RealRaise, raise); // the handler raises: no dlsym there
  MASSIF_RESOLVE_NEXT(RealPthreadKill, pthread_kill);
  installAltStack();

  struct sigaction Ours_ = runtimeAction();
  ViewGuard G;
  for (int Sig = 1; Sig < MaxSignal; ++Sig) {
    if (!isFatalSignal(Sig))
      continue;
    struct sigaction Cur;
    if (__sigaction(Sig, nullptr, &Cur) != 0 || Cur.sa_handler != SIG_DFL)
      continue; // ignored or handled by the program: leave it be
    if (__sigaction(Sig, &Ours_, nullptr) == 0) {
      ProgramView[Sig] = Cur;
      Ours[Sig] = true;
    }
  }
  __atomic_store_n(&Installed, true, __ATOMIC_RELEASE);
}

// native::PendingSignal is defined by Control.cpp: the first word of the
// control page.

// The forking thread has every signal blocked (Fork.cpp), as ViewGuard
// would.
void native::signalsBeforeFork() { ViewLock.lock(); }

void native::signalsAfterForkParent() { ViewLock.unlock(); }

// A signal the parent received inside the runtime and was about to die of
// was the parent's, not the child's.
void native::signalsAfterForkChild() {
  ViewLock.reset();
  __atomic_store_n(&PendingSignal, 0, __ATOMIC_RELAXED);
}

void native::deliverPendingSignal() {
  // A child that fork's handlers did not run in (_Fork, a raw clone)
  // still shares the word with its parent, through the control page: what
  // is pending there is the parent's, for the parent to take.
  if (!ownsRuntime())
    return;
  int Word = __atomic_load_n(&PendingSignal, __ATOMIC_ACQUIRE);
  // A fatal signal first (its fallback timer is running); the word's
  // request bit, if any, stays for whoever comes next.
  if (Word & ~control::RequestBit) {
    int Sig = __atomic_fetch_and(&PendingSignal, control::RequestBit,
                                 __ATOMIC_ACQ_REL) &
              ~control::RequestBit;
    if (Sig)
      dieOf(Sig, nullptr);
  }
  if (Word & control::RequestBit)
    takeControlRequest();
}

extern "C" {

MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(sigaction)(int Sig, const struct sigaction *Act,
                            struct sigaction *OldAct) {
  if (!watched(Sig) || !__atomic_load_n(&Installed, __ATOMIC_ACQUIRE))
    return __sigaction(Sig, Act, OldAct);
  ViewGuard G;
  bool WasOurs = Ours[Sig];
  struct sigaction KernelOld;
  int R;
  if (Act && Act->sa_handler == SIG_DFL) {
    // Keep the runtime's handler; remember what the program asked for.
    struct sigaction Runtime = runtimeAction();
    R = __sigaction(Sig, &Runtime, &KernelOld);
    if (R == 0) {
      struct sigaction Asked = *Act;
      if (OldAct)
        *OldAct = WasOurs ? ProgramView[Sig] : KernelOld;
      ProgramView[Sig] = Asked;
      Ours[Sig] = true;
    }
    return R;
  }
  R = __sigaction(Sig, Act, &KernelOld);
  if (R != 0)
    return R;
  if (Act)
    Ours[Sig] = false;
  if (OldAct)
    *OldAct = WasOurs ? ProgramView[Sig] : KernelOld;
  return 0;
}

MASSIF_EXPORT sighandler_t MASSIF_STANDS_IN_FOR(signal)(int Sig,
                                                       sighandler_t Handler) {
  MASSIF_RESOLVE_NEXT(RealSignal, signal);
  return setSignal(RealSignal, Sig, Handler);
}

MASSIF_EXPORT sighandler_t
MASSIF_STANDS_IN_FOR(bsd_signal)(int Sig, sighandler_t Handler) {
  MASSIF_RESOLVE_NEXT(RealBsdSignal, bsd_signal);
  return setSignal(RealBsdSignal, Sig, Handler);
}

MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(kill)(pid_t Pid, int Sig) {
  if (Pid > 0 && (Pid == getpid() || Pid == gettid()))
    beforeKillingSelf(Sig);
  return (int)syscall(SYS_kill, Pid, Sig);
}

MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(tgkill)(pid_t Tgid, pid_t Tid, int Sig) {
  if (Tgid == getpid())
    beforeKillingSelf(Sig);
  return (int)syscall(SYS_tgkill, Tgid, Tid, Sig);
}

MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(raise)(int Sig) {
  beforeKillingSelf(Sig);
  MASSIF_RESOLVE_NEXT(RealRaise, raise);
  return RealRaise ? RealRaise(Sig)
                   : (int)syscall(SYS_tgkill, getpid(), gettid(), Sig);
}

MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(pthread_kill)(pthread_t Thread, int Sig) {
  beforeKillingSelf(Sig); // any thread of the process: all of it dies
  MASSIF_RESOLVE_NEXT(RealPthreadKill, pthread_kill);
  return RealPthreadKill ? RealPthreadKill(Thread, Sig) : ENOSYS;
}

} // extern "C"
