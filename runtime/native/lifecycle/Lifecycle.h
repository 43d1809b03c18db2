//===- Lifecycle.h - When the profile is written ----------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The runtime's life in the process: Start.cpp starts it (options, the
// model, the start-up snapshot); Write.cpp writes the profile; Exits.cpp
// interposes _exit, _Exit, abort and the exec family; Signals.cpp catches
// fatal signals (which they are: FatalSignals.h); Fork.cpp carries every part across fork; Process.cpp
// reads the command line and the environment. The rules (which process
// writes, when a write is skipped, which file name) are in
// docs/DESIGN-runtime.md, "Exits, signals, exec and fork".
//
// This folder (lifecycle/) is the top of the native runtime: it may call
// every other part, and no other part calls it but through the hooks
// state/State.h declares (prepareEvent, ensureInitialised,
// deliverPendingSignal).
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_LIFECYCLE_H
#define MASSIF_NATIVE_LIFECYCLE_H

#include "Process.h"

#include <stddef.h>
#include <stdint.h>

namespace massif {
namespace native {

/// Why the profile is written now.
enum class WriteReason {
  Exit,      ///< exit() or return from main: the last write
  Immediate, ///< _exit, _Exit, quick_exit, abort: the last write, no stdio
  Signal,    ///< a fatal signal, from its handler: the last write, no stdio
  Exec,      ///< before exec: recording goes on in case the exec fails
};

/// Writes the profile to --massif-out-file (expanded now) unless this
/// process must not: it is a vfork child or a clone sharing the parent's
/// memory, the profile was already finished, or the calling thread is inside
/// the runtime (a signal interrupted an allocation: the model, the arena or
/// glibc's malloc may be locked by this very thread; a warning says so).
/// A fatal signal inside glibc's allocator, called by the runtime, is the
/// exception: the records are whole, and the write allocates from the
/// emergency heap (docs/DESIGN-runtime.md, "Never from inside the
/// allocator").
/// Event names what happened, for that warning ("exit", "SIGSEGV", ...).
/// Returns true when a file was written.
bool writeProfile(WriteReason Why, const char *Event);

/// The write of a process that exits (exit, a return from main, _exit,
/// _Exit, quick_exit; not a fatal signal or abort): first, as Valgrind does
/// at an exit, the program frees what glibc and libstdc++ keep for the life
/// of the process (--run-libc-freeres, --run-cxx-freeres; once), then
/// writeProfile. Call on the exiting thread, outside any event.
bool writeExitProfile(WriteReason Why, const char *Event);

/// True when the calling thread was inside the runtime (an allocation or a
/// write) when it got here, e.g. from a signal handler.
bool insideRuntime();

/// True in the process whose runtime state this is: false in a vfork child
/// (or a clone without fork's handlers) that shares or copied its memory
/// without the runtime knowing.
bool ownsRuntime();

/// The control channel (Control.cpp, support/ControlChannel.h): opened by
/// start-up and in a forked child (before anything else touches the
/// control page there), removed when the profile is written at the end.
void openControlChannel();
void removeControlChannel();
void controlAfterForkChild();
/// Runs ms_control's request if one is pending (deliverPendingSignal, at
/// the end of an event). Whether one was.
bool takeControlRequest();

/// Installs the fatal-signal handlers (Signals.cpp). Called once by start-up.
void installFatalSignalHandlers();

/// Finds glibc's abort and exec functions (Exits.cpp), so that nothing
/// needs dlsym once the process is ending. Called once by start-up.
void resolveExitFunctions();

/// What start-up found (Start.cpp): the working directory, against which
/// a relative --massif-out-file is resolved (null if unknown), and the
/// command line for the cmd: line.
const char *startCwd();
const ProcessArgs &processArgs();

/// Prints Massif's complaint about a bad option: each line of Text after
/// "massif: ", then Valgrind's pointer to --help (Start.cpp).
void reportBadOption(const char *Text);

/// Makes the calling process the one whose profile this is (Write.cpp):
/// at start-up; a forked child becomes it through modelAfterForkChild.
void becomeOwner();

/// Expands Pattern as --xtree-memory-file is expanded (Write.cpp): %p,
/// %q{VAR}, %n from the process's one counter, a relative name made
/// absolute against the start-up directory. For the xtmemory monitor
/// command. False, with Massif's reason in Reason, when the name is bad.
bool expandXtreeName(const char *Pattern, char *Out, size_t OutB,
                     char *Reason, size_t ReasonB);

/// Milliseconds since the runtime (or the forked child) started: the
/// time= of a Massif-format xtree report.
uint64_t msSinceStart();

/// Ends the process with Status at once, without running anything.
[[noreturn]] void exitNow(int Status);

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_LIFECYCLE_H
