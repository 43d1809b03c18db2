//===- Exits.cpp - _exit, abort and exec, with the profile written --------===//
//
// Part of massif-native, under the MIT licence.
//
// Under Valgrind every end of the process passes through Valgrind, which
// writes Massif's file; natively the ends that skip exit handlers are
// interposed here. _exit and _Exit write the profile and end the process;
// abort raises SIGABRT as glibc's does (the runtime's handler writes at
// the default action) and writes after a program's handler returned or
// when SIGABRT is ignored; quick_exit is covered by a handler that
// start-up registers with at_quick_exit. An abort inside glibc (assert,
// malloc's checks) is glibc's own and reaches only the signal handler.
//
// exec: Massif writes nothing when the image is replaced (Valgrind does not
// follow the new program by default, and the old one never exits). Here the
// profile so far is written before every exec function, under the name it
// would have at exit (%p is the pid, which exec keeps), and recording goes
// on in case the exec fails. Calls inside glibc (posix_spawn, system,
// execvp's own execve) do not come through here: posix_spawn's child shares
// the parent's memory, and its parent writes at its own end. Under msrun
// (Valgrind's command line) nothing is written at an exec, as Massif, and
// the exec follows --trace-children (Children.cpp).
//
//===----------------------------------------------------------------------===//

#include "Children.h"
#include "Lifecycle.h"
#include "Next.h"
#include "State.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;
// glibc's sigaction under the name that the interposer cannot shadow.
extern "C" int __sigaction(int Sig, const struct sigaction *Act,
                           struct sigaction *OldAct);

using namespace massif;
using namespace massif::native;

MASSIF_DECLARE_NEXT(abort);
MASSIF_DECLARE_NEXT(raise);
MASSIF_DECLARE_NEXT(execvp);
MASSIF_DECLARE_NEXT(execvpe);
MASSIF_DECLARE_NEXT(fexecve);

namespace {

using AbortFn = void (*)(void);
using ExecvpFn = int (*)(const char *, char *const[]);
using ExecvpeFn = int (*)(const char *, char *const[], char *const[]);
using FexecveFn = int (*)(int, char *const[], char *const[]);

AbortFn RealAbort = nullptr;
int (*RealRaise)(int) = nullptr;
ExecvpFn RealExecvp = nullptr;
ExecvpeFn RealExecvpe = nullptr;
FexecveFn RealFexecve = nullptr;

/// glibc's raise(Sig), not the runtime's (Signals.cpp): its frame is in
/// the stacks of what a SIGABRT handler allocates, as under Valgrind.
void raiseNow(int Sig) {
  MASSIF_RESOLVE_NEXT(RealRaise, raise);
  if (RealRaise)
    RealRaise(Sig);
  else
    syscall(SYS_tgkill, getpid(), gettid(), Sig);
}

void beforeExec() {
  // Under Valgrind's command line (msrun) nothing is written, as Massif.
  if (!execsAsValgrind())
    writeProfile(WriteReason::Exec, "exec");
}

int execveNow(const char *Path, char *const Argv[], char *const Envp[]) {
  return (int)syscall(SYS_execve, Path, Argv, Envp);
}

int execvpeNow(const char *File, char *const Argv[], char *const Envp[]) {
  MASSIF_RESOLVE_NEXT(RealExecvpe, execvpe);
  if (!RealExecvpe) {
    errno = ENOSYS;
    return -1;
  }
  return RealExecvpe(File, Argv, Envp);
}

struct FdExec {
  int Fd;
  char *const *Argv;
};
int fexecveNow(void *Ctx, char *const Envp[]) {
  auto *E = static_cast<FdExec *>(Ctx);
  MASSIF_RESOLVE_NEXT(RealFexecve, fexecve);
  if (!RealFexecve) {
    errno = ENOSYS;
    return -1;
  }
  return RealFexecve(E->Fd, E->Argv, Envp);
}

struct AtExec {
  int DirFd;
  const char *Path;
  char *const *Argv;
  int Flags;
};
int execveatNow(void *Ctx, char *const Envp[]) {
  auto *E = static_cast<AtExec *>(Ctx);
  return (int)syscall(SYS_execveat, E->DirFd, E->Path, E->Argv, Envp,
                      E->Flags);
}

/// Counts the arguments of an execl-style call after Arg0, up to the null.
size_t countArgs(va_list Ap) {
  size_t N = 1;
  while (va_arg(Ap, char *))
    ++N;
  return N;
}

/// Fills Argv[0..N] with Arg0, the N - 1 arguments after it in *Ap and the
/// null that ends them; *Ap is left after the null (execle's envp).
void gatherArgs(char **Argv, const char *Arg0, va_list *Ap, size_t N) {
  Argv[0] = (char *)Arg0;
  for (size_t I = 1; I <= N; ++I)
    Argv[I] = va_arg(*Ap, char *);
}

} // namespace

