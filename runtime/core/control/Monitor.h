//===- Monitor.h - Massif's monitor commands --------------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Massif answers five monitor commands (spec §7.2): from vgdb, from gdb's
// `monitor`, or from the program itself (valgrind.h's
// VALGRIND_MONITOR_COMMAND, massif/massif.h's massif_monitor_command).
// Every engine runs them through this file, so they parse, abbreviate and
// answer alike:
//
//   help                           the command list (Massif's text)
//   snapshot [<file>]              one snapshot taken now, numbered 0
//   detailed_snapshot [<file>]     the same, detailed
//   all_snapshots [<file>]         the snapshot array as it is now
//   xtmemory [<file>]              the live blocks as an execution tree
//
// The command is the first blank-separated word; a unique prefix of a
// keyword stands for it (an exact keyword wins over a longer one). The
// file is the second word, used literally (no %p expansion), relative to
// the process's working directory; it defaults to massif.vgdb.out.
// Words after it are ignored, as Massif ignores them.
//
// The engine supplies the file (Open/Close, which report their own errors
// in the engine's words) and the reply (a TextWriter: what vgdb would
// print). Nothing here changes the model.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_MONITOR_H
#define MASSIF_CORE_MONITOR_H

#include "Base.h"
#include "Profile.h"
#include "TextWriter.h"

namespace massif {

enum class MonitorVerb : uint8_t {
  Help,
  Snapshot,
  DetailedSnapshot,
  AllSnapshots,
  XtMemory,
};

/// Where a parse ended. Ambiguous is answered (the keywords it can match)
/// and counts as handled, as in Massif; NotRecognised is for the engine's
/// caller (Valgrind's core prints "command '...' not recognised").
enum class MonitorParse : uint8_t { Ok, Ambiguous, NotRecognised };

/// The longest command line an engine passes (longer ones are cut).
constexpr size_t MonitorMaxLine = 4096;

struct MonitorCommand {
  MonitorVerb Verb;
  const char *File; ///< the second word, or null: into Words
  char Words[MonitorMaxLine];
};

/// The default file of the snapshot commands, used literally.
constexpr const char *MonitorDefaultFile = "massif.vgdb.out";

/// Parses Line into C. On Ambiguous, writes Massif's "... can match ..."
/// line to Reply.
MonitorParse parseMonitorCommand(const char *Line, MonitorCommand &C,
                                 TextWriter &Reply);

/// Massif's help text.
void writeMonitorHelp(TextWriter &Reply);

/// What Valgrind's core answers to a command nobody recognised.
void writeMonitorNotRecognised(const char *Line, TextWriter &Reply);

/// What an engine provides to run a command.
struct MonitorHost {
  /// Opens Path for writing (created or truncated, mode 0644) and gives
  /// the Sink to write through. On failure reports it (to Reply, in the
  /// engine's words) and returns false.
  bool (*Open)(void *Ctx, const char *Path, Sink &Out, TextWriter &Reply);
  /// Closes the file Open opened; Ok is whether every write succeeded.
  /// Reports a failure to Reply.
  void (*Close)(void *Ctx, bool Ok, TextWriter &Reply);
  /// Expands an xtree report's name into Out[0..OutB) as the engine
  /// expands --xtree-memory-file (%p, %n, %q{VAR}; a relative name is made
  /// absolute against the start-up directory). On a bad name reports it (to
  /// Reply) and returns false.
  bool (*Expand)(void *Ctx, const char *Pattern, char *Out, size_t OutB,
                 TextWriter &Reply);
  /// Logs one line of Valgrind's, Text then Arg, as the engine logs it,
  /// e.g. "xtree memory report: " and the path.
  void (*Log)(void *Ctx, const char *Text, const char *Arg,
              TextWriter &Reply);
  /// Milliseconds since start-up: a Massif-format report's time=.
  uint64_t (*NowMs)(void *Ctx);
  int64_t Pid; ///< the callgrind-format report's pid: line
  void *Ctx;
};

/// Runs a parsed command on Prof. Run is the header's command line.
void runMonitorCommand(const MonitorCommand &C, Profile &Prof,
                       const RunInfo &Run, const MonitorHost &Host,
                       TextWriter &Reply);

/// The default name of the xtmemory command's report, expanded.
constexpr const char *MonitorDefaultXtreeFile = "xtmemory.kcg.%p.%n";

/// The xtmemory command: an xtree report of the model now (the live blocks
/// as --xtree-memory=allocs gives them, or the counters of
/// --xtree-memory=full) to File, expanded (default
/// MonitorDefaultXtreeFile); then, as Valgrind, "xtree memory report:
/// <path>", also after a file that could not be opened.
void runXtMemoryCommand(const char *File, Profile &Prof, const RunInfo &Run,
                        const MonitorHost &Host, TextWriter &Reply);

} // namespace massif

#endif // MASSIF_CORE_MONITOR_H
