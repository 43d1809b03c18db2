//===- msrun.cpp - Run a program under massif-native ----------------------===//
//
// Part of massif-native, under the MIT licence.
//
//   msrun [--engine=native|vex] [massif options] [--] program [args...]
//
// Validates the options with the model's own table (so a bad option is
// reported before the program starts, in Massif's words) and picks the
// engine: a program that carries the native runtime (built with mscc)
// runs natively, any other (or any run with --pages-as-heap=yes) on
// Valgrind with the project's tool (VEX).
// Natively the options reach the program's runtime through
// MASSIF_OPTIONS and msrun replaces itself with the program; on VEX msrun
// replaces itself with Valgrind's core and the project's tool, from the
// tool's own folder (runtime/vex/Launch.c). argv[0] is passed as typed, so the cmd: line of the
// profile reads as Massif's would.
//
// The command line is Valgrind's for Massif: Massif's options and the core
// options a Massif user passes (-q, -v, --log-file, --trace-children, ...;
// docs/OPTIONS.md). On VEX they go to Valgrind's core as typed (msrun adds
// -q only when neither -q nor -v was given); natively the runtime does
// them, msrun refuses the ones it cannot with one line, and it adds
// --msrun-pid (and with --trace-children=yes --msrun-path) so that the
// runtime tells the process msrun started from the ones that process
// starts (runtime/native/lifecycle/Children.cpp). --tool takes massif only.
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
#include <vector>
#include <unistd.h>

