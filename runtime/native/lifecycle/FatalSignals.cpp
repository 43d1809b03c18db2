//===- FatalSignals.cpp - Which signals end the process -------------------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "FatalSignals.h"

#include <pthread.h>

using namespace massif;
using namespace massif::native;

namespace {

/// Signals whose default action ends the process and which Valgrind then
/// reports as fatal (its list in m_signals.c: "core" ones first).
const int CoreSignals[] = {SIGQUIT, SIGILL,  SIGABRT, SIGFPE,  SIGSEGV,
                           SIGBUS,  SIGTRAP, SIGSYS,  SIGXCPU, SIGXFSZ};
const int TermSignals[] = {SIGHUP,  SIGINT, SIGPIPE, SIGALRM, SIGTERM,  SIGUSR1,
                           SIGUSR2, SIGIO,  SIGPWR,  SIGPROF, SIGVTALRM};

bool Fatal[MaxSignal];
sigset_t AsyncFatal;

} // namespace

bool native::isFatalSignal(int Sig) {
  return Sig > 0 && Sig < MaxSignal && Fatal[Sig];
}

bool native::isSynchronous(int Sig) {
  return Sig == SIGSEGV || Sig == SIGBUS || Sig == SIGFPE || Sig == SIGILL ||
         Sig == SIGTRAP || Sig == SIGSYS;
}

void native::noteFatalSignals() {
  sigemptyset(&AsyncFatal);
  auto Note = [](int Sig) {
    if (Sig > 0 && Sig < MaxSignal) {
      Fatal[Sig] = true;
      if (!isSynchronous(Sig))
        sigaddset(&AsyncFatal, Sig);
    }
  };
  for (int Sig : CoreSignals)
    Note(Sig);
  for (int Sig : TermSignals)
    Note(Sig);
  for (int Sig = SIGRTMIN; Sig <= SIGRTMAX; ++Sig)
    Note(Sig);
}

const sigset_t &native::asyncFatalSignals() { return AsyncFatal; }

void native::blockSignalsForWrite(void *Old) {
  sigset_t Mask;
  sigfillset(&Mask);
  for (int Sig = 1; Sig < MaxSignal; ++Sig)
    if (isSynchronous(Sig))
      sigdelset(&Mask, Sig);
  pthread_sigmask(SIG_BLOCK, &Mask, (sigset_t *)Old);
}

void native::restoreSignals(const void *Old) {
  pthread_sigmask(SIG_SETMASK, (const sigset_t *)Old, nullptr);
}
