//===- Monitor.cpp - Massif's monitor commands ----------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The keyword matching follows Valgrind's rule for monitor commands: a
// word matches a keyword it equals or begins; one exact match, or else one
// prefix match, selects; more than one is ambiguous and answered with the
// candidates; an empty command is ambiguous (it begins every keyword).
//
//===----------------------------------------------------------------------===//

#include "Monitor.h"

#include <string.h>

namespace massif {
namespace {

const char *const Keywords[] = {"help", "snapshot", "detailed_snapshot",
                                "all_snapshots", "xtmemory"};
constexpr uint32_t NumKeywords = sizeof(Keywords) / sizeof(Keywords[0]);

/// The next blank-separated word of the copy at *Pos, NUL-terminated in
/// place; null when none is left.
char *nextWord(char *&Pos) {
  while (*Pos == ' ')
    ++Pos;
  if (!*Pos)
    return nullptr;
  char *Word = Pos;
  while (*Pos && *Pos != ' ')
    ++Pos;
  if (*Pos)
    *Pos++ = '\0';
  return Word;
}

} // namespace

MonitorParse parseMonitorCommand(const char *Line, MonitorCommand &C,
                                 TextWriter &Reply) {
  size_t Len = strlen(Line);
  if (Len >= MonitorMaxLine)
    Len = MonitorMaxLine - 1;
  memcpy(C.Words, Line, Len);
  C.Words[Len] = '\0';
  C.File = nullptr;
  char *Pos = C.Words;
  const char *Word = nextWord(Pos);
  size_t WordLen = Word ? strlen(Word) : 0;

  int Exact = -1, Prefix = -1;
  uint32_t NumExact = 0, NumPrefix = 0;
  for (uint32_t K = 0; K < NumKeywords; ++K) {
    size_t KwLen = strlen(Keywords[K]);
    if (WordLen == KwLen && memcmp(Word, Keywords[K], KwLen) == 0) {
      Exact = int(K);
      ++NumExact;
    } else if (WordLen < KwLen &&
               (WordLen == 0 || memcmp(Word, Keywords[K], WordLen) == 0)) {
      Prefix = int(K);
      ++NumPrefix;
    }
  }
  int Chosen = -1;
  if (NumExact == 1)
    Chosen = Exact;
  else if (NumExact == 0 && NumPrefix == 1)
    Chosen = Prefix;
  if (Chosen < 0 && NumExact + NumPrefix == 0)
    return MonitorParse::NotRecognised;
  if (Chosen < 0) {
    Reply.put(WordLen ? Word : "<empty string>").put(" can match");
    for (uint32_t K = 0; K < NumKeywords; ++K) {
      size_t KwLen = strlen(Keywords[K]);
      if (WordLen <= KwLen &&
          (WordLen == 0 || memcmp(Word, Keywords[K], WordLen) == 0))
        Reply.put(' ').put(Keywords[K]);
    }
    Reply.put('\n');
    return MonitorParse::Ambiguous;
  }
  C.Verb = MonitorVerb(Chosen);
  C.File = nextWord(Pos);
  return MonitorParse::Ok;
}

void writeMonitorHelp(TextWriter &Reply) {
  Reply.put("\n"
            "massif monitor commands:\n"
            "  snapshot [<filename>]\n"
            "  detailed_snapshot [<filename>]\n"
            "      takes a snapshot (or a detailed snapshot)\n"
            "      and saves it in <filename>\n"
            "             default <filename> is massif.vgdb.out\n"
            "  all_snapshots [<filename>]\n"
            "      saves all snapshot(s) taken so far in <filename>\n"
            "             default <filename> is massif.vgdb.out\n"
            "  xtmemory [<filename>]\n"
            "        dump xtree memory profile in <filename> (default "
            "xtmemory.kcg.%p.%n)\n"
            "\n");
}

void writeMonitorNotRecognised(const char *Line, TextWriter &Reply) {
  Reply.put("command '")
      .put(Line)
      .put("' not recognised\n"
           "In gdb,     try 'monitor help'\n"
           "In a shell, try 'vgdb help'\n");
}

void runXtMemoryCommand(const char *File, Profile &Prof, const RunInfo &Run,
                        const MonitorHost &Host, TextWriter &Reply) {
  // Commands run one at a time (under the model's lock), and the thread
  // that runs one may have a small stack.
  static char Path[4096];
  if (!Host.Expand(Host.Ctx, File ? File : MonitorDefaultXtreeFile, Path,
                   sizeof(Path), Reply))
    return;
  Sink Out;
  if (Host.Open(Host.Ctx, Path, Out, Reply)) {
    bool Ok = Prof.writeXtree(Out, Run, xtreeNameIsMassifFormat(Path), Host.Pid,
                              Host.NowMs(Host.Ctx));
    Host.Close(Host.Ctx, Ok, Reply);
  }
  Host.Log(Host.Ctx, "xtree memory report: ", Path, Reply);
}

void runMonitorCommand(const MonitorCommand &C, Profile &Prof,
                       const RunInfo &Run, const MonitorHost &Host,
                       TextWriter &Reply) {
  switch (C.Verb) {
  case MonitorVerb::Help:
    writeMonitorHelp(Reply);
    return;
  case MonitorVerb::XtMemory:
    runXtMemoryCommand(C.File, Prof, Run, Host, Reply);
    return;
  case MonitorVerb::Snapshot:
  case MonitorVerb::DetailedSnapshot:
  case MonitorVerb::AllSnapshots:
    break;
  }
  if (!Prof.started()) {
    Reply.put("error: cannot take snapshot before execution has started\n");
    return;
  }
  Sink Out;
  if (!Host.Open(Host.Ctx, C.File ? C.File : MonitorDefaultFile, Out, Reply))
    return;
  bool Ok;
  if (C.Verb == MonitorVerb::AllSnapshots)
    Ok = Prof.write(Out, Run);
  else
    Ok = Prof.writeNow(Out, Run, C.Verb == MonitorVerb::DetailedSnapshot) ==
         Profile::NowResult::Written;
  Host.Close(Host.Ctx, Ok, Reply);
}

} // namespace massif
