//===- Lifecycle.cpp - Start-up, exit and fork of the native runtime ------===//
//
// Part of massif-native, under the MIT licence.
//
// Start-up happens once, at the first allocation event or in a priority-101
// constructor, whichever comes first (shared libraries' constructors may
// allocate before ours runs, and Massif counts those allocations). It reads
// MASSIF_OPTIONS, rejects bad options before main runs, sets up the model in
// arena memory and takes the start-up snapshot.
//
// At exit the profile is written as late as the process allows: after the
// program's atexit handlers, static destructors and the shared libraries'
// finalisers (see massifDestructor). The output name is expanded then
// (Massif does it then, so a forked child's %p is its own) and the profile
// goes through a buffered file-descriptor sink; later events forward.
// writeProfile is also the one writer for the other ends of a process
// (_exit, abort, fatal signals: Exits.cpp, Signals.cpp) and for exec.
//
//===----------------------------------------------------------------------===//

#include "Arena.h"
#include "EventRing.h"
#include "Fork.h"
#include "Lifecycle.h"
#include "Modules.h"
#include "OutFile.h"
#include "Process.h"
#include "Runtime.h"
#include "SymbolizerClient.h"
#include "Threads.h"
#include "Unwind.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <new>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

extern "C" void __libc_freeres(void); // glibc: for memory checkers
// libstdc++'s, when the program has it (a weak reference: a C program
// gets no libstdc++ for it).
extern "C" void CxxFreeres(void) __asm__("_ZN9__gnu_cxx9__freeresEv")
    __attribute__((weak));

using namespace massif;
using namespace massif::native;

namespace {

constexpr size_t PathCap = 4096;
/// Valgrind's last line after an option error.
const char UseHelp[] =
    "Use --help for more information or consult the user manual.";

// Zero-initialised storage: no constructors run for any of it.
char StartCwd[PathCap];
bool HaveStartCwd = false;
uint32_t FileSequence = 0;
ProcessArgs Args = {};
// The process the runtime state belongs to: set at start-up and in a forked
// child. A vfork child (or a clone that skipped fork's handlers) sees
// another pid and never writes, since it shares or copied the state behind
// the runtime's back.
pid_t OwnerPid = 0;

/// Writes "massif: <Text>" for each line of Text to stderr.
void printLines(const char *Prefix, const char *Text) {
  const char *Line = Text;
  while (true) {
    const char *End = strchr(Line, '\n');
    size_t Len = End ? (size_t)(End - Line) : strlen(Line);
    char Buf[600];
    if (Len >= sizeof(Buf))
      Len = sizeof(Buf) - 1;
    memcpy(Buf, Line, Len);
    Buf[Len] = 0;
    const char *Parts[] = {Prefix, Buf};
    writeLine(2, Parts, 2);
    if (!End)
      break;
    Line = End + 1;
  }
}

uint64_t readMs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return (uint64_t)T.tv_sec * 1000 + (uint64_t)T.tv_nsec / 1000000;
}

uint64_t readInstructions() { return __massif_instructions_total(); }

// The model's clocks; a ring event being applied has its own time.
uint64_t nowMs(void *) { return eventClock(readMs); }
uint64_t nowInstructions(void *) {
  // One thread, never more: its counter is the clock, and no ring event is
  // being applied. Its readings only grow, so eventClock's floor, which
  // later readings also pass, need not follow them.
  if (!ApplyingRingEvent) {
    uint64_t V = singleThreadInstructions();
    if (V != NoSingleThreadClock)
      return V;
  }
  return eventClock(readInstructions);
}

bool writeToStdout(void *, const char *Data, size_t Len) {
  return writeAll(1, Data, Len);
}

void onExit() { finishProfile(); }

void onQuickExit() { writeExitProfile(WriteReason::Immediate, "quick_exit"); }

const char *getEnv(const char *Name) { return getEnvironmentVariable(Name); }

/// Parses MASSIF_OPTIONS into O; exits the process on --help or an error.
void parseOptionsOrExit(Options &O) {
  const char *Text = getOptionsVariable();
  if (!Text)
    return;
  OptionError E;
  E.Text[0] = 0;
  switch (parseOptionString(O, Text, arenaAllocator(), E)) {
  case ParseResult::Ok:
    if (engineCanProfile(O, /*SeesPages=*/false, E))
      return;
    printLines("massif: ", E.Text);
    printLines("massif: ", UseHelp);
    exitNow(1);
  case ParseResult::Help:
    writeHelp(Sink{writeToStdout, nullptr});
    exitNow(0);
  case ParseResult::Error:
    printLines("massif: ", E.Text);
    printLines("massif: ", UseHelp);
    exitNow(1);
  }
}

