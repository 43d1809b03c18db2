//===- msrun.cpp - Run a program under massif-native ----------------------===//
//
// Part of massif-native, under the MIT licence.
//
//   msrun [massif options] [--] program [args...]
//
// Validates the options with the runtime's own table (so a bad option is
// reported before the program starts, in the runtime's words), checks that
// the program carries the runtime (anything else would run unprofiled),
// hands the options to the program's runtime through MASSIF_OPTIONS, and
// replaces itself with the program. argv[0] is passed as typed, so the
// cmd: line of the profile reads as Massif's would.
//
//===----------------------------------------------------------------------===//

#include "Options.h"
#include "RuntimeProbe.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cstring>
#include <string>
#include <unistd.h>

namespace {

void *allocate(void *, size_t SizeB) { return calloc(1, SizeB); }
void deallocate(void *, void *P, size_t) { free(P); }

bool writeStdout(void *, const char *Data, size_t Len) {
  return fwrite(Data, 1, Len, stdout) == Len;
}

void printUsage() {
  printf("usage: msrun [options] [--] program [args...]\n\n"
         "Runs a program built with mscc/mscxx under the massif-native heap\n"
         "profiler. Options use Massif's spelling; they reach the program's\n"
         "runtime through MASSIF_OPTIONS (appended to any value it already\n"
         "has).\n\n"
         "  user options for Massif:\n");
  fflush(stdout);
  massif::writeHelp(massif::Sink{writeStdout, nullptr});
}

/// Appends Arg to Out so that the runtime's MASSIF_OPTIONS splitter gives
/// it back whole: blanks and backslashes are escaped with a backslash.
void appendEscaped(std::string &Out, const char *Arg) {
  if (!Out.empty())
    Out += ' ';
  for (const char *C = Arg; *C; ++C) {
    if (*C == ' ' || *C == '\t' || *C == '\n' || *C == '\\')
      Out += '\\';
    Out += *C;
  }
}

void printError(const char *Text) {
  const char *Line = Text;
  while (*Line) {
    const char *End = strchr(Line, '\n');
    size_t Len = End ? size_t(End - Line) : strlen(Line);
    fprintf(stderr, "msrun: %.*s\n", int(Len), Line);
    Line += Len + (End ? 1 : 0);
  }
  fprintf(stderr, "msrun: Use --help for the list of options.\n");
}

/// The project's version, the LLVM the tools were built for, and the
/// plugin mscc uses: beside this executable, in ../lib/massif-native.
void printVersion() {
  printf("msrun (massif-native) " MASSIF_NATIVE_VERSION "\n");
  printf("LLVM " MASSIF_LLVM_VERSION "\n");
  char Self[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
  if (N <= 0)
    return;
  Self[N] = 0;
  if (char *Slash = strrchr(Self, '/'))
    *Slash = 0;
  char Plugin[PATH_MAX + 64];
  snprintf(Plugin, sizeof(Plugin), "%s/../lib/massif-native/massif.so", Self);
  char Resolved[PATH_MAX];
  printf("plugin: %s\n", realpath(Plugin, Resolved) ? Resolved : Plugin);
}

} // namespace

int main(int Argc, char **Argv) {
  massif::Allocator A{allocate, deallocate, nullptr};
  massif::Options Opts;
  std::string Encoded;
  int I = 1;
  for (; I < Argc; ++I) {
    const char *Arg = Argv[I];
    if (strcmp(Arg, "--") == 0) {
      ++I;
      break;
    }
    if (Arg[0] != '-')
      break;
    if (strcmp(Arg, "--version") == 0) {
      printVersion();
      return 0;
    }
    massif::OptionError E;
    switch (massif::parseOption(Opts, Arg, A, E)) {
    case massif::ParseResult::Help:
      printUsage();
      return 0;
    case massif::ParseResult::Error:
      printError(E.Text);
      return 1;
    case massif::ParseResult::Ok:
      appendEscaped(Encoded, Arg);
      break;
    }
  }
  massif::OptionError E;
  if (!massif::engineCanProfile(Opts, /*SeesPages=*/false, E)) {
    printError(E.Text);
    return 1;
  }
  if (I >= Argc) {
    fprintf(stderr, "msrun: no program given\n"
                    "msrun: usage: msrun [options] [--] program [args...]\n");
    return 1;
  }

  std::string Path = massif::findProgram(Argv[I]);
  if (Path.empty()) {
    fprintf(stderr, "msrun: cannot run '%s': %s\n", Argv[I], strerror(ENOENT));
    return 127;
  }
  std::string Why;
  if (!massif::carriesRuntime(Path, Why)) {
    fprintf(stderr,
            "msrun: cannot profile '%s': %s; only programs built with "
            "mscc/mscxx can be profiled\n",
            Argv[I], Why.c_str());
    return 1;
  }

  // Options already in the environment come first, as Valgrind puts
  // VALGRIND_OPTS before the command line.
  const char *Inherited = getenv("MASSIF_OPTIONS");
  std::string All = Inherited ? Inherited : "";
  if (!All.empty() && !Encoded.empty())
    All += ' ';
  All += Encoded;
  if (!All.empty())
    setenv("MASSIF_OPTIONS", All.c_str(), 1);

  execvp(Argv[I], Argv + I);
  int Err = errno;
  fprintf(stderr, "msrun: cannot run '%s': %s\n", Argv[I], strerror(Err));
  return Err == ENOENT ? 127 : 126;
}
