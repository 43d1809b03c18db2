//===- Threads.cpp - The runtime's pthread_create -------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// pthread_create is interposed so that each new thread clears its thread
// area (state/ThreadArea.h), registers its instruction counter and, with --stacks=yes, turns its stack probes on
// before the program's start routine runs, even if the thread never
// allocates.
// The wrapper's start routine calls the program's with a guaranteed tail
// call, so no runtime frame stays on the thread's stack: stacks captured in
// the thread read routine <- start_thread <- clone, as under Valgrind.
//
//===----------------------------------------------------------------------===//

#include "Arena.h"
#include "Counters.h"
#include "EventRing.h"
#include "Memusage.h"
#include "Next.h"
#include "StackProbes.h"
#include "State.h"

#include <errno.h>
#include <pthread.h>

using namespace massif;
using namespace massif::native;

MASSIF_DECLARE_NEXT(pthread_create);

namespace {

using StartFn = void *(*)(void *);
using CreateFn = int (*)(pthread_t *, const pthread_attr_t *, StartFn,
                         void *);

struct StartArgs {
  StartFn Fn;
  void *Arg;
};

CreateFn realPthreadCreate() {
  static CreateFn Fn = nullptr;
  MASSIF_RESOLVE_NEXT(Fn, pthread_create);
  return Fn;
}

void *startThread(void *P) {
  StartFn Fn = ((StartArgs *)P)->Fn;
  void *Arg = ((StartArgs *)P)->Arg;
  arenaDeallocate(P, sizeof(StartArgs));
  // A cached stack brings the area of the thread that last ran on it.
  startThreadArea(threadArea());
  applyRingsAtThreadStart();
  registerThreadCounter();
  // The stack pointer before the call that entered this function: the
  // program's routine, tail-called, starts its frame there.
  startThreadStack((uintptr_t)__builtin_frame_address(0) + 16);
  [[clang::musttail]] return Fn(Arg);
}

} // namespace

extern "C" MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(pthread_create)(pthread_t *Thread,
                                            const pthread_attr_t *Attr,
                                            StartFn Fn, void *Arg) {
  CreateFn Real = realPthreadCreate();
  if (!Real)
    return EAGAIN;
  auto *A = (StartArgs *)arenaAllocate(sizeof(StartArgs));
  if (!A)
    return Real(Thread, Attr, Fn, Arg);
  A->Fn = Fn;
  A->Arg = Arg;
  int Err;
  if (countingForMemusage()) {
    // Its thread's memory is allocated in here, as by the plain build's call.
    MemusageShiftScope Shift(__builtin_frame_address(0));
    Err = Real(Thread, Attr, startThread, A);
  } else {
    Err = Real(Thread, Attr, startThread, A);
  }
  if (Err != 0)
    arenaDeallocate(A, sizeof(StartArgs));
  return Err;
}
