//===- Write.cpp - The profile's writing at the ends of a process ---===//
//
// Part of massif-native, under the MIT licence.
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

#include "Lifecycle.h"

#include "Arena.h"
#include "EventRing.h"
#include "FatalSignals.h"
#include "Fork.h"
#include "Messages.h"
#include "OutFile.h"
#include "Process.h"
#include "SnapshotEngine.h"
#include "State.h"
#include "SymbolizerClient.h"

#include "massif/format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
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

void onExit() { writeExitProfile(WriteReason::Exit, "exit"); }

/// Reports a bad --massif-out-file the way Massif does and ends the process
/// with status 1, as Valgrind does, whichever way the process was ending.
/// Before an exec the process goes on instead (Valgrind checks nothing
/// there).
void badOutFile(const char *Pattern, const char *Reason, WriteReason Why,
                const char *Option = "--massif-out-file") {
  const char *Parts[] = {"massif: Bad option: ", Option, "=", Pattern};
  writeLine(messageFd(), Parts, 4);
  reportBadOption(Reason);
  if (Why == WriteReason::Exec)
    return;
  // exit() would flush the program's buffered output; _exit, abort and a
  // signal would not, and stdio is not safe in a signal handler anyway.
  if (Why == WriteReason::Exit)
    fflush(nullptr);
  removeControlChannel();
  exitNow(1);
}

void reportFileError(const char *What, const char *Path, int Errno) {
  const char *Parts[] = {"massif: error: ", What, " output file '", Path,
                         "': ", strerror(Errno)};
  writeLine(messageFd(), Parts, 6);
}

/// The output file's name, expanded once for the write to come: before
/// the freeres calls (runFreeres), which clear the environment that %q{VAR}
/// reads; at the write otherwise.
char OutPath[4096];
bool OutPathReady = false;

/// The xtree report's name, likewise (--xtree-memory-file, expanded
/// before the massif file's name, as Valgrind writes it first).
char XtPath[4096];
bool XtPathReady = false;

bool wantXtree() { return TheModel.Opts->XtreeMemory != XtreeMode::None; }

/// Expands the name of file option Option (Pattern) into Out unless Ready
/// says it already is; reports a bad name as Valgrind does. Returns
/// whether the name is good.
bool expandOnce(const char *Option, const char *Pattern, char *Out,
                size_t OutB, bool &Ready, WriteReason Why) {
  if (Ready)
    return true;
  char Reason[512];
  if (!expandOutputName(Pattern, Out, OutB, Reason, sizeof(Reason))) {
    badOutFile(Pattern, Reason, Why, Option);
    return false;
  }
  Ready = true;
  return true;
}

/// Expands --xtree-memory-file into XtPath when a report is due.
bool expandXtPath(WriteReason Why) {
  return !wantXtree() ||
         expandOnce("--xtree-memory-file", TheModel.Opts->XtreeMemoryFile,
                    XtPath, sizeof(XtPath), XtPathReady, Why);
}

