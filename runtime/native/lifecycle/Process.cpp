//===- Process.cpp - Command line and environment from /proc/self ---------===//
//
// Part of massif-native, under the MIT licence.
//
// /proc/self/cmdline holds argv[0] exactly as the program was started
// (not resolved through PATH) and each argument, NUL-terminated, which is
// what Massif's cmd: line shows. The environment comes from getenv once libc
// has set it up, and from /proc/self/environ before that.
//
//===----------------------------------------------------------------------===//

#include "Process.h"

#include "Arena.h"
#include "OutFile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

using namespace massif;
using namespace massif::native;

namespace {

int CtorArgc = 0;
char **CtorArgv = nullptr;

char StartCwd[4096];
bool HaveStartCwd = false;
ProcessArgs Args = {};

// The process the runtime state belongs to: set at start-up and in a forked
// child. A vfork child (or a clone that skipped fork's handlers) sees
// another pid and never writes, since it shares or copied the state behind
// the runtime's back.
pid_t OwnerPid = 0;
/// When the runtime started.
uint64_t StartMs = 0;
// The %n counter of the file options, per process.
uint32_t FileSequence = 0;

uint64_t monotonicMs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return (uint64_t)T.tv_sec * 1000 + (uint64_t)T.tv_nsec / 1000000;
}

const char *getEnv(const char *Name) {
  return native::getEnvironmentVariable(Name);
}

/// Reads a whole /proc file into arena memory (NUL-terminated, size in
/// SizeB); null when it cannot be read.
char *readWholeFile(const char *Path, size_t &SizeB) {
  int Fd;
  do
    Fd = open(Path, O_RDONLY | O_CLOEXEC);
  while (Fd < 0 && errno == EINTR);
  if (Fd < 0)
    return nullptr;
  size_t Cap = 4096, Len = 0;
  char *Buf = (char *)arenaAllocate(Cap);
  while (Buf) {
    if (Len + 1 == Cap) {
      char *Bigger = (char *)arenaAllocate(Cap * 2);
      if (Bigger)
        memcpy(Bigger, Buf, Len);
      arenaDeallocate(Buf, Cap);
      Buf = Bigger;
      Cap *= 2;
      continue;
    }
    ssize_t Got = read(Fd, Buf + Len, Cap - 1 - Len);
    if (Got < 0 && errno == EINTR)
      continue;
    if (Got <= 0)
      break;
    Len += (size_t)Got;
  }
  close(Fd);
  SizeB = Len;
  return Buf; // zeroed by the arena past Len
}

} // namespace

/// Reads /proc/self/cmdline into arena memory; falls back to the arguments
/// given to noteConstructorArgs when /proc is not readable.
static void readProcessArgs(ProcessArgs &Out) {
  size_t SizeB = 0;
  char *Text = readWholeFile("/proc/self/cmdline", SizeB);
  if (!Text || SizeB == 0) {
    Out.Argv = CtorArgv;
    Out.Argc = CtorArgv ? (uint32_t)CtorArgc : 0;
    return;
  }
  uint32_t Count = 0;
  for (size_t I = 0; I < SizeB; ++I)
    Count += Text[I] == 0;
  if (Text[SizeB - 1] != 0)
    ++Count; // a truncated last argument
  const char **Argv = (const char **)arenaAllocate(Count * sizeof(char *));
  if (!Argv)
    return;
  uint32_t N = 0;
  for (size_t I = 0; I < SizeB && N < Count; I += strlen(Text + I) + 1)
    Argv[N++] = Text + I;
  Out.Argv = Argv;
  Out.Argc = N;
}

void native::noteConstructorArgs(int Argc, char **Argv) {
  CtorArgc = Argc;
  CtorArgv = Argv;
}

bool native::secureMode() { return getauxval(AT_SECURE) != 0; }

const char *native::getEnvironmentVariable(const char *Name) {
  return secureMode() ? nullptr : getenv(Name);
}

const char *native::getOptionsVariable() {
  static const char Name[] = "MASSIF_OPTIONS=";
  if (secureMode())
    return nullptr;
  if (environ)
    return getenv("MASSIF_OPTIONS");
  size_t SizeB = 0;
  char *Env = readWholeFile("/proc/self/environ", SizeB);
  if (!Env)
    return nullptr;
  for (size_t I = 0; I < SizeB; I += strlen(Env + I) + 1)
    if (strncmp(Env + I, Name, sizeof(Name) - 1) == 0)
      return Env + I + sizeof(Name) - 1;
  return nullptr;
}

void native::noteStart() {
  HaveStartCwd = getcwd(StartCwd, sizeof(StartCwd)) != nullptr;
  readProcessArgs(Args);
  OwnerPid = getpid();
  StartMs = monotonicMs();
}

void native::noteArgsAgain() {
  if (Args.Argc == 0)
    readProcessArgs(Args);
}

const char *native::startCwd() { return HaveStartCwd ? StartCwd : nullptr; }

const ProcessArgs &native::processArgs() { return Args; }

bool native::runtimeStarted() { return OwnerPid != 0; }

bool native::ownsRuntime() { return OwnerPid != 0 && getpid() == OwnerPid; }

void native::processAfterForkChild() {
  FileSequence = 0;
  OwnerPid = getpid();
}

uint64_t native::msSinceStart() { return monotonicMs() - StartMs; }

bool native::expandOutputName(const char *Pattern, char *Out, size_t OutB,
                              char *Reason, size_t ReasonB) {
  NameContext C = {(uint64_t)getpid(), startCwd(), &FileSequence, getEnv};
  return expandFileName(Pattern, C, Out, OutB, Reason, ReasonB);
}

[[noreturn]] void native::exitNow(int Status) {
  // What glibc's _exit does, without going through the interposed _exit.
  for (;;) {
    syscall(SYS_exit_group, Status);
    syscall(SYS_exit, Status);
  }
}
