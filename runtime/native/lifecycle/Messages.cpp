//===- Messages.cpp - Where the runtime's messages go ---------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Valgrind's core options that steer its messages, done natively:
// --log-file sends the runtime's lines to a file (its name expanded as
// Valgrind expands it: %p, %q{VAR}, %n, %%, relative to the start-up
// directory) instead of stderr, which stays the program's own; -q drops
// warnings; --child-silent-after-fork=yes drops every line of a forked
// child. The descriptors themselves are kept in state/MessageFd.cpp, where
// every part of the runtime reads them. Valgrind keeps its log descriptor
// out of the program's way; here
// it is moved to a high number and closed on exec, so the program's own
// descriptors and children do not see it. A child forked with a %p name
// gets its own file, as under Valgrind.
//
// Verbose lines (-v) carry Valgrind's "--PID-- " prefix and Massif's
// texts, so that they read and grep as Valgrind's do.
//
//===----------------------------------------------------------------------===//

#include "Messages.h"
#include "OutFile.h"
#include "Process.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

using namespace massif;
using namespace massif::native;

namespace {

int LogFd = 2;
bool Quiet = false;
const char *LogPattern = nullptr;
uint32_t LogSequence = 0;

/// The lowest descriptor the log may take: above what programs use.
constexpr int HighFd = 1000;

const char *getEnv(const char *Name) { return getEnvironmentVariable(Name); }

void addDecimal(char *Buf, size_t &N, uint64_t V) {
  char Tmp[24];
  size_t T = 0;
  do {
    Tmp[T++] = char('0' + V % 10);
    V /= 10;
  } while (V);
  while (T)
    Buf[N++] = Tmp[--T];
}

/// Opens the log file named by LogPattern for this process; false with a
/// line on stderr when it cannot be.
bool openLog() {
  char Path[4096], Reason[512];
  NameContext C = {(uint64_t)getpid(), startCwd(), &LogSequence, getEnv};
  if (!expandFileName(LogPattern, C, Path, sizeof(Path), Reason,
                      sizeof(Reason))) {
    const char *Parts[] = {"massif: bad --log-file name '", LogPattern,
                           "': ", Reason};
    writeLine(2, Parts, 4);
    return false;
  }
  int Fd = open(Path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (Fd < 0) {
    const char *Parts[] = {"massif: Cannot create log file '", Path,
                           "': ", strerror(errno)};
    writeLine(2, Parts, 4);
    return false;
  }
  int High = fcntl(Fd, F_DUPFD_CLOEXEC, HighFd);
  if (High >= 0) {
    close(Fd);
    Fd = High;
  }
  if (LogFd > 2)
    close(LogFd);
  LogFd = Fd;
  setMessageFd(Fd);
  return true;
}

} // namespace

bool native::setUpMessages(const Options &O) {
  Quiet = O.Verbosity < 1;
  setMessageLevel(Quiet, false);
  if (!O.LogFile || !*O.LogFile)
    return true;
  LogPattern = O.LogFile;
  return openLog();
}

void native::messagesAfterForkChild(const Options &O) {
  if (O.ChildSilentAfterFork) {
    setMessageLevel(Quiet, true);
    return;
  }
  // A name with %p names the child's own file, as Valgrind reopens it.
  if (LogPattern && strstr(LogPattern, "%p") && !openLog())
    setMessageLevel(Quiet, true);
}

void native::writeVerboseLine(const char *Text) {
  char Prefix[40];
  size_t N = 0;
  Prefix[N++] = '-';
  Prefix[N++] = '-';
  addDecimal(Prefix, N, (uint64_t)getpid());
  memcpy(Prefix + N, "-- Massif: ", 12);
  writeLines(messageFd(), Prefix, Text);
}

void native::reportBadOption(const char *Text) {
  writeLines(2, "massif: ", Text);
  // Valgrind's last line after an option error.
  writeLines(2, "massif: ",
             "Use --help for more information or consult the user manual.");
}
