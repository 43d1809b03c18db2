//===- Process.h - What the runtime reads about its own process -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The command line for the cmd: line and the MASSIF_OPTIONS variable, read
// without stdio or malloc (from /proc/self with open/read into arena
// memory), because start-up can happen inside the first malloc, possibly
// before libc has finished initialising.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_PROCESS_H
#define MASSIF_NATIVE_PROCESS_H

#include <stdint.h>

namespace massif {
namespace native {

/// The command as typed, then its arguments.
struct ProcessArgs {
  const char *const *Argv;
  uint32_t Argc;
};

/// Reads /proc/self/cmdline into arena memory; falls back to the arguments
/// given to noteConstructorArgs when /proc is not readable.
void readProcessArgs(ProcessArgs &Out);

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
