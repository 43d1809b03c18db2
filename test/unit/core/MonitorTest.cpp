//===- MonitorTest.cpp - Monitor commands: parsing, running, no side effect -===//
//
// Part of massif-native, under the MIT licence.
//
// The parser's keyword rule (Valgrind's: exact, else a unique prefix; an
// empty word is ambiguous), the answers' texts (checked live against
// Valgrind 3.19's Massif with vgdb), and that a snapshot written now or
// the array written mid-run leave the profile as if nothing was asked:
// the same events give the same final file with and without them.
//
//===----------------------------------------------------------------------===//

#include "Monitor.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace massif {
namespace test {
namespace {

struct Parsed {
  MonitorParse Result;
  MonitorVerb Verb;
  std::string File; // "-" when none
  std::string Reply;
};

Parsed parse(const char *Line) {
  static MonitorCommand C;
  StringSink Out;
  Parsed P;
  {
    TextWriter W(Out.get());
    P.Result = parseMonitorCommand(Line, C, W);
  }
  P.Verb = C.Verb;
  P.File = C.File ? C.File : "-";
  P.Reply = Out.Text;
  return P;
}

TEST(Monitor, KeywordsAndPrefixes) {
  EXPECT_EQ(parse("snapshot").Verb, MonitorVerb::Snapshot);
  EXPECT_EQ(parse("s").Verb, MonitorVerb::Snapshot);
  EXPECT_EQ(parse("d f").Verb, MonitorVerb::DetailedSnapshot);
  EXPECT_EQ(parse("all").Verb, MonitorVerb::AllSnapshots);
  EXPECT_EQ(parse("xt").Verb, MonitorVerb::XtMemory);
  EXPECT_EQ(parse("h").Verb, MonitorVerb::Help);
  EXPECT_EQ(parse("  snapshot   f.out  extra").File, "f.out");
  EXPECT_EQ(parse("snapshot").File, "-");
  // Files are used as given: no expansion.
  EXPECT_EQ(parse("sn out.%p").File, "out.%p");
  EXPECT_EQ(parse("snapshotx").Result, MonitorParse::NotRecognised);
  EXPECT_EQ(parse("foo").Result, MonitorParse::NotRecognised);
  EXPECT_EQ(parse("Snapshot").Result, MonitorParse::NotRecognised);
  EXPECT_EQ(parse("foo").Reply, "");
}

TEST(Monitor, EmptyIsAmbiguous) {
  Parsed P = parse("");
  EXPECT_EQ(P.Result, MonitorParse::Ambiguous);
  EXPECT_EQ(P.Reply, "<empty string> can match help snapshot "
                     "detailed_snapshot all_snapshots xtmemory\n");
  EXPECT_EQ(parse("   ").Result, MonitorParse::Ambiguous);
}

TEST(Monitor, Texts) {
  StringSink Out;
  {
    TextWriter W(Out.get());
    writeMonitorNotRecognised("foo bar", W);
  }
  EXPECT_EQ(Out.Text, "command 'foo bar' not recognised\n"
                      "In gdb,     try 'monitor help'\n"
                      "In a shell, try 'vgdb help'\n");
  StringSink Help;
  {
    TextWriter W(Help.get());
    writeMonitorHelp(W);
  }
  EXPECT_NE(Help.Text.find("(default xtmemory.kcg.%p.%n)\n"), std::string::npos);
  EXPECT_EQ(Help.Text.substr(0, 26), "\nmassif monitor commands:\n");
}

/// Events of a run, with a hook between each.
template <typename Fn> std::string run(Fn Between) {
  ProfileRig R("--time-unit=B --max-snapshots=10 --detailed-freq=3");
  R.Sym.add(0x500, "main", "t.c", 50);
  R.Sym.add(0x600, "f", "t.c", 60);
  StackId A = R.stack({0x600, 0x500}), B = R.stack({0x500});
  R.Prof.startup();
  for (int I = 0; I < 60; ++I) {
    R.Prof.onMalloc(0x10000 + 64 * I, 10 + I, 0, I % 2 ? A : B);
    if (I % 3 == 2)
      R.Prof.onFree(0x10000 + 64 * (I - 1));
    Between(R, I);
  }
  return R.write();
}

TEST(Monitor, WritingNowChangesNothing) {
  std::string Plain = run([](ProfileRig &, int) {});
  std::vector<std::string> Mid;
  std::string Asked = run([&](ProfileRig &R, int I) {
    if (I % 7)
      return;
    StringSink Now, Detailed, All;
    RunInfo Run = {nullptr, 0};
    EXPECT_EQ(R.Prof.writeNow(Now.get(), Run, false),
              Profile::NowResult::Written);
    EXPECT_EQ(R.Prof.writeNow(Detailed.get(), Run, true),
              Profile::NowResult::Written);
    EXPECT_TRUE(R.Prof.write(All.get(), Run));
    // One snapshot, numbered 0, and the array written twice is the same.
    EXPECT_EQ(snapshotSummaries(Now.Text).size(), 1u);
    EXPECT_NE(Now.Text.find("snapshot=0\n"), std::string::npos);
    EXPECT_NE(Detailed.Text.find("heap_tree=detailed\n"), std::string::npos);
    StringSink Again;
    R.Prof.write(Again.get(), Run);
    EXPECT_EQ(All.Text, Again.Text);
    Mid.push_back(Now.Text);
  });
  EXPECT_EQ(Plain, Asked);
  ASSERT_EQ(Mid.size(), 9u);
}

TEST(Monitor, NotBeforeStartup) {
  ProfileRig R("--time-unit=B");
  StringSink Out;
  EXPECT_FALSE(R.Prof.started());
  EXPECT_EQ(R.Prof.writeNow(Out.get(), RunInfo{nullptr, 0}, false),
            Profile::NowResult::NotStarted);
  EXPECT_EQ(Out.Text, "");
}

TEST(Monitor, RunReportsWhatTheHostSays) {
  ProfileRig R("--time-unit=B");
  StringSink Reply, File;
  struct Ctx {
    StringSink *File;
    bool Closed = false, Fail = false;
    std::string Path;
  } C{&File};
  MonitorHost Host = {
      [](void *P, const char *Path, Sink &Out, TextWriter &Reply) {
        Ctx &C = *static_cast<Ctx *>(P);
        C.Path = Path;
        if (C.Fail) {
          Reply.put("cannot\n");
          return false;
        }
        Out = C.File->get();
        return true;
      },
      [](void *P, bool, TextWriter &) { static_cast<Ctx *>(P)->Closed = true; },
      [](void *, const char *Pattern, char *Out, size_t OutB, TextWriter &) {
        // As an engine would: %p is the pid, a relative name made absolute.
        std::string Name = std::string("/start/") + Pattern;
        for (const char *From : {"%p", "%n"}) {
          size_t At = Name.find(From);
          if (At != std::string::npos)
            Name.replace(At, 2, From[1] == 'p' ? "42" : "1");
        }
        snprintf(Out, OutB, "%s", Name.c_str());
        return Name.find('%') == std::string::npos;
      },
      [](void *, const char *Text, const char *Arg, TextWriter &Reply) {
        Reply.put("==42== ").put(Text).put(Arg).put('\n');
      },
      [](void *) { return uint64_t(7); },
      42,
      &C};
  MonitorCommand Cmd;
  {
    TextWriter W(Reply.get());
    ASSERT_EQ(parseMonitorCommand("sn", Cmd, W), MonitorParse::Ok);
    runMonitorCommand(Cmd, R.Prof, RunInfo{nullptr, 0}, Host, W);
  }
  EXPECT_EQ(Reply.Text,
            "error: cannot take snapshot before execution has started\n");
  EXPECT_EQ(C.Path, "");
  R.Prof.startup();
  Reply.Text.clear();
  {
    TextWriter W(Reply.get());
    runMonitorCommand(Cmd, R.Prof, RunInfo{nullptr, 0}, Host, W);
  }
  EXPECT_EQ(C.Path, "massif.vgdb.out");
  EXPECT_TRUE(C.Closed);
  EXPECT_NE(File.Text.find("snapshot=0\n"), std::string::npos);
  C.Fail = true;
  C.Closed = false;
  {
    TextWriter W(Reply.get());
    runMonitorCommand(Cmd, R.Prof, RunInfo{nullptr, 0}, Host, W);
  }
  EXPECT_EQ(Reply.Text, "cannot\n");
  EXPECT_FALSE(C.Closed);

  // xtmemory: the name expanded, the report written, then Valgrind's line,
  // also after a file that could not be opened.
  C.Fail = false;
  Reply.Text.clear();
  {
    TextWriter W(Reply.get());
    ASSERT_EQ(parseMonitorCommand("xt", Cmd, W), MonitorParse::Ok);
    runMonitorCommand(Cmd, R.Prof, RunInfo{nullptr, 0}, Host, W);
  }
  EXPECT_EQ(C.Path, "/start/xtmemory.kcg.42.1");
  EXPECT_EQ(Reply.Text,
            "==42== xtree memory report: /start/xtmemory.kcg.42.1\n");
  Reply.Text.clear();
  C.Path.clear();
  File.Text.clear();
  {
    TextWriter W(Reply.get());
    ASSERT_EQ(parseMonitorCommand("xtmemory x.kcg.%p", Cmd, W),
              MonitorParse::Ok);
    runMonitorCommand(Cmd, R.Prof, RunInfo{nullptr, 0}, Host, W);
  }
  EXPECT_EQ(C.Path, "/start/x.kcg.42");
  EXPECT_TRUE(C.Closed);
  EXPECT_EQ(Reply.Text, "==42== xtree memory report: /start/x.kcg.42\n");
  EXPECT_EQ(File.Text.rfind("# callgrind format\n", 0), 0u);
  EXPECT_NE(File.Text.find("pid: 42\n"), std::string::npos);
  File.Text.clear();
  Reply.Text.clear();
  {
    TextWriter W(Reply.get());
    ASSERT_EQ(parseMonitorCommand("xtmemory x.ms", Cmd, W), MonitorParse::Ok);
    runMonitorCommand(Cmd, R.Prof, RunInfo{nullptr, 0}, Host, W);
  }
  EXPECT_NE(File.Text.find("desc: xtree.produce_report\n"), std::string::npos);
  C.Fail = true;
  Reply.Text.clear();
  {
    TextWriter W(Reply.get());
    runMonitorCommand(Cmd, R.Prof, RunInfo{nullptr, 0}, Host, W);
  }
  EXPECT_EQ(Reply.Text, "cannot\n==42== xtree memory report: /start/x.ms\n");
}

} // namespace
} // namespace test
} // namespace massif