/// Expands --massif-out-file into OutPath, the xtree report's name first
/// (Valgrind's %n order).
bool expandOutPath(WriteReason Why) {
  return expandXtPath(Why) &&
         expandOnce("--massif-out-file", TheModel.Opts->OutFile, OutPath,
                    sizeof(OutPath), OutPathReady, Why);
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

/// Opens Path for writing (again after EINTR) and writes it through a
/// buffered sink: Write(Sink, RunInfo) writes the text. Opened says
/// whether the file could be opened (errno says why not); a failed write
/// is reported. Returns whether the whole file was written.
template <typename WriteFn>
bool writeOutput(const char *Path, bool &Opened, WriteFn Write) {
  int Fd;
  do
    Fd = openOutput(Path);
  while (Fd < 0 && errno == EINTR);
  Opened = Fd >= 0;
  if (!Opened)
    return false;
  constexpr size_t BufB = 64 * 1024;
  char *Buf = (char *)arenaAllocate(BufB);
  char Small[512];
  FdSink Out(Fd, Buf ? Buf : Small, Buf ? BufB : sizeof(Small));
  const ProcessArgs &Args = processArgs();
  RunInfo Run = {Args.Argv, Args.Argc};
  bool Ok = Write(Out.sink(), Run) && Out.flush();
  if (!Ok)
    reportFileError("cannot write", Path, Out.error() ? Out.error() : EIO);
  close(Fd);
  arenaDeallocate(Buf, BufB);
  return Ok;
}

/// Writes the xtree memory report, when --xtree-memory asks for one, before
/// the massif file and before the live blocks are discarded. Model lock
/// held. An unopenable file is reported, and the run goes on.
void writeXtreeFile(WriteReason Why) {
  if (!wantXtree() || !expandXtPath(Why))
    return;
  XtPathReady = false;
  bool MassifFormat = xtreeNameIsMassifFormat(XtPath);
  bool Opened;
  writeOutput(XtPath, Opened, [&](const Sink &Out, const RunInfo &Run) {
    return TheModel.Prof->writeXtree(Out, Run, MassifFormat, (int64_t)getpid(),
                                     msSinceStart());
  });
  if (!Opened) {
    const char *Parts[] = {"massif: Error: can not open xtree output file `",
                           XtPath, "'"};
    writeLine(messageFd(), Parts, 3);
  }
}

} // namespace

namespace {

/// Expands the output name (unless runFreeres did) and writes the profile.
/// Model lock held. Returns true when the file was written.
bool writeProfileFile(WriteReason Why) {
  if (!expandOutPath(Why))
    return false;
  OutPathReady = false; // the next write (after an exec failed) expands anew
  const char *Path = OutPath;
  bool Opened;
  bool Ok = writeOutput(Path, Opened, [](const Sink &Out, const RunInfo &Run) {
    return TheModel.Prof->write(Out, Run);
  });
  if (!Opened) {
    reportFileError("cannot open", Path, errno);
    return false;
  }
  // Beside a massif.out file (not a device or a pipe), its site
  // statistics (runtime/core/tree/SiteStats.h).
  struct stat St;
  char SitesPath[sizeof(OutPath) + 8];
  if (Ok && stat(Path, &St) == 0 && S_ISREG(St.st_mode) &&
      format::sitesPathOf(Path, SitesPath, sizeof(SitesPath))) {
    bool SitesOpened;
    writeOutput(SitesPath, SitesOpened,
                [](const Sink &Out, const RunInfo &Run) {
                  return TheModel.Prof->writeSites(Out, Run);
                });
    if (!SitesOpened) {
      reportFileError("cannot open", SitesPath, errno);
      // An older run's statistics must not pass for this profile's.
      unlink(SitesPath);
    }
  }
  // No process of the runtime's outlives a write: the program may exec or
  // end next (the next write starts another).
  stopSymbolizer();
  return Ok;
}

void statsLine(void *, const char *Text) { writeVerboseLine(Text); }

/// --stats=yes: Massif's statistics, after its file, at the end of the
/// process (an exec is no end: Valgrind prints them only at exit). Model
/// lock held.
void printStats(WriteReason Why) {
  if (Why != WriteReason::Exec && TheModel.Opts->Stats)
    traceStats(TheModel.Prof->stats(), SnapshotTrace{statsLine, nullptr});
}

} // namespace

void native::modelBeforeFork() { ModelLock::acquire(); }

void native::modelAfterForkParent() { ModelLock::release(); }

// The child keeps the inherited profile and becomes its owner; the %n
// counter is per process and starts afresh.
void native::modelAfterForkChild() {
  TheModel.Owner = nullptr;
  TheModel.Lock.reset();
  processAfterForkChild();
}