void native::resolveExitFunctions() {
  MASSIF_RESOLVE_NEXT(RealAbort, abort);
  MASSIF_RESOLVE_NEXT(RealRaise, raise);
  MASSIF_RESOLVE_NEXT(RealExecvp, execvp);
  MASSIF_RESOLVE_NEXT(RealExecvpe, execvpe);
  MASSIF_RESOLVE_NEXT(RealFexecve, fexecve);
}

extern "C" {

MASSIF_EXPORT void MASSIF_STANDS_IN_FOR(_exit)(int Status) {
  writeExitProfile(WriteReason::Immediate, "_exit");
  exitNow(Status);
}

MASSIF_EXPORT void MASSIF_STANDS_IN_FOR(_Exit)(int Status) {
  writeExitProfile(WriteReason::Immediate, "_Exit");
  exitNow(Status);
}

MASSIF_EXPORT void MASSIF_STANDS_IN_FOR(abort)(void) {
  // glibc's first step, done here so that the profile can be written after
  // a handler of the program ran: unblock SIGABRT and raise it. With the
  // default action the runtime's handler writes and the process dies.
  sigset_t Abrt;
  sigemptyset(&Abrt);
  sigaddset(&Abrt, SIGABRT);
  pthread_sigmask(SIG_UNBLOCK, &Abrt, nullptr);
  raiseNow(SIGABRT);
  // The program's handler returned, or SIGABRT is ignored: abort ends the
  // process all the same, by SIGABRT with its default action, which glibc
  // would now set; setting it first keeps the handler from running twice.
  writeProfile(WriteReason::Immediate, "abort");
  struct sigaction Dfl;
  memset(&Dfl, 0, sizeof(Dfl));
  Dfl.sa_handler = SIG_DFL;
  sigfillset(&Dfl.sa_mask);
  __sigaction(SIGABRT, &Dfl, nullptr);
  MASSIF_RESOLVE_NEXT(RealAbort, abort);
  if (RealAbort)
    RealAbort();
  raiseNow(SIGABRT); // not reached with glibc
  exitNow(127);
}

MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(execve)(const char *Path, char *const Argv[],
                         char *const Envp[]) {
  beforeExec();
  return execChild(Path, false, Argv, Envp, execveNow);
}

MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(execv)(const char *Path, char *const Argv[]) {
  beforeExec();
  return execChild(Path, false, Argv, environ, execveNow);
}

MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(execvp)(const char *File, char *const Argv[]) {
  beforeExec();
  return execChild(File, true, Argv, environ, execvpeNow);
}

MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(execvpe)(const char *File, char *const Argv[],
                          char *const Envp[]) {
  beforeExec();
  return execChild(File, true, Argv, Envp, execvpeNow);
}

// fexecve and execveat name no path msrun could run: their children are
// not followed, even with --trace-children=yes.
MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(fexecve)(int Fd, char *const Argv[], char *const Envp[]) {
  beforeExec();
  FdExec E = {Fd, Argv};
  if (!execsAsValgrind())
    return fexecveNow(&E, Envp);
  return execUnfollowed(Envp, fexecveNow, &E);
}

MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(execveat)(int DirFd, const char *Path, char *const Argv[],
                           char *const Envp[], int Flags) {
  beforeExec();
  AtExec E = {DirFd, Path, Argv, Flags};
  if (!execsAsValgrind())
    return execveatNow(&E, Envp);
  return execUnfollowed(Envp, execveatNow, &E);
}

// The execl forms gather their arguments as glibc does, on the stack, and
// go through the vector forms above (one write each).
MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(execl)(const char *Path, const char *Arg0, ...) {
  va_list Ap;
  va_start(Ap, Arg0);
  size_t N = countArgs(Ap);
  va_end(Ap);
  char **Argv = (char **)__builtin_alloca((N + 1) * sizeof(char *));
  va_start(Ap, Arg0);
  gatherArgs(Argv, Arg0, &Ap, N);
  va_end(Ap);
  return execv(Path, Argv);
}

MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(execlp)(const char *File, const char *Arg0, ...) {
  va_list Ap;
  va_start(Ap, Arg0);
  size_t N = countArgs(Ap);
  va_end(Ap);
  char **Argv = (char **)__builtin_alloca((N + 1) * sizeof(char *));
  va_start(Ap, Arg0);
  gatherArgs(Argv, Arg0, &Ap, N);
  va_end(Ap);
  return execvp(File, Argv);
}

MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(execle)(const char *Path, const char *Arg0, ...) {
  va_list Ap;
  va_start(Ap, Arg0);
  size_t N = countArgs(Ap);
  va_end(Ap);
  char **Argv = (char **)__builtin_alloca((N + 1) * sizeof(char *));
  va_start(Ap, Arg0);
  gatherArgs(Argv, Arg0, &Ap, N);
  char *const *Envp = va_arg(Ap, char *const *);
  va_end(Ap);
  return execve(Path, Argv, Envp);
}

} // extern "C"
