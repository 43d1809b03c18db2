//===- Children.cpp - Which processes profile, as --trace-children --------===//
//
// Part of massif-native, under the MIT licence.
//
// Under Valgrind a program the profiled one execs is not profiled unless
// --trace-children=yes (and its name and arguments match no
// --trace-children-skip/-skip-by-arg pattern). Natively every mscc-built
// program carries the runtime and inherits MASSIF_OPTIONS, so msrun adds
// one word to those options, --msrun-pid=<its pid>: the process msrun
// started (msrun replaces itself with it, so the pid is the program's)
// profiles; any other process reading the same options is a child of the
// profiled program and does not. That covers the execs glibc makes
// itself (system, popen, posix_spawn), which no wrapper sees. An mscc
// program run without msrun has no such word and profiles itself, as it
// always did.
//
// The exec functions (Exits.cpp) do the rest, as Valgrind's execve
// wrapper: a child to follow is exec'd through msrun (--msrun-path, given
// by msrun with --trace-children=yes), which runs an mscc-built program
// natively and any other on VEX, and writes Massif's file names; any
// other exec gets MASSIF_OPTIONS with --msrun-pid=-1 appended, so that an
// image that keeps the pid (exec without fork) does not profile either.
// Only that word is added, and only to a MASSIF_OPTIONS the program
// already passes on. Nothing here allocates: the new vectors are on the
// stack of the exec call.
//
//===----------------------------------------------------------------------===//

#include "Children.h"
#include "State.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace massif;
using namespace massif::native;

namespace {

constexpr char OptionsName[] = "MASSIF_OPTIONS=";
constexpr char NotProfiledWord[] = " --msrun-pid=-1";

/// Whether Text matches any of the comma-separated Patterns.
bool matchesAny(const char *Patterns, const char *Text) {
  char Pattern[1024];
  const char *P = Patterns;
  while (*P) {
    while (*P == ',')
      ++P;
    const char *End = P;
    while (*End && *End != ',')
      ++End;
    if (End == P)
      break;
    size_t N = size_t(End - P);
    if (N < sizeof(Pattern)) {
      memcpy(Pattern, P, N);
      Pattern[N] = 0;
      if (matchesPattern(Pattern, Text))
        return true;
    }
    P = End;
  }
  return false;
}

/// Valgrind's should-we-trace decision for an exec of Path with Argv.
bool follows(const Options &O, const char *Path, char *const Argv[]) {
  if (!O.TraceChildren)
    return false;
  if (O.TraceChildrenSkip && *O.TraceChildrenSkip &&
      matchesAny(O.TraceChildrenSkip, Path))
    return false;
  if (O.TraceChildrenSkipByArg && *O.TraceChildrenSkipByArg && Argv)
    for (size_t I = 0; Argv[I]; ++I)
      if (matchesAny(O.TraceChildrenSkipByArg, Argv[I]))
        return false;
  return true;
}

/// The file execvp would run for File: File itself when it has a slash,
/// else the first executable of that name in PATH.
const char *searchPath(const char *File, char *Buf, size_t Cap) {
  if (strchr(File, '/'))
    return File;
  const char *Path = getenv("PATH");
  if (!Path)
    Path = "/bin:/usr/bin";
  size_t FileLen = strlen(File);
  while (true) {
    const char *End = strchr(Path, ':');
    size_t Len = End ? size_t(End - Path) : strlen(Path);
    if (Len + 1 + FileLen < Cap) {
      size_t N = 0;
      if (Len == 0)
        Buf[N++] = '.';
      memcpy(Buf + N, Path, Len);
      N += Len;
      Buf[N++] = '/';
      memcpy(Buf + N, File, FileLen + 1);
      if (access(Buf, X_OK) == 0)
        return Buf;
    }
    if (!End)
      return File;
    Path = End + 1;
  }
}

size_t countEntries(char *const V[]) {
  size_t N = 0;
  while (V && V[N])
    ++N;
  return N;
}

} // namespace