/// The write of a process dying of a fault or an abort inside glibc's
/// allocator, called by the runtime (glibc's checks found its heap
/// corrupted): glibc's heap and lock are unusable, but the runtime's
/// records are whole, since it calls glibc only between its updates. The
/// write allocates from the emergency heap. If this thread holds the
/// model's lock, it may be in the middle of applying a ring, which cannot
/// be applied again: the other threads' rings are then left out.
static bool writeAfterGlibcFault() {
  ThreadState &T = thisThread();
  if (!ownsRuntime() ||
      __atomic_load_n(&TheState, __ATOMIC_ACQUIRE) != StateActive)
    return false;
  T.Emergency = true; // for the rest of the process's short life
  uint64_t OldMask[16];
  blockSignalsForWrite(OldMask);
  bool Held = ModelLock::heldHere();
  if (!Held)
    ModelLock::acquire();
  bool Written = false;
  if (__atomic_load_n(&TheState, __ATOMIC_ACQUIRE) == StateActive) {
    if (!Held)
      applyAllRings();
    ApplyingRingEvent = false;
    __atomic_store_n(&TheState, (uint32_t)StateFinished, __ATOMIC_RELEASE);
    removeControlChannel();
    writeXtreeFile(WriteReason::Signal);
    Written = writeProfileFile(WriteReason::Signal);
    printStats(WriteReason::Signal);
  }
  if (!Held)
    ModelLock::release();
  restoreSignals(OldMask);
  return Written;
}

bool native::writeProfile(WriteReason Why, const char *Event) {
  ThreadState &T = thisThread();
  if (T.InRuntime) {
    if (Why == WriteReason::Signal && T.InGlibc && !T.Emergency)
      return writeAfterGlibcFault();
    // This thread may hold the model lock, the arena lock or glibc's: a
    // write now could deadlock or read a half-updated model.
    if (!runtimeStarted() || ownsRuntime()) {
      const char *Parts[] = {"massif: warning: ", Event,
                             " while inside the allocator; no profile written"};
      writeLine(warningFd(), Parts, 3);
    }
    return false;
  }
  T.InRuntime = true;
  bool Written = false;
  // exit() may be the first thing a process does; the other ends come from
  // a running program, which was set up long before. A profile already
  // finished may still be being written, on another thread, which holds
  // the model's lock until it is done: this end waits for it too, or a
  // fatal signal taken here would end the process in the middle of that
  // write (the stress harness's signal-alloc lost 2 profiles in 160 runs).
  uint32_t State = Why == WriteReason::Exit
                       ? (ensureInitialised(), __atomic_load_n(&TheState,
                                                               __ATOMIC_ACQUIRE))
                       : __atomic_load_n(&TheState, __ATOMIC_ACQUIRE);
  bool Ready = State == StateActive || State == StateFinished;
  if (Ready && ownsRuntime()) {
    uint64_t OldMask[16];
    blockSignalsForWrite(OldMask);
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
        writeXtreeFile(Why);
        if (Why == WriteReason::Exit)
          TheModel.Prof->discardBlocks();
        // No more commands: the profile is being finished (and a bad
        // --massif-out-file ends the process inside the write).
        removeControlChannel();
        Written = writeProfileFile(Why);
        printStats(Why);
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
      !ownsRuntime() || thisThread().InRuntime)
    return;
  static bool Done = false; // once, whichever end comes first
  if (Done)
    return;
  Done = true;
  if (TheModel.Opts->RunCxxFreeres && &CxxFreeres)
    CxxFreeres();
  if (TheModel.Opts->RunLibcFreeres) {
    // glibc's freeres clears the environment: name the file first.
    thisThread().InRuntime = true;
    bool Named = expandOutPath(Why);
    thisThread().InRuntime = false;
    if (Named)
      __libc_freeres();
  }
}

bool native::writeExitProfile(WriteReason Why, const char *Event) {
  runFreeres(Why);
  return writeProfile(Why, Event);
}

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
    onExit();
}

