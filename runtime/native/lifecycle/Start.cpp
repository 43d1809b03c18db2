//===- Start.cpp - The native runtime's start-up ---===//
//
// Part of massif-native, under the MIT licence.
//
// Start-up happens once, at the first allocation event or in a priority-101
// constructor, whichever comes first (shared libraries' constructors may
// allocate before ours runs, and Massif counts those allocations). It reads
// MASSIF_OPTIONS, rejects bad options before main runs, sets up the model in
// arena memory and takes the start-up snapshot.
//
//===----------------------------------------------------------------------===//

#include "Lifecycle.h"

#include "Applier.h"
#include "Arena.h"
#include "Children.h"
#include "ClientArena.h"
#include "Counters.h"
#include "EventRing.h"
#include "Fork.h"
#include "Memusage.h"
#include "Messages.h"
#include "Modules.h"
#include "OutFile.h"
#include "Process.h"
#include "SnapshotEngine.h"
#include "StackFilter.h"
#include "State.h"
#include "SymbolizerClient.h"
#include "UnderValgrind.h"
#include "Unwind.h"

#include <new>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

using namespace massif;
using namespace massif::native;

namespace {

/// Where Valgrind 3.19 would put this program's first heap superblock: after
/// the loader, the preloads and libc, which the loader maps above the hole
/// its cache (/etc/ld.so.cache, mapped then unmapped) leaves; so the place
/// moves by a page per page of the cache. ClientArena::DefaultHeapBase is
/// the place for an 11-page cache.
uint64_t valgrindClientHeapBase() {
  constexpr uint64_t PageB = 4096, DefaultCachePages = 11;
  struct stat St;
  uint64_t CachePages = 0;
  if (stat("/etc/ld.so.cache", &St) == 0 && St.st_size > 0)
    CachePages = (uint64_t(St.st_size) + PageB - 1) / PageB;
  return ClientArena::DefaultHeapBase + CachePages * PageB -
         DefaultCachePages * PageB;
}

// Zero-initialised storage: no constructors run for any of it.

uint64_t readInstructions() { return __massif_instructions_total(); }

// The model's clocks; a ring event being applied has its own time.
uint64_t nowMs(void *) { return eventClock<millisecondClock>(); }
uint64_t nowInstructions(void *) {
  // One thread, never more: its counter is the clock, and no ring event is
  // being applied. Its readings only grow, so eventClock's floor, which
  // later readings also pass, need not follow them.
  if (!ApplyingRingEvent) {
    uint64_t V = singleThreadInstructions();
    if (V != NoSingleThreadClock)
      return V;
  }
  return eventClock<readInstructions>();
}

bool writeToStdout(void *, const char *Data, size_t Len) {
  return writeAll(1, Data, Len);
}

void verboseLine(void *, const char *Text) { writeVerboseLine(Text); }

void onQuickExit() { writeExitProfile(WriteReason::Immediate, "quick_exit"); }

/// Parses MASSIF_OPTIONS into O; exits the process on --help or an error.
void parseOptionsOrExit(Options &O) {
  const char *Text = getOptionsVariable();
  if (!Text)
    return;
  OptionError E;
  E.Text[0] = 0;
  switch (parseOptionString(O, Text, arenaAllocator(), E)) {
  case ParseResult::Ok:
    if (engineCanProfile(O, /*SeesPages=*/false, E) &&
        nativeTakesOptions(O, E))
      return;
    reportBadOption(E.Text);
    exitNow(1);
  case ParseResult::Help:
    writeHelp(Sink{writeToStdout, nullptr});
    exitNow(0);
  case ParseResult::Error:
    reportBadOption(E.Text);
    exitNow(1);
  }
}

/// Chooses the clock for the time unit, falling back from instructions to
/// milliseconds (with a warning) when no linked code counts instructions.
Clock chooseClock(Options &O) {
  if (O.TimeUnit == TimeUnit::Instructions) {
    if (instructionCountersLinked())
      return Clock{nowInstructions, nullptr};
    writeLines(warningFd(), "massif: ",
               "warning: --time-unit=i requires instruction counters, and "
               "no code of this program was built with them (mscc builds "
               "with them); using --time-unit=ms");
    O.TimeUnit = TimeUnit::Milliseconds;
  }
  startMillisecondClock();
  return Clock{nowMs, nullptr};
}

/// The frames a capture keeps. Massif unwinds --depth + 50 frames, strips
/// the alloc-fns at the top and keeps --depth of the rest; its tree merges
/// entries that differ only below that, so frames past the alloc-fns plus
/// --depth never show. Without --alloc-fn, the frames stripped are the
/// default list's: the runtime's own entry points, whose frame a capture
/// drops, and rarely a library's own operator new or calloc on the way to
/// malloc, which a few frames of margin cover. --ignore-fn may look past
/// unnamed frames for a name, so with it Massif's count is kept.
uint32_t captureMax(const Options &O) {
  constexpr uint64_t DefaultFnsMargin = 8, MassifMargin = 50;
  bool Named = O.AllocFns.Count != 0 || O.IgnoreFns.Count != 0;
  uint64_t Frames =
      (uint64_t)O.Depth + (Named ? MassifMargin : DefaultFnsMargin);
  return Frames < MaxCapturedFrames ? (uint32_t)Frames : MaxCapturedFrames;
}

/// MASSIF_SYMBOLIZER_TIMEOUT: how many seconds (a decimal number, at most
/// 3600) the symbolizer may do nothing before the runtime stops waiting
/// for it. Another value is reported and the default kept.
void readSymbolizerTimeout() {
  const char *Text = getEnvironmentVariable("MASSIF_SYMBOLIZER_TIMEOUT");
  if (!Text)
    return;
  uint64_t Ms = 0, Scale = 1000;
  bool Digits = false, Ok = true, Point = false;
  for (const char *C = Text; *C && Ok; ++C) {
    if (*C >= '0' && *C <= '9') {
      Digits = true;
      if (Point) {
        Scale /= 10;
        Ms += uint64_t(*C - '0') * Scale;
      } else {
        Ms = Ms * 10 + uint64_t(*C - '0') * 1000;
      }
      Ok = Ms <= 3600 * 1000;
    } else {
      Ok = *C == '.' && !Point;
      Point = true;
    }
  }
  if (!Ok || !Digits || Ms == 0) {
    const char *Parts[] = {"massif: warning: MASSIF_SYMBOLIZER_TIMEOUT=", Text,
                           " is not a number of seconds from 0.001 to 3600;"
                           " the symbolizer gets 10"};
    writeLine(warningFd(), Parts, 3);
    return;
  }
  setSymbolizerStallBound((uint32_t)Ms);
}

/// Sets up everything; returns the state to enter.
RuntimeState initialise() {
  // On Valgrind its tool profiles the program: nothing starts here.
  if (underValgrind())
    return StateDisabled;
  // Under ms_memusage the program is counted, not profiled: the runtime
  // counts its malloc family for memusage (interpose/Memusage.h).
  if (countingForMemusage())
    return StateDisabled;
  installForkHandlers();
  if (secureMode())
    writeLine(2, "massif: warning: the program runs with privileges "
                 "(set-user-ID, set-group-ID or capabilities): "
                 "MASSIF_OPTIONS and the environment are ignored, and the "
                 "profile is written as massif.out.<pid> in the working "
                 "directory by the user who ran it, never over an existing "
                 "file");
  const Allocator &A = arenaAllocator();
  void *OptsMem = A.allocate(sizeof(Options));
  void *DepotMem = A.allocate(sizeof(StackDepot));
  void *ProfMem = A.allocate(sizeof(Profile));
  if (!OptsMem || !DepotMem || !ProfMem)
    return StateDisabled;
  Options *O = new (OptsMem) Options();
  parseOptionsOrExit(*O);
  // A program the profiled one started: profiled only when msrun started
  // it for --trace-children=yes (Children.cpp).
  if (!profilesThisProcess(*O))
    return StateDisabled;
  if (!setUpMessages(*O))
    exitNow(1);
  readSymbolizerTimeout();
  // The model's thread (Applier.h), only when MASSIF_MODEL_THREAD asks for
  // it: not with stack probes, which change the totals from the program's
  // threads, nor when names decide what counts (the symbolizer would run
  // there), nor with Massif's -v -v trace.
  const char *Thread = getEnvironmentVariable("MASSIF_MODEL_THREAD");
  bool Eager = Thread && strcmp(Thread, "yes") == 0;
  bool Lazy = Thread && strcmp(Thread, "auto") == 0;
  if (Thread && !Eager && !Lazy && strcmp(Thread, "no") != 0) {
    const char *Parts[] = {"massif: warning: MASSIF_MODEL_THREAD=", Thread,
                           " is not yes, auto or no; the program's thread "
                           "applies its events itself"};
    writeLine(warningFd(), Parts, 3);
  }
  allowApplier((Eager || Lazy) && !O->Stacks && O->AllocFns.Count == 0 &&
                   O->IgnoreFns.Count == 0 && O->Verbosity <= 2,
               Eager);
  // Which code keeps frame pointers, while the process has (most likely)
  // one thread: a child forked later never has to walk the loader's list
  // for it (LoaderWalk.h).
  initModules();
  Clock C = chooseClock(*O);

  noteStart();

  StackDepot *Depot = new (DepotMem) StackDepot();
  Depot->init(A);
  Profile *Prof = new (ProfMem) Profile();
  if (!Prof->init(*O, A, *Depot, processSymbolizer(), C))
    return StateDisabled;
  Prof->setClientHeapBase(valgrindClientHeapBase());

  TheModel.Opts = O;
  TheModel.Depot = Depot;
  TheModel.Prof = Prof;
  TheModel.CaptureMax = captureMax(*O);
  TheModel.MallocAlignB = (uint64_t)O->AlignmentB;
  // Stacks may end at main when Massif cuts there: main is named (a
  // stripped program's stacks go on to the frames below main) and is no
  // --alloc-fn (then the frame below it is kept).
  TheModel.XtreeFull = TheModel.Opts->XtreeMemory == XtreeMode::Full &&
                       TheModel.Opts->Heap;
  TheModel.StopAtMain = executableHasSymbolTable() && !O->ShowBelowMain;
  for (uint32_t I = 0; I < O->AllocFns.Count; ++I)
    if (strcmp(O->AllocFns.Items[I], "main") == 0)
      TheModel.StopAtMain = false;
  // Massif's -v lines: the alloc-fns at once, the snapshots with -v -v.
  if (O->Verbosity > 1)
    traceAllocFns(*O, SnapshotTrace{verboseLine, nullptr});
  if (O->Verbosity > 2)
    Prof->setSnapshotTrace(SnapshotTrace{verboseLine, nullptr});
  Prof->startup();

  // Registered first, so it runs after every handler the program adds.
  at_quick_exit(onQuickExit);
  resolveExitFunctions();
  installFatalSignalHandlers();
  openControlChannel();
  return StateActive;
}

} // namespace

