//===- Process.h - What the runtime reads about its own process -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The process the runtime profiles: which process owns the runtime's state
// (a vfork child or a clone shares or copies it without knowing), what
// start-up found (its working directory, the command line for the cmd:
// line), how its output files are named (%p, %q{VAR}, the %n counter),
// the MASSIF_OPTIONS variable and the environment. Read without stdio or
// malloc (from /proc/self with open/read into arena memory), because
// start-up can happen inside the first malloc, possibly before libc has
// finished initialising. It calls nothing else of lifecycle/.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_PROCESS_H
#define MASSIF_NATIVE_PROCESS_H

#include <stddef.h>
#include <stdint.h>

namespace massif {
namespace native {

/// The command as typed, then its arguments.
struct ProcessArgs {
  const char *const *Argv;
  uint32_t Argc;
};

/// Notes what start-up finds: the working directory and the command line
/// (/proc/self/cmdline, else the arguments given to noteConstructorArgs),
/// and makes the calling process the one whose profile this is.
void noteStart();

/// Reads the command line again when /proc was unreadable at start-up
/// (a constructor has the arguments by then).
void noteArgsAgain();

/// The working directory at start-up, against which a relative
/// --massif-out-file is resolved (null if unknown), and the command line
/// for the cmd: line.
const char *startCwd();
const ProcessArgs &processArgs();

/// Whether start-up has made some process the owner (noteStart).
bool runtimeStarted();

/// True in the process whose runtime state this is: false in a vfork child
/// (or a clone without fork's handlers) that shares or copied its memory
/// without the runtime knowing.
bool ownsRuntime();

/// In a forked child: it becomes the owner, and its %n counter starts
/// afresh.
void processAfterForkChild();

/// Milliseconds since the runtime started (in a forked child too): the
/// time= of a Massif-format xtree report.
uint64_t msSinceStart();

/// Expands Pattern as Massif expands its file options: %p, %q{VAR}, %n
/// from the process's one counter (shared by the massif file and the
/// xtree report), a relative name made absolute against the start-up
/// directory. False, with Massif's reason in Reason, when the name is bad.
bool expandOutputName(const char *Pattern, char *Out, size_t OutB,
                      char *Reason, size_t ReasonB);

/// Ends the process with Status at once, without running anything.
[[noreturn]] void exitNow(int Status);

/// Remembers the argc/argv that glibc passes to constructors.
void noteConstructorArgs(int Argc, char **Argv);

/// Whether the process runs with privileges its user did not give it
/// (set-user-ID, set-group-ID, file capabilities: the kernel's AT_SECURE,
/// which glibc's secure_getenv obeys). The runtime then reads nothing from
/// the environment, and writes its file as the user (Write.cpp).
bool secureMode();

/// The value of MASSIF_OPTIONS, or null when unset, and always in secure
/// mode.
const char *getOptionsVariable();

/// getenv, except in secure mode, where every variable is unset.
const char *getEnvironmentVariable(const char *Name);

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_PROCESS_H
