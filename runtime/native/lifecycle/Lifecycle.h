//===- Lifecycle.h - When the profile is written ----------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The runtime's life in the process: Start.cpp starts it (options, the
// model, the start-up snapshot); Write.cpp writes the profile; Exits.cpp
// interposes _exit, _Exit, abort and the exec family; Signals.cpp catches
// fatal signals (which they are: FatalSignals.h); Fork.cpp carries every
// part across fork; Process.cpp knows the process (its owner, its start,
// its command line, environment and file names); Control.cpp and
// Monitor.cpp serve ms_control's requests; Messages.cpp says what it has
// to say. Start calls everything; Fork, Exits and Signals call Write;
// Write and Signals call Control, Control calls Monitor; every one of them
// calls Process and Messages: no two call each other
// (test/lint/runtime-calls.test). The rules (which process
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
#include "State.h"

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

/// True when the calling thread was inside the runtime (an allocation or a
/// write) when it got here, e.g. from a signal handler.
inline bool insideRuntime() { return thisThread().InRuntime; }

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


} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_LIFECYCLE_H