bool native::ensureInitialised() {
  uint32_t S = __atomic_load_n(&TheState, __ATOMIC_ACQUIRE);
  if (S == StateUninitialised) {
    uint32_t Expected = StateUninitialised;
    if (__atomic_compare_exchange_n(&TheState, &Expected, StateInitialising,
                                    false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
      RuntimeState Next = initialise();
      __atomic_store_n(&TheState, (uint32_t)Next, __ATOMIC_RELEASE);
      return Next == StateActive;
    }
    S = Expected;
  }
  while (S == StateInitialising) {
    sched_yield();
    S = __atomic_load_n(&TheState, __ATOMIC_ACQUIRE);
  }
  return S == StateActive;
}

bool native::prepareEvent(ThreadState &T) {
  if (!ensureInitialised())
    return false;
  if (!T.StackKnown) {
    findStackBounds(T.StackLo, T.StackHi);
    T.StackKnown = true;
  }
  return true;
}


// Runs before the program's own constructors (default priority), so a bad
// MASSIF_OPTIONS stops the program before main even if nothing allocates.
__attribute__((constructor(101))) static void massifConstructor(int Argc,
                                                                char **Argv) {
  InsideRuntime Inside;
  noteConstructorArgs(Argc, Argv);
  if (ensureInitialised())
    noteArgsAgain(); // /proc was unreadable at an earlier start-up
}
