//===- Children.h - Which processes profile, as --trace-children -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// See Children.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_CHILDREN_H
#define MASSIF_NATIVE_CHILDREN_H

#include "Options.h"

namespace massif {
namespace native {

/// Whether this process profiles itself: run directly (no msrun word in
/// the options), or the very process msrun started.
bool profilesThisProcess(const Options &O);

/// Whether the profile follows Valgrind's command line for exec: msrun
/// started the process, so exec writes nothing (Massif writes nothing
/// when the image is replaced) and children follow --trace-children.
bool execsAsValgrind();

/// An exec function with an environment: runs Target (a path, or with
/// PATH search a file name) with Argv and Envp.
using ExecFn = int (*)(const char *Target, char *const Argv[],
                       char *const Envp[]);

/// Execs Target as Valgrind's core would with --trace-children and its
/// skip lists: a child to follow runs through msrun (which picks its
/// engine); any other gets options that keep it from profiling itself.
/// Search says whether Target is looked up in PATH. Returns only when the
/// exec failed, as exec does.
int execChild(const char *Target, bool Search, char *const Argv[],
              char *const Envp[], ExecFn Exec);

/// Execs with Envp marked so that the new image does not profile itself
/// (fexecve, execveat: not followed).
int execUnfollowed(char *const Envp[],
                   int (*Exec)(void *Ctx, char *const Envp[]), void *Ctx);

/// Valgrind's pattern match for --trace-children-skip: '*' any run, '?'
/// one character, '\' takes the next one literally.
bool matchesPattern(const char *Pattern, const char *Text);

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_CHILDREN_H
