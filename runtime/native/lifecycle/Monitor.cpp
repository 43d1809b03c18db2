//===- Monitor.cpp - Massif's monitor commands in a native process --------===//
//
// Part of massif-native, under the MIT licence.
//
// A monitor command (runtime/core/control/Monitor.h) runs on a thread of the
// program at a safe point: outside the runtime, holding nothing, with the
// model whole. Two things bring one here: the program's own request
// (massif_monitor_command, lowered by the pass to __massif_client_request),
// and ms_control's, which the control channel (Control.cpp) hands over at
// the next allocator entry. The command sees every thread's events so far
// (their rings are applied first) and changes nothing in the model.
//
// Files are opened as Massif opens them: created or truncated, mode 0644,
// relative to the process's working directory. Replies are what Valgrind
// prints for the same command: the command's text as is, and the
// messages Valgrind logs (an unwritable file) with its "==<pid>== " prefix.
//
//===----------------------------------------------------------------------===//

#include "Lifecycle.h"

#include "Arena.h"
#include "ControlChannel.h"
#include "EventRing.h"
#include "Monitor.h"
#include "OutFile.h"
#include "Process.h"
#include "State.h"
#include "SymbolizerClient.h"

#include <errno.h>
#include <fcntl.h>
#include <new>
#include <string.h>
#include <unistd.h>

using namespace massif;
using namespace massif::native;

namespace {

/// The file a command writes, through a buffer from the arena.
struct CommandFile {
  int Fd = -1;
  char *Buf = nullptr;
  FdSink *Out = nullptr;
  alignas(FdSink) char OutMem[sizeof(FdSink)];
  bool Failed = false;
};

constexpr size_t FileBufB = 64 * 1024;

/// "==<pid>== ", Valgrind's prefix of what it logs.
void putLogPrefix(TextWriter &Reply) {
  Reply.put("==").putUnsigned(uint64_t(getpid())).put("== ");
}

bool openFile(void *Ctx, const char *Path, Sink &Out, TextWriter &Reply) {
  CommandFile &F = *static_cast<CommandFile *>(Ctx);
  do
    F.Fd = open(Path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  while (F.Fd < 0 && errno == EINTR);
  if (F.Fd < 0) {
    F.Failed = true;
    putLogPrefix(Reply);
    Reply.put("Error: can not open xtree output file `").put(Path).put("'\n");
    return false;
  }
  F.Buf = (char *)arenaAllocate(FileBufB);
  static char Small[512]; // model lock held: one user at a time
  F.Out = new (F.OutMem) FdSink(F.Fd, F.Buf ? F.Buf : Small,
                                F.Buf ? FileBufB : sizeof(Small));
  Out = F.Out->sink();
  return true;
}

void closeFile(void *Ctx, bool Ok, TextWriter &Reply) {
  CommandFile &F = *static_cast<CommandFile *>(Ctx);
  Ok = F.Out->flush() && Ok;
  int Err = F.Out->error();
  close(F.Fd);
  if (F.Buf)
    arenaDeallocate(F.Buf, FileBufB);
  if (!Ok) {
    F.Failed = true;
    putLogPrefix(Reply);
    Reply.put("error: could not write the whole output file: ")
        .put(strerror(Err ? Err : EIO))
        .put('\n');
  }
}

bool expandName(void *, const char *Pattern, char *Out, size_t OutB,
                TextWriter &Reply) {
  char Reason[256];
  if (expandOutputName(Pattern, Out, OutB, Reason, sizeof(Reason)))
    return true;
  // Valgrind ends the process over a bad name; a command only answers.
  putLogPrefix(Reply);
  Reply.put("Bad option: --xtree-memory-file=").put(Pattern).put('\n');
  putLogPrefix(Reply);
  Reply.put(Reason).put('\n');
  return false;
}

void logLine(void *, const char *Text, const char *Arg, TextWriter &Reply) {
  putLogPrefix(Reply);
  Reply.put(Text).put(Arg).put('\n');
}

uint64_t nowMs(void *) { return msSinceStart(); }

} // namespace

int native::runMonitorCommand(const char *Line, const Sink &ReplyTo) {
  ThreadState *T = beginEvent();
  if (!T)
    return control::ReplyNotRecognised; // no model here
  // The parsed command and the reply's buffer (12 KiB) come from the
  // arena: the thread may have a small stack.
  struct Work {
    MonitorCommand C;
    alignas(TextWriter) char ReplyMem[sizeof(TextWriter)];
  };
  Work *W = (Work *)arenaAllocate(sizeof(Work));
  if (!W) {
    endEvent(*T);
    return control::ReplyNotRecognised;
  }
  int Result = control::ReplyDone;
  TextWriter &Reply = *new (W->ReplyMem) TextWriter(ReplyTo);
  MonitorParse Parsed = parseMonitorCommand(Line, W->C, Reply);
  if (Parsed == MonitorParse::NotRecognised) {
    Result = control::ReplyNotRecognised;
  } else if (Parsed == MonitorParse::Ok) {
    ModelLock L;
    if (__atomic_load_n(&TheState, __ATOMIC_ACQUIRE) == StateActive &&
        ownsRuntime()) {
      applyAllRings();
      CommandFile F;
      MonitorHost Host = {openFile, closeFile, expandName, logLine,
                          nowMs,    (int64_t)getpid(), &F};
      const ProcessArgs &Args = processArgs();
      RunInfo Run = {Args.Argv, Args.Argc};
      massif::runMonitorCommand(W->C, *TheModel.Prof, Run, Host, Reply);
      if (F.Failed)
        Result = control::ReplyFileError;
      // No process of the runtime's outlives the command: the program
      // may wait for its own children.
      stopSymbolizer();
    } else {
      Result = control::ReplyNotRecognised;
    }
  }
  Reply.~TextWriter(); // flushes
  arenaDeallocate(W, sizeof(Work));
  endEvent(*T);
  return Result;
}