bool native::matchesPattern(const char *Pattern, const char *Text) {
  while (*Pattern) {
    if (*Pattern == '*') {
      ++Pattern;
      for (const char *T = Text;; ++T) {
        if (matchesPattern(Pattern, T))
          return true;
        if (!*T)
          return false;
      }
    }
    if (!*Text)
      return false;
    if (*Pattern == '\\' && Pattern[1])
      ++Pattern;
    else if (*Pattern == '?') {
      ++Pattern;
      ++Text;
      continue;
    }
    if (*Pattern != *Text)
      return false;
    ++Pattern;
    ++Text;
  }
  return !*Text;
}

bool native::profilesThisProcess(const Options &O) {
  return O.MsrunPid == 0 || O.MsrunPid == (int64_t)getpid();
}

bool native::execsAsValgrind() {
  const Options *O = TheModel.Opts;
  return O && O->MsrunPid != 0;
}

int native::execUnfollowed(char *const Envp[],
                           int (*Exec)(void *Ctx, char *const Envp[]),
                           void *Ctx) {
  size_t N = countEntries(Envp);
  size_t At = N;
  for (size_t I = 0; I < N; ++I)
    if (strncmp(Envp[I], OptionsName, sizeof(OptionsName) - 1) == 0)
      At = I;
  if (At == N)
    return Exec(Ctx, Envp);
  size_t Len = strlen(Envp[At]);
  char *Marked = (char *)__builtin_alloca(Len + sizeof(NotProfiledWord));
  memcpy(Marked, Envp[At], Len);
  memcpy(Marked + Len, NotProfiledWord, sizeof(NotProfiledWord));
  char **Env = (char **)__builtin_alloca((N + 1) * sizeof(char *));
  for (size_t I = 0; I < N; ++I)
    Env[I] = I == At ? Marked : Envp[I];
  Env[N] = nullptr;
  return Exec(Ctx, Env);
}

namespace {
struct PlainExec {
  const char *Target;
  char *const *Argv;
  ExecFn Exec;
};
int runPlain(void *Ctx, char *const Envp[]) {
  auto *P = static_cast<PlainExec *>(Ctx);
  return P->Exec(P->Target, P->Argv, Envp);
}
} // namespace

int native::execChild(const char *Target, bool Search, char *const Argv[],
                      char *const Envp[], ExecFn Exec) {
  const Options *O = TheModel.Opts;
  if (!O || O->MsrunPid == 0)
    return Exec(Target, Argv, Envp);
  char Found[4096];
  const char *Path = Search ? searchPath(Target, Found, sizeof(Found)) : Target;
  if (follows(*O, Path, Argv) && O->MsrunPath && *O->MsrunPath &&
      access(Path, X_OK) == 0) {
    // msrun -- <path> <arguments after argv[0]>: the child's argv[0] is
    // its path, as Valgrind starts a traced child. A bare name is made
    // relative, so that msrun does not look it up in PATH again.
    size_t PathLen = strlen(Path);
    char *Prog = (char *)__builtin_alloca(PathLen + 3);
    size_t K = 0;
    if (!strchr(Path, '/')) {
      Prog[K++] = '.';
      Prog[K++] = '/';
    }
    memcpy(Prog + K, Path, PathLen + 1);
    size_t N = countEntries(Argv);
    char **Args = (char **)__builtin_alloca((N + 3) * sizeof(char *));
    size_t A = 0;
    Args[A++] = (char *)O->MsrunPath;
    Args[A++] = (char *)"--";
    Args[A++] = Prog;
    for (size_t I = 1; I < N; ++I)
      Args[A++] = Argv[I];
    Args[A] = nullptr;
    return (int)syscall(SYS_execve, O->MsrunPath, Args, Envp);
  }
  PlainExec P = {Target, Argv, Exec};
  return execUnfollowed(Envp, runPlain, &P);
}