namespace {

void *allocate(void *, size_t SizeB) { return calloc(1, SizeB); }
void deallocate(void *, void *P, size_t) { free(P); }

bool writeStdout(void *, const char *Data, size_t Len) {
  return fwrite(Data, 1, Len, stdout) == Len;
}

void printUsage() {
  printf("usage: msrun [--engine=native|vex] [options] [--] program "
         "[args...]\n\n"
         "Runs a program under the massif-native heap profiler. Options use\n"
         "Massif's spelling.\n\n"
         "  --engine=native  the program was built with mscc/mscxx: it\n"
         "                   profiles itself at close to native speed (the\n"
         "                   options reach it through MASSIF_OPTIONS)\n"
         "  --engine=vex     any program, on Valgrind's core: whole-process\n"
         "                   instruction counts and --pages-as-heap=yes\n"
         "                   (valgrind must be installed)\n"
         "  (default)        native when the program was built with mscc,\n"
         "                   else vex\n\n"
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

enum class Engine { Auto, Native, Vex };

bool isVerbosityOption(const char *W) {
  return strcmp(W, "-q") == 0 || strcmp(W, "--quiet") == 0 ||
         strcmp(W, "-v") == 0 || strcmp(W, "--verbose") == 0;
}

/// The folder of this executable (resolved), or empty.
std::string selfDir() {
  char Self[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
  if (N <= 0)
    return "";
  Self[N] = 0;
  if (char *Slash = strrchr(Self, '/'))
    *Slash = 0;
  return Self;
}

/// Replaces msrun with the VEX engine: the tool's launcher (through the
/// system's valgrind wrapper script where there is one, linked in the
/// tool's folder) with `--tool=massif -q OPTIONS -- PROGRAM ARGS`. The
/// program then starts as under Valgrind's Massif (runtime/vex/Launch.c).
/// Returns only on failure, with msrun's exit status.
int runOnVex(const std::vector<const char *> &Options, char **Program) {
  std::string Lib = selfDir() + "/../lib/massif-native/valgrind";
  std::string Launcher = Lib + "/valgrind.bin";
  if (access((Lib + "/msvex-amd64-linux").c_str(), X_OK) != 0 ||
      access(Launcher.c_str(), X_OK) != 0) {
    fprintf(stderr, "msrun: --engine=vex is not installed (%s has no "
                    "tool); it is built where the valgrind package is\n",
            Lib.c_str());
    return 1;
  }
  if (massif::findProgram("valgrind").empty()) {
    fprintf(stderr, "msrun: --engine=vex runs on Valgrind, and no valgrind "
                    "is in PATH (install the valgrind package)\n");
    return 1;
  }
  std::string Wrapper = Lib + "/valgrind";
  if (access(Wrapper.c_str(), X_OK) == 0)
    Launcher = Wrapper;
  // The tool stands in for Massif (--tool=massif): Valgrind's core then
  // preloads Massif's files, and reads inline information as for Massif.
  std::vector<const char *> Args = {"valgrind", "--tool=massif"};
  // Options already in MASSIF_OPTIONS come first, as for the native engine,
  // split as the native runtime splits them; msrun's own words (a parent's
  // --msrun-pid and --msrun-path) are not Valgrind's.
  std::vector<std::string> Inherited;
  if (const char *Env = getenv("MASSIF_OPTIONS"))
    massif::forEachOptionWord(
        Env, massif::Allocator{allocate, deallocate, nullptr},
        [](void *Ctx, const char *W) {
          if (strncmp(W, "--msrun-", 8) != 0)
            static_cast<std::vector<std::string> *>(Ctx)->push_back(W);
          return true;
        },
        &Inherited);
  std::vector<const char *> Given;
  for (const std::string &W : Inherited)
    Given.push_back(W.c_str());
  Given.insert(Given.end(), Options.begin(), Options.end());
  // Quiet by default, as the native engine (the program's stderr gets only
  // errors); with -q or -v given, Valgrind's own verbosity.
  bool Verbosity = false;
  for (const char *W : Given)
    Verbosity |= isVerbosityOption(W);
  if (!Verbosity)
    Args.push_back("-q");
  for (const char *W : Given)
    if (strncmp(W, "--tool=", 7) != 0) // the one Valgrind needs is there
      Args.push_back(W);
  Args.push_back("--");
  for (char **P = Program; *P; ++P)
    Args.push_back(*P);
  Args.push_back(nullptr);
  execv(Launcher.c_str(), const_cast<char **>(Args.data()));
  int Err = errno;
  fprintf(stderr, "msrun: cannot run '%s': %s\n", Launcher.c_str(),
          strerror(Err));
  return 126;
}

} // namespace

int main(int Argc, char **Argv) {
  massif::Allocator A{allocate, deallocate, nullptr};
  massif::Options Opts;
  std::string Encoded;
  std::vector<const char *> Given;
  Engine Chosen = Engine::Auto;
  std::string FirstError;
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
    if (strncmp(Arg, "--engine=", 9) == 0) {
      if (strcmp(Arg + 9, "native") == 0) {
        Chosen = Engine::Native;
      } else if (strcmp(Arg + 9, "vex") == 0) {
        Chosen = Engine::Vex;
      } else {
        printError((std::string("Bad option: ") + Arg +
                    "\n--engine accepts native or vex")
                       .c_str());
        return 1;
      }
      continue;
    }
    massif::OptionError E;
    switch (massif::parseOption(Opts, Arg, A, E)) {
    case massif::ParseResult::Help:
      printUsage();
      return 0;
    case massif::ParseResult::Error:
      // Another tool is refused whatever the engine.
      if (strncmp(Arg, "--tool=", 7) == 0) {
        fprintf(stderr, "msrun: %s\n", E.Text);
        return 1;
      }
      // Reported once the engine is known: Valgrind reports its own.
      if (FirstError.empty())
        FirstError = E.Text;
      Given.push_back(Arg);
      break;
    case massif::ParseResult::Ok:
      appendEscaped(Encoded, Arg);
      Given.push_back(Arg);
      break;
    }
  }
  if (I >= Argc) {
    if (!FirstError.empty()) {
      printError(FirstError.c_str());
      return 1;
    }
    fprintf(stderr, "msrun: no program given\n"
                    "msrun: usage: msrun [--engine=native|vex] [options] [--] "
                    "program [args...]\n");
    return 1;
  }

  std::string Path = massif::findProgram(Argv[I]);
  if (Path.empty()) {
    fprintf(stderr, "msrun: cannot run '%s': %s\n", Argv[I], strerror(ENOENT));
    return 127;
  }
  std::string Why;
  bool Native = massif::carriesRuntime(Path, Why);
  if (Chosen == Engine::Native && !Native) {
    fprintf(stderr,
            "msrun: --engine=native cannot profile '%s': %s; build it with "
            "mscc/mscxx, or use --engine=vex\n",
            Argv[I], Why.c_str());
    return 1;
  }
  // Only VEX sees pages: it is the default engine for them. Valgrind
  // reports a bad option there, in Massif's words.
  if (Chosen == Engine::Vex || !Native ||
      (Chosen == Engine::Auto && Opts.PagesAsHeap))
    return runOnVex(Given, Argv + I);
  if (!FirstError.empty()) {
    printError(FirstError.c_str());
    return 1;
  }
  massif::OptionError E;
  if (!massif::engineCanProfile(Opts, /*SeesPages=*/false, E)) {
    printError(E.Text);
    return 1;
  }
  if (!massif::nativeTakesOptions(Opts, E)) {
    fprintf(stderr, "msrun: %s\n", E.Text);
    return 1;
  }
  // The process msrun starts is this one (exec keeps the pid): the
  // runtime tells it from the programs it starts, which profile only with
  // --trace-children=yes, through msrun itself (runtime Children.cpp).
  appendEscaped(Encoded, ("--" + std::string(massif::MsrunPidOption) + "=" +
                          std::to_string(getpid()))
                             .c_str());
  if (Opts.TraceChildren) {
    char Self[PATH_MAX];
    ssize_t N = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
    if (N > 0) {
      Self[N] = 0;
      appendEscaped(Encoded, ("--" + std::string(massif::MsrunPathOption) +
                              "=" + Self)
                                 .c_str());
    }
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
