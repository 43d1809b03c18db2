//===- Fork.cpp - The runtime's fork handler ------------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// One pthread_atfork handler for the whole runtime, so that the order in
// which fork takes the runtime's locks is written once (Fork.h gives it and
// why). The forking thread blocks every signal while it holds them: a
// handler of the program's that runs on it meanwhile and calls sigaction,
// or a fatal signal whose handler writes the profile, would wait for a
// lock its own thread holds. It also counts as inside the runtime, so that
// what other fork handlers allocate goes to glibc unrecorded rather than
// into a model it has locked.
//
// The handler is registered at start-up, before the program can register
// its own, so its preparation runs after the program's and its child step
// before the program's: a program's handler that allocates meets a runtime
// that is not held, in the parent and in the child.
//
//===----------------------------------------------------------------------===//

#include "Fork.h"

#include "Applier.h"
#include "Arena.h"
#include "Lifecycle.h"
#include "LoaderWalk.h"
#include "Counters.h"
#include "EventRing.h"
#include "Messages.h"
#include "Modules.h"
#include "State.h"
#include "SymbolizerClient.h"

#include <pthread.h>
#include <signal.h>

using namespace massif;
using namespace massif::native;

namespace {

// Written by the forking thread between the preparation and the parent or
// child step, while it holds the runtime's locks (the first of them keeps
// two forking threads apart).
sigset_t SavedMask;
bool SavedInRuntime = false;

void beforeFork() {
  ThreadState &T = thisThread();
  bool Was = T.InRuntime;
  T.InRuntime = true;
  sigset_t All, Old;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Old);
  loaderWalkBeforeFork();
  SavedMask = Old;
  SavedInRuntime = Was;
  modelBeforeFork();
  ringsBeforeFork();
  signalsBeforeFork();
  modulesBeforeFork();
  countersBeforeFork();
  arenaBeforeFork();
}

void afterForkParent() {
  sigset_t Mask = SavedMask;
  bool Was = SavedInRuntime;
  arenaAfterForkParent();
  countersAfterForkParent();
  modulesAfterForkParent();
  signalsAfterForkParent();
  ringsAfterForkParent();
  modelAfterForkParent();
  loaderWalkAfterForkParent();
  pthread_sigmask(SIG_SETMASK, &Mask, nullptr);
  thisThread().InRuntime = Was;
}

void afterForkChild() {
  sigset_t Mask = SavedMask;
  bool Was = SavedInRuntime;
  threadAreaAfterForkChild();
  applierAfterForkChild(); // first: the locks are uncontended again
  arenaAfterForkChild();
  countersAfterForkChild();
  modulesAfterForkChild();
  loaderWalkAfterForkChild();
  controlAfterForkChild(); // first: the control page is still the parent's
  signalsAfterForkChild();
  modelAfterForkChild(); // the lock is free again; the rings need it
  ringsAfterForkChild();
  symbolizerAfterForkChild();
  if (TheModel.Opts)
    messagesAfterForkChild(*TheModel.Opts);
  pthread_sigmask(SIG_SETMASK, &Mask, nullptr);
  thisThread().InRuntime = Was;
}

} // namespace

void native::installForkHandlers() {
  static bool Done = false;
  if (__atomic_exchange_n(&Done, true, __ATOMIC_ACQ_REL))
    return;
  pthread_atfork(beforeFork, afterForkParent, afterForkChild);
}
