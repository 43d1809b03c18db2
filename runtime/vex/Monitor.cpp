//===- Monitor.cpp - Massif's monitor commands under Valgrind -------------===//
//
// Part of massif-native's Valgrind tool, under the GNU GPL, version 2 or
// later (see LICENSE in this folder).
//
// Valgrind's gdbserver passes every monitor command (vgdb, gdb's
// `monitor`, the client's VALGRIND_MONITOR_COMMAND) to the tool's
// client-request handler as VG_USERREQ__GDB_MONITOR_COMMAND, after its own
// commands. The commands run on the tool's model through the core's
// parser and runner (runtime/core/control/Monitor.h), as in the native runtime;
// the reply goes through VG_(gdb_printf) (to vgdb, or to the log when no
// debugger is attached) and file errors through VG_(umsg), as Massif's.
//
//===----------------------------------------------------------------------===//

#include "Tool.h"

#include "Monitor.h"

extern "C" {
#include "pub_tool_gdbserver.h"
}

using namespace massif;
using namespace massif::vex;

namespace {

bool replyToGdb(void *, const char *Data, size_t Len) {
  // Valgrind's printf has no precision for %s: print NUL-terminated pieces.
  HChar Piece[512];
  while (Len) {
    size_t N = Len < sizeof(Piece) - 1 ? Len : sizeof(Piece) - 1;
    VG_(memcpy)(Piece, Data, N);
    Piece[N] = '\0';
    VG_(gdb_printf)("%s", Piece);
    Data += N;
    Len -= N;
  }
  return true;
}

struct MonitorFile {
  Int Fd;
  const char *Path;
};

bool openFile(void *Ctx, const char *Path, Sink &Out, TextWriter &Reply) {
  MonitorFile &F = *static_cast<MonitorFile *>(Ctx);
  F.Path = Path;
  F.Fd = VG_(fd_open)(Path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC,
                      VKI_S_IRUSR | VKI_S_IWUSR | VKI_S_IRGRP | VKI_S_IROTH);
  if (F.Fd < 0) {
    Reply.flush();
    VG_(umsg)("Error: can not open xtree output file `%s'\n", Path);
    return false;
  }
  Out = openFileSink(F.Fd);
  return true;
}

void closeFile(void *Ctx, bool Ok, TextWriter &Reply) {
  MonitorFile &F = *static_cast<MonitorFile *>(Ctx);
  Ok = flushFileSink() && Ok;
  VG_(close)(F.Fd);
  if (!Ok) {
    Reply.flush();
    VG_(umsg)("error: could not write the whole output file '%s'\n", F.Path);
  }
}

bool expandName(void *, const char *Pattern, char *Out, size_t OutB,
                TextWriter &Reply) {
  // Valgrind's own expansion, which ends the run over a bad name, as
  // Massif's xtmemory does.
  Reply.flush();
  HChar *Name = VG_(expand_file_name)("--xtree-memory-file", Pattern);
  VG_(strncpy)(Out, Name, OutB - 1);
  Out[OutB - 1] = '\0';
  VG_(free)(Name);
  return true;
}

void logLine(void *, const char *Text, const char *Arg, TextWriter &Reply) {
  Reply.flush();
  VG_(umsg)("%s%s\n", Text, Arg);
}

uint64_t nowMs(void *) { return VG_(read_millisecond_timer)(); }

MonitorCommand TheCommand; // the tool runs one command at a time

} // namespace

bool vex::handleMonitorCommand(const HChar *Line) {
  State &S = state();
  if (!Line || !S.Ready)
    return false;
  TextWriter Reply(Sink{replyToGdb, nullptr});
  MonitorParse Parsed = parseMonitorCommand(Line, TheCommand, Reply);
  if (Parsed != MonitorParse::Ok)
    return Parsed == MonitorParse::Ambiguous;
  MonitorFile F = {-1, nullptr};
  MonitorHost Host = {openFile, closeFile, expandName,          logLine,
                      nowMs,    (int64_t)VG_(getpid)(), &F};
  UInt Argc;
  const char **Argv = clientArgv(Argc);
  runMonitorCommand(TheCommand, S.Prof, RunInfo{Argv, Argc}, Host, Reply);
  Reply.flush();
  VG_(free)(Argv);
  return true;
}