/// Chooses the clock for the time unit, falling back from instructions to
/// milliseconds (with a warning) when no linked code counts instructions.
Clock chooseClock(Options &O) {
  if (O.TimeUnit == TimeUnit::Instructions) {
    if (instructionCountersLinked())
      return Clock{nowInstructions, nullptr};
    printLines("massif: ", "warning: --time-unit=i requires instruction "
                           "counters, and no code of this program was built "
                           "with them (mscc builds with them); using "
                           "--time-unit=ms");
    O.TimeUnit = TimeUnit::Milliseconds;
  }
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

/// Sets up everything; returns the state to enter.
RuntimeState initialise() {
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
  Clock C = chooseClock(*O);

  HaveStartCwd = getcwd(StartCwd, sizeof(StartCwd)) != nullptr;
  readProcessArgs(Args);

  StackDepot *Depot = new (DepotMem) StackDepot();
  Depot->init(A);
  Profile *Prof = new (ProfMem) Profile();
  if (!Prof->init(*O, A, *Depot, processSymbolizer(), C))
    return StateDisabled;

  TheModel.Opts = O;
  TheModel.Depot = Depot;
  TheModel.Prof = Prof;
  TheModel.CaptureMax = captureMax(*O);
  TheModel.MallocAlignB = (uint64_t)O->AlignmentB;
  // Stacks may end at main when Massif cuts there: main is named (a
  // stripped program's stacks go on to the frames below main) and is no
  // --alloc-fn (then the frame below it is kept).
  TheModel.StopAtMain = executableHasSymbolTable();
  for (uint32_t I = 0; I < O->AllocFns.Count; ++I)
    if (strcmp(O->AllocFns.Items[I], "main") == 0)
      TheModel.StopAtMain = false;
  Prof->startup();

  OwnerPid = getpid();
  // Registered first, so it runs after every handler the program adds.
  at_quick_exit(onQuickExit);
  resolveExitFunctions();
  installFatalSignalHandlers();
  return StateActive;
}

/// Initialises the runtime once; other threads wait for the first.
bool ensureInitialised() {
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

/// Reports a bad --massif-out-file the way Massif does and ends the process
/// with status 1, as Valgrind does, whichever way the process was ending.
/// Before an exec the process goes on instead (Valgrind checks nothing
/// there).
void badOutFile(const char *Pattern, const char *Reason, WriteReason Why) {
  const char *Parts[] = {"massif: Bad option: --massif-out-file=", Pattern};
  writeLine(2, Parts, 2);
  printLines("massif: ", Reason);
  printLines("massif: ", UseHelp);
  if (Why == WriteReason::Exec)
    return;
  // exit() would flush the program's buffered output; _exit, abort and a
  // signal would not, and stdio is not safe in a signal handler anyway.
  if (Why == WriteReason::Exit)
    fflush(nullptr);
  exitNow(1);
}

void reportFileError(const char *What, const char *Path, int Errno) {
  const char *Parts[] = {"massif: error: ", What, " output file '", Path,
                         "': ", strerror(Errno)};
  writeLine(2, Parts, 6);
}

/// The output file's name, expanded once for the write to come: before
/// the freeres calls (runFreeres), which clear the environment that %q{VAR}
/// reads; at the write otherwise.
char OutPath[PathCap];
bool OutPathReady = false;

/// Expands --massif-out-file into OutPath; reports a bad name as Massif
/// does. Returns whether the name is good.
bool expandOutPath(WriteReason Why) {
  if (OutPathReady)
    return true;
  const char *Pattern = TheModel.Opts->OutFile;
  char Reason[512];
  NameContext C = {(uint64_t)getpid(), HaveStartCwd ? StartCwd : nullptr,
                   &FileSequence, getEnv};
  if (!expandFileName(Pattern, C, OutPath, sizeof(OutPath), Reason,
                      sizeof(Reason))) {
    badOutFile(Pattern, Reason, Why);
    return false;
  }
  OutPathReady = true;
  return true;
}

/// Opens the output file for writing. In secure mode (a set-user-ID
/// program, say) whoever set the environment must not get a file written
/// with the program's privileges: the name is the default one (the options
/// were not read), the file is created as the user who ran the program
/// (file-system IDs are per thread), never over an existing file and never
/// through a symbolic link.
int openOutput(const char *Path) {
  if (!secureMode())
    return open(Path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int OldGid = setfsgid(getgid());
  int OldUid = setfsuid(getuid());
  int Fd = open(Path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                0644);
  int Err = errno;
  setfsuid(OldUid);
  setfsgid(OldGid);
  errno = Err;
  return Fd;
}

/// Expands the output name (unless runFreeres did) and writes the profile.
/// Model lock held. Returns true when the file was written.
bool writeProfileFile(WriteReason Why) {
  if (!expandOutPath(Why))
    return false;
  OutPathReady = false; // the next write (after an exec failed) expands anew
  const char *Path = OutPath;

  int Fd;
  do
    Fd = openOutput(Path);
  while (Fd < 0 && errno == EINTR);
  if (Fd < 0) {
    reportFileError("cannot open", Path, errno);
    return false;
  }
  constexpr size_t BufB = 64 * 1024;
  char *Buf = (char *)arenaAllocate(BufB);
  char Small[512];
  FdSink Out(Fd, Buf ? Buf : Small, Buf ? BufB : sizeof(Small));
  RunInfo Run = {Args.Argv, Args.Argc};
  bool Ok = TheModel.Prof->write(Out.sink(), Run) && Out.flush();
  if (!Ok)
    reportFileError("cannot write", Path, Out.error() ? Out.error() : EIO);
  close(Fd);
  arenaDeallocate(Buf, BufB);
  // No process of the runtime's outlives a write: the program may exec or
  // end next (the next write starts another).
  stopSymbolizer();
  return Ok;
}

} // namespace

bool native::prepareEvent(ThreadState &T) {
  if (!ensureInitialised())
    return false;
  if (!T.StackKnown) {
    findStackBounds(T.StackLo, T.StackHi);
    T.StackKnown = true;
  }
  return true;
}

bool native::insideRuntime() { return TheThread.InRuntime; }

void native::modelBeforeFork() { ModelLock::acquire(); }

void native::modelAfterForkParent() { ModelLock::release(); }

// The child keeps the inherited profile and becomes its owner; the %n
// counter is per process and starts afresh.
void native::modelAfterForkChild() {
  TheModel.Owner = nullptr;
  TheModel.Lock.reset();
  FileSequence = 0;
  OwnerPid = getpid();
}

bool native::ownsRuntime() { return OwnerPid != 0 && getpid() == OwnerPid; }

[[noreturn]] void native::exitNow(int Status) {
  // What glibc's _exit does, without going through the interposed _exit.
  for (;;) {
    syscall(SYS_exit_group, Status);
    syscall(SYS_exit, Status);
  }
}

/// The write of a process dying of a fault or an abort inside glibc's
/// allocator, called by the runtime (glibc's checks found its heap
/// corrupted): glibc's heap and lock are unusable, but the runtime's
/// records are whole, since it calls glibc only between its updates. The
/// write allocates from the emergency heap. If this thread holds the
/// model's lock, it may be in the middle of applying a ring, which cannot
/// be applied again: the other threads' rings are then left out.
static bool writeAfterGlibcFault() {
  ThreadState &T = TheThread;
  if (!ownsRuntime() ||
      __atomic_load_n(&TheState, __ATOMIC_ACQUIRE) != StateActive)
    return false;
  T.Emergency = true; // for the rest of the process's short life
  uint64_t OldMask[16];
  blockFatalSignals(OldMask);
  bool Held = ModelLock::heldHere();
  if (!Held)
    ModelLock::acquire();
  bool Written = false;
  if (__atomic_load_n(&TheState, __ATOMIC_ACQUIRE) == StateActive) {
    if (!Held)
      applyAllRings();
    ApplyingRingEvent = false;
    __atomic_store_n(&TheState, (uint32_t)StateFinished, __ATOMIC_RELEASE);
    Written = writeProfileFile(WriteReason::Signal);
  }
  if (!Held)
    ModelLock::release();
  restoreSignals(OldMask);
  return Written;
}

bool native::writeProfile(WriteReason Why, const char *Event) {
  ThreadState &T = TheThread;
  if (T.InRuntime) {
    if (Why == WriteReason::Signal && T.InGlibc && !T.Emergency)
      return writeAfterGlibcFault();
    // This thread may hold the model lock, the arena lock or glibc's: a
    // write now could deadlock or read a half-updated model.
    if (OwnerPid == 0 || ownsRuntime()) {
      const char *Parts[] = {"massif: warning: ", Event,
                             " while inside the allocator; no profile written"};
      writeLine(2, Parts, 3);
    }
    return false;
  }
  T.InRuntime = true;
  bool Written = false;
  // exit() may be the first thing a process does; the other ends come from
  // a running program, which was set up long before.
  bool Ready =
      Why == WriteReason::Exit
          ? ensureInitialised()
          : __atomic_load_n(&TheState, __ATOMIC_ACQUIRE) == StateActive;
  if (Ready && ownsRuntime()) {
    uint64_t OldMask[16];
    blockFatalSignals(OldMask);
    {
      ModelLock L;
      if (__atomic_load_n(&TheState, __ATOMIC_ACQUIRE) == StateActive) {
        // Every thread's events so far, in the profile.
        applyAllRings();
        if (Why != WriteReason::Exec)
          __atomic_store_n(&TheState, (uint32_t)StateFinished,
                           __ATOMIC_RELEASE);
        // At exit no event reaches the model any more (every entry point
        // checks the state under this lock): the live blocks' records go
        // before naming maps the DWARF, which keeps the process's peak
        // lower. Not from a signal handler, where the arena's lock may be
        // held by the interrupted code.
        if (Why == WriteReason::Exit)
          TheModel.Prof->discardBlocks();
        Written = writeProfileFile(Why);
      }
    }
    restoreSignals(OldMask);
  }
  T.InRuntime = false;
  return Written;
}

/// What Valgrind does at the end of a process that exits: before Massif
/// writes its file, it has the program free what the C++ runtime and glibc
/// keep for the life of the process (libstdc++'s exception pool, glibc's
/// locale, NSS and loader data), with --run-cxx-freeres and
/// --run-libc-freeres, both on by default. Those frees are ordinary events
/// of the profile (its last snapshots).
static void runFreeres(WriteReason Why) {
  if (__atomic_load_n(&TheState, __ATOMIC_ACQUIRE) != StateActive ||
      !ownsRuntime() || TheThread.InRuntime)
    return;
  static bool Done = false; // once, whichever end comes first
  if (Done)
    return;
  Done = true;
  if (TheModel.Opts->RunCxxFreeres && &CxxFreeres)
    CxxFreeres();
  if (TheModel.Opts->RunLibcFreeres) {
    // glibc's freeres clears the environment: name the file first.
    TheThread.InRuntime = true;
    bool Named = expandOutPath(Why);
    TheThread.InRuntime = false;
    if (Named)
      __libc_freeres();
  }
}

bool native::writeExitProfile(WriteReason Why, const char *Event) {
  runFreeres(Why);
  return writeProfile(Why, Event);
}

void native::finishProfile() { writeExitProfile(WriteReason::Exit, "exit"); }

// Runs after the program's own destructors (priority 101 destructors run
// last among the executable's), while the dynamic linker runs the
// finalisers at exit. From here the write is pushed later still: an exit
// handler registered now runs once the finalisers of the shared libraries
// are done too, so their frees are in the profile as they are in
// Massif's.
__attribute__((destructor(101))) static void massifDestructor() {
  if (__atomic_load_n(&TheState, __ATOMIC_ACQUIRE) != StateActive)
    return;
  if (atexit(onExit) != 0)
    finishProfile();
}

// Runs before the program's own constructors (default priority), so a bad
// MASSIF_OPTIONS stops the program before main even if nothing allocates.
__attribute__((constructor(101))) static void massifConstructor(int Argc,
                                                                char **Argv) {
  ThreadState &T = TheThread;
  bool Was = T.InRuntime;
  T.InRuntime = true;
  noteConstructorArgs(Argc, Argv);
  if (ensureInitialised() && Args.Argc == 0)
    readProcessArgs(Args); // /proc was unreadable at an earlier start-up
  T.InRuntime = Was;
}
