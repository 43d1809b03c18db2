//===- main.cpp - ms_control: Massif's monitor commands, natively ---------===//
//
// Part of massif-native, under the MIT licence.
//
//   ms_control [--timeout=<ms>] <pid> <command> [<file>]
//
// Runs a Massif monitor command (snapshot, detailed_snapshot,
// all_snapshots, xtmemory, help; prefixes accepted) in a running
// mscc-built program, as `vgdb --pid=<pid> <command> [<file>]` does under
// Valgrind, and prints what vgdb would print. The command is checked with
// the runtime's own parser before the program is asked. Exit status 0
// when the command ran, 1 otherwise (one line on stderr says why; an
// unknown command also gets vgdb's "not recognised" text on stdout).
//
//===----------------------------------------------------------------------===//

#include "Channel.h"
#include "ControlChannel.h"
#include "Monitor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>

using namespace massif;

namespace {

constexpr long DefaultTimeoutMs = 10000;

void usage(FILE *F) {
  fputs("usage: ms_control [--timeout=<ms>] <pid> <command> [<file>]\n"
        "\n"
        "Runs a Massif monitor command in the running mscc-built program "
        "<pid>\n"
        "(of your own user) and prints what vgdb would print for it:\n"
        "  snapshot [<file>]            one snapshot, taken now\n"
        "  detailed_snapshot [<file>]   one detailed snapshot, taken now\n"
        "  all_snapshots [<file>]       the snapshots taken so far\n"
        "  xtmemory [<file>]            the live blocks as an execution tree\n"
        "  help                         the list of commands\n"
        "<file> defaults to massif.vgdb.out, relative to the program's "
        "working\n"
        "directory. A command runs when the program next enters the "
        "allocator\n"
        "(malloc, free, new, delete, ...).\n"
        "\n"
        "  --timeout=<ms>   how long to wait for it (default 10000); then "
        "the\n"
        "                   command is cancelled\n"
        "  --help, --version\n",
        F);
}

[[noreturn]] void fail(const std::string &Line) {
  fprintf(stderr, "ms_control: %s\n", Line.c_str());
  exit(1);
}

} // namespace

int main(int Argc, char **Argv) {
  long TimeoutMs = DefaultTimeoutMs;
  int First = 1;
  for (; First < Argc && Argv[First][0] == '-' && Argv[First][1] == '-';
       ++First) {
    const char *A = Argv[First];
    if (strcmp(A, "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (strcmp(A, "--version") == 0) {
      printf("ms_control (massif-native) %s\n", MASSIF_NATIVE_VERSION);
      return 0;
    }
    if (strncmp(A, "--timeout=", 10) == 0) {
      char *End;
      TimeoutMs = strtol(A + 10, &End, 10);
      if (*End || End == A + 10 || TimeoutMs <= 0)
        fail(std::string("bad --timeout: '") + (A + 10) +
             "' (milliseconds, more than 0)");
      continue;
    }
    if (strcmp(A, "--") == 0) {
      ++First;
      break;
    }
    fail(std::string("unknown option '") + A + "' (try --help)");
  }
  if (Argc - First < 2 || Argc - First > 3) {
    usage(stderr);
    return 1;
  }
  char *End;
  long Pid = strtol(Argv[First], &End, 10);
  if (*End || End == Argv[First] || Pid <= 0 || Pid > 0x7fffffff)
    fail(std::string("bad pid '") + Argv[First] + "'");
  std::string Command = Argv[First + 1];
  if (Argc - First == 3)
    Command += std::string(" ") + Argv[First + 2];

  // The runtime's own parser: refuse what it would not run.
  {
    static MonitorCommand C;
    std::string Said;
    Sink ToString = {[](void *Ctx, const char *Data, size_t Len) {
                       static_cast<std::string *>(Ctx)->append(Data, Len);
                       return true;
                     },
                     &Said};
    MonitorParse Parsed;
    {
      TextWriter W(ToString);
      Parsed = parseMonitorCommand(Command.c_str(), C, W);
    }
    // Standard output gets what vgdb prints for it; standard error why
    // nothing was sent.
    if (Parsed == MonitorParse::NotRecognised) {
      {
        TextWriter W(ToString);
        writeMonitorNotRecognised(Command.c_str(), W);
      }
      fputs(Said.c_str(), stdout);
      fflush(stdout);
      fail("unknown command '" + std::string(Argv[First + 1]) +
           "' (commands: help, snapshot, detailed_snapshot, all_snapshots, "
           "xtmemory)");
    }
    if (Parsed == MonitorParse::Ambiguous) {
      fputs(Said.c_str(), stdout);
      fflush(stdout);
      while (!Said.empty() && Said.back() == '\n')
        Said.pop_back();
      fail("ambiguous command: " + Said);
    }
  }

  control::Outcome R = control::sendCommand(int(Pid), Command, TimeoutMs);
  if (!R.Answered)
    fail(R.Error);
  fwrite(R.Text.data(), 1, R.Text.size(), stdout);
  fflush(stdout);
  if (R.Status == control::ReplyNotRecognised)
    fail("process " + std::to_string(Pid) + " did not recognise the command");
  if (R.Status == control::ReplyFileError)
    return 1; // the reply says why
  return 0;
}
