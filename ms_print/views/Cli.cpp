//===- Cli.cpp - ms_print's own options: help, version and the views ------===//
//
// Part of massif-native, under the MIT licence.
//
// The report keeps the script's command line to the byte (report/
// Options.cpp); the options here are ms_print's additions. --help and
// --version describe this project; any of --html, --format=, --snapshot=,
// --sites=, --top=, -o or --output= selects the view path, which takes the
// report's options too when the format is text.
//
// The JSON export, the page and the hot spots read the site statistics
// file beside the input (model::sitesPathFor) when there is one, or the
// file --sites= names; --sites=none leaves them out. A file there that is
// malformed or of another run is refused as a malformed input is.
//
//===----------------------------------------------------------------------===//

#include "Views.h"

#include "Options.h"
#include "OutputFile.h"
#include "Report.h"

#include <cstdio>
#include <string_view>

namespace msprint::views {

namespace {

/// A view's bytes into an OutputFile's buffer.
class BufferSink final : public Sink {
public:
  explicit BufferSink(OutputBuffer &B) : B(B) {}
  void write(const char *Data, size_t Size) override {
    B.append(std::string_view(Data, Size));
    B.flushIfFull();
  }
  using Sink::write;

private:
  OutputBuffer &B;
};

enum class Format { Text, Json, Collapsed, Pprof, Html, Hotspots };

struct ViewOptions {
  Format Fmt = Format::Text;
  bool FormatGiven = false;
  std::string Snapshot = "peak";
  bool SnapshotGiven = false;
  std::string Output;
  std::string Input;
  /// --sites=: a file, "none", or empty (the file beside the input).
  std::string Sites;
  size_t Top = HotspotsDefaultTop;
  bool TopGiven = false;
  /// The report's own options (for --format=text).
  std::vector<std::string> ReportArgs;
};

int usageError(const std::string &Message) {
  std::fprintf(stderr, "ms_print: %s\nTry 'ms_print --help' for more.\n",
               Message.c_str());
  return 1;
}

bool startsWith(std::string_view S, std::string_view P) {
  return S.substr(0, P.size()) == P;
}

bool isViewOption(std::string_view A) {
  return A == "--html" || A == "-o" || startsWith(A, "--format=") ||
         startsWith(A, "--snapshot=") || startsWith(A, "--output=") ||
         startsWith(A, "--sites=") || startsWith(A, "--top=");
}

/// Parses the view command line; returns 0 or an exit status.
int parseViewOptions(const std::vector<std::string> &Args, ViewOptions &O) {
  for (size_t I = 0; I < Args.size(); ++I) {
    std::string_view A = Args[I];
    auto setFormat = [&](Format F) {
      if (O.FormatGiven && O.Fmt != F)
        return false;
      O.Fmt = F;
      O.FormatGiven = true;
      return true;
    };
    if (A == "--html") {
      if (!setFormat(Format::Html))
        return usageError("--html and --format= choose different views");
    } else if (startsWith(A, "--format=")) {
      std::string_view V = A.substr(9);
      Format F;
      if (V == "text")
        F = Format::Text;
      else if (V == "json")
        F = Format::Json;
      else if (V == "collapsed")
        F = Format::Collapsed;
      else if (V == "pprof")
        F = Format::Pprof;
      else if (V == "html")
        F = Format::Html;
      else if (V == "hotspots")
        F = Format::Hotspots;
      else
        return usageError("unknown format '" + std::string(V) +
                          "'; expected text, json, collapsed, pprof, html "
                          "or hotspots");
      if (!setFormat(F))
        return usageError("--html and --format= choose different views");
    } else if (startsWith(A, "--snapshot=")) {
      O.Snapshot = std::string(A.substr(11));
      O.SnapshotGiven = true;
      if (O.Snapshot.empty())
        return usageError("--snapshot= needs peak, last, all or a number");
    } else if (startsWith(A, "--sites=")) {
      O.Sites = std::string(A.substr(8));
      if (O.Sites.empty())
        return usageError("--sites= needs a file name or none");
    } else if (startsWith(A, "--top=")) {
      std::string_view V = A.substr(6);
      uint64_t N = 0;
      bool Ok = !V.empty() && V.size() <= 9;
      for (char C : V) {
        if (C < '0' || C > '9') {
          Ok = false;
          break;
        }
        N = N * 10 + uint64_t(C - '0');
      }
      if (!Ok)
        return usageError("--top= needs a number of sites (0 for all), not '" +
                          std::string(V) + "'");
      O.Top = size_t(N);
      O.TopGiven = true;
    } else if (A == "-o") {
      if (I + 1 == Args.size())
        return usageError("-o needs a file name");
      O.Output = Args[++I];
    } else if (startsWith(A, "--output=")) {
      O.Output = std::string(A.substr(9));
      if (O.Output.empty())
        return usageError("--output= needs a file name");
    } else if (startsWith(A, "--threshold=") || startsWith(A, "--x=") ||
               startsWith(A, "--y=")) {
      O.ReportArgs.push_back(std::string(A));
    } else if (!A.empty() && A[0] == '-' && A != "-") {
      return usageError("unknown option '" + std::string(A) + "'");
    } else if (O.Input.empty()) {
      O.Input = std::string(A);
    } else {
      return usageError("more than one input file ('" + O.Input + "', '" +
                        std::string(A) + "')");
    }
  }
  if (O.Input.empty())
    return usageError("no massif.out file given");
  if (O.Fmt != Format::Text && !O.ReportArgs.empty())
    return usageError("'" + O.ReportArgs.front() +
                      "' applies to the text report only");
  if (O.SnapshotGiven && O.Fmt != Format::Collapsed &&
      O.Fmt != Format::Pprof)
    return usageError("--snapshot= applies to --format=collapsed and "
                      "--format=pprof only");
  if (!O.Sites.empty() && O.Fmt != Format::Json && O.Fmt != Format::Html &&
      O.Fmt != Format::Hotspots)
    return usageError("--sites= applies to --format=json, --html and "
                      "--format=hotspots only");
  if (O.TopGiven && O.Fmt != Format::Hotspots)
    return usageError("--top= applies to --format=hotspots only");
  if (O.Fmt == Format::Hotspots && O.Sites == "none")
    return usageError("--format=hotspots shows the site statistics; "
                      "--sites=none leaves nothing to show");
  return 0;
}

/// The snapshot= numbers of the snapshots with a tree, for an error; the
/// first ten and "..." when there are more.
std::string detailedNumbers(const model::Profile &P) {
  std::string List;
  size_t Shown = 0;
  for (const model::Snapshot &S : P.Snapshots) {
    if (!S.detailed())
      continue;
    if (Shown++ == 10) {
      List += ", ...";
      break;
    }
    List += (List.empty() ? "" : ", ") + std::to_string(S.Number);
  }
  return List;
}

/// Resolves --snapshot= against the profile; 0 or an exit status. Only
/// snapshots with a tree have stacks: "last" is the last of those, "all"
/// takes those only, and a number or the peak without one is refused.
int chooseSnapshots(const model::Profile &P, const std::string &Which,
                    SnapshotChoice &C) {
  if (P.lastDetailedIndex() == SIZE_MAX) {
    std::fprintf(stderr,
                 "ms_print: %s; collapsed and pprof need a snapshot with a "
                 "tree (heap_tree=detailed or peak)\n",
                 P.Snapshots.empty() ? "the profile has no snapshots"
                                     : "no snapshot in the profile has a "
                                       "tree");
    return 1;
  }
  if (Which == "all") {
    C.All = true;
    for (size_t I = 0; I < P.Snapshots.size(); ++I)
      if (P.Snapshots[I].detailed())
        C.Indexes.push_back(I);
    return 0;
  }
  size_t I = Which == "last" ? P.lastDetailedIndex() : P.findSnapshot(Which);
  if (I == SIZE_MAX) {
    std::fprintf(stderr,
                 "ms_print: no snapshot '%s' in the profile; "
                 "--snapshot= takes peak, last, all or a snapshot "
                 "number\n",
                 Which.c_str());
    return 1;
  }
  if (!P.Snapshots[I].detailed()) {
    std::fprintf(stderr,
                 "ms_print: snapshot %llu%s has no tree (heap_tree=empty); "
                 "--snapshot= takes peak, last (the last with a tree), all "
                 "or one of %s\n",
                 (unsigned long long)P.Snapshots[I].Number,
                 Which == "peak" ? " (the peak)" : "",
                 detailedNumbers(P).c_str());
    return 1;
  }
  C.Indexes.push_back(I);
  return 0;
}

/// Reads the site statistics for the profile P: the file --sites= names,
/// else the one beside the input, if any. 0 or an exit status.
int findSites(const ViewOptions &O, const model::Profile &P,
              model::SiteStats &S, bool &Found) {
  bool Named = !O.Sites.empty();
  std::string Path = Named ? O.Sites : model::sitesPathFor(O.Input);
  std::string Error;
  switch (model::findSites(Path, !Named, P, S, Error)) {
  case model::SitesLookup::Loaded:
    Found = true;
    return 0;
  case model::SitesLookup::Absent:
    if (O.Fmt != Format::Hotspots)
      return 0;
    if (Path.empty())
      std::fprintf(stderr,
                   "ms_print: --format=hotspots needs the site statistics; "
                   "the input is standard input: name them with "
                   "--sites=FILE\n");
    else
      std::fprintf(stderr,
                   "ms_print: no site statistics beside '%s' (no '%s'); "
                   "massif-native writes them beside each massif.out file, "
                   "Valgrind's Massif does not. --format=hotspots needs them "
                   "(--sites=FILE names them)\n",
                   O.Input.c_str(), Path.c_str());
    return 1;
  case model::SitesLookup::Bad:
    break;
  }
  std::fprintf(stderr, "ms_print: %s%s\n", Error.c_str(),
               O.Fmt == Format::Hotspots
                   ? ""
                   : " (--sites=none leaves the site statistics out)");
  return 1;
}

int runView(const ViewOptions &O) {
  OutputFile Out("ms_print");
  if (O.Fmt == Format::Text) {
    if (!Out.open(O.Output))
      return 1;
    std::vector<std::string> Args = O.ReportArgs;
    Args.push_back(O.Input);
    int Status = runMsPrint(Args, Out.fd());
    return Out.close() ? Status : 1;
  }
  // Everything that can refuse the input happens before the output file
  // is opened, so a refused run leaves an existing file as it was.
  model::Profile P;
  std::string Error;
  if (!model::loadProfile(O.Input, P, Error)) {
    std::fprintf(stderr, "ms_print: %s\n", Error.c_str());
    return 1;
  }
  SnapshotChoice Which;
  if (O.Fmt == Format::Collapsed || O.Fmt == Format::Pprof)
    if (int Status = chooseSnapshots(P, O.Snapshot, Which))
      return Status;
  model::SiteStats Sites;
  bool HaveSites = false;
  if ((O.Fmt == Format::Json || O.Fmt == Format::Html ||
       O.Fmt == Format::Hotspots) &&
      O.Sites != "none")
    if (int Status = findSites(O, P, Sites, HaveSites))
      return Status;
  if (!Out.open(O.Output))
    return 1;
  BufferSink Sink(Out.buffer());
  switch (O.Fmt) {
  case Format::Json:
    writeJson(P, Sink, HaveSites ? &Sites : nullptr);
    break;
  case Format::Html:
    writeHtml(P, Sink, HaveSites ? &Sites : nullptr);
    break;
  case Format::Hotspots:
    writeHotspots(P, Sites, O.Top, Sink);
    break;
  case Format::Collapsed:
    writeCollapsed(P, Which, Sink);
    break;
  case Format::Pprof:
    writePprof(P, Which, Sink);
    break;
  case Format::Text:
    break;
  }
  return Out.close() ? 0 : 1;
}

} // namespace

bool runViewCommand(const std::vector<std::string> &Args, int &Status) {
  bool View = false;
  for (const std::string &A : Args) {
    if (A == "--help" || A == "-h") {
      std::fputs(usageText().c_str(), stdout);
      Status = std::fflush(stdout) == 0 ? 0 : 1;
      return true;
    }
    if (A == "--version") {
      std::printf("ms_print (massif-native) %s\n"
                  "Its report is that of Valgrind %s's ms_print, byte for "
                  "byte.\n"
                  "massif-native is free software under the MIT licence.\n",
                  MASSIF_NATIVE_VERSION, ReferenceVersion);
      Status = std::fflush(stdout) == 0 ? 0 : 1;
      return true;
    }
    View |= isViewOption(A);
  }
  if (!View)
    return false;
  ViewOptions O;
  Status = parseViewOptions(Args, O);
  if (Status == 0)
    Status = runView(O);
  return true;
}

} // namespace msprint::views
