//===- main.cpp - ms_diff: two massif.out files compared ------------------===//
//
// Part of massif-native, under the MIT licence.
//
//   ms_diff [options] A B
//
// Compares the profile B (the new run) with A (the base) at the peak and
// at the end: totals, and bytes by allocation site or by function (see
// Diff.h); and over the run heaptrack's figures, from the site statistics
// beside each file when there are some. --fail-if-peak-grows= and the
// gates on the site statistics make it a regression gate (Gate.h).
// Exit status: 0, or 1 when a gate failed, or 2 for a bad command line,
// an input that cannot be read or is not a massif.out file (or site
// statistics file), site statistics a gate needs and does not have, or an
// output that cannot be written.
//
//===----------------------------------------------------------------------===//

#include "Diff.h"
#include "Gate.h"
#include "Output.h"

#include "OutputFile.h"
#include "Profile.h"
#include "Sites.h"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

using namespace msdiff;

namespace {

constexpr int ExitGateFailed = 1;
constexpr int ExitError = 2;

const char *const UsageText =
    "usage: ms_diff [options] A B\n"
    "\n"
    "Compares two massif.out files (massif-native's or Valgrind's): A the\n"
    "base, B the new run. At the peak (the heap_tree=peak snapshot) and at\n"
    "the end (the last snapshot, locations from the last detailed one) it\n"
    "prints the totals (heap, extra-heap, stacks, total) of both, their\n"
    "difference in bytes and percent, and the bytes by allocation site: each\n"
    "caller of malloc/new, named without its address so two builds match;\n"
    "rows grew, shrank, new, gone. At the end, sites are compared only when\n"
    "both files' last detailed snapshots are as far before their ends.\n"
    "Over the run, when both files have site statistics beside them\n"
    "(massif.out.PID -> massif.sites.PID, NAME -> NAME.sites), it compares\n"
    "heaptrack's figures: calls, bytes asked for, temporary allocations and\n"
    "leaks, in all and by site.\n"
    "\n"
    "  --format=text|json        aligned text (default) or a JSON object\n"
    "  --by=site|function        rows by allocation site (default) or by\n"
    "                            function (inclusive bytes, once per path)\n"
    "  --all                     show the unchanged rows too\n"
    "  --fail-if-peak-grows=N%   exit 1 when B's peak total exceeds A's by\n"
    "  --fail-if-peak-grows=N    more than N percent of A's, or N bytes\n"
    "                            (units B, KiB, MiB, GiB, kB, MB, GB)\n"
    "  --fail-if-calls-grow=N%   exit 1 when B's allocation calls exceed A's\n"
    "  --fail-if-calls-grow=N    by more than N percent of A's, or N calls\n"
    "  --fail-if-temporary-grows=N% or =N\n"
    "                            the same for temporary allocations\n"
    "  --fail-if-leaks-grow=N% or =N\n"
    "                            the same for leaked bytes (units as above)\n"
    "  --fail-if-leaks           exit 1 when B leaked any block (still live\n"
    "                            at the end), whatever A did\n"
    "  -o FILE, --output=FILE    write to FILE instead of standard output\n"
    "  --help, --version\n"
    "\n"
    "The site statistics gates need them beside both files (--fail-if-leaks:\n"
    "beside B).\n"
    "\n"
    "Exit status: 0; 1 when a gate failed (the peak, the calls, ... grew more\n"
    "than allowed); 2 for a bad command line, an unreadable or malformed\n"
    "input, missing site statistics a gate needs, or an output that cannot\n"
    "be written.\n";

int usageError(const std::string &Message) {
  std::fprintf(stderr, "ms_diff: %s\nTry 'ms_diff --help' for more.\n",
               Message.c_str());
  return ExitError;
}

bool startsWith(std::string_view S, std::string_view P) {
  return S.substr(0, P.size()) == P;
}

struct Options {
  bool Json = false;
  GroupBy By = GroupBy::Site;
  bool ShowAll = false;
  bool HasGate = false;
  GateLimit Limit;
  /// The site statistics gates given, by SiteGateKind.
  bool HasSiteGate[4] = {};
  GateLimit SiteLimit[4];
  std::string Output;
  std::vector<std::string> Inputs;
};

/// Parses Args into O; returns 0, or an exit status (help and version
/// return -1 after printing).
int parseOptions(const std::vector<std::string> &Args, Options &O) {
  bool OptionsDone = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    std::string_view A = Args[I];
    if (OptionsDone || A.empty() || A[0] != '-' || A == "-") {
      O.Inputs.push_back(std::string(A));
    } else if (A == "--") {
      OptionsDone = true;
    } else if (A == "--help" || A == "-h") {
      std::fputs(UsageText, stdout);
      return -1;
    } else if (A == "--version") {
      std::printf("ms_diff (massif-native) %s\n"
                  "massif-native is free software under the MIT licence.\n",
                  MASSIF_NATIVE_VERSION);
      return -1;
    } else if (startsWith(A, "--format=")) {
      std::string_view V = A.substr(9);
      if (V == "text")
        O.Json = false;
      else if (V == "json")
        O.Json = true;
      else
        return usageError("unknown format '" + std::string(V) +
                          "'; expected text or json");
    } else if (startsWith(A, "--by=")) {
      std::string_view V = A.substr(5);
      if (V == "site")
        O.By = GroupBy::Site;
      else if (V == "function")
        O.By = GroupBy::Function;
      else
        return usageError("unknown grouping '" + std::string(V) +
                          "'; expected --by=site or --by=function");
    } else if (A == "--all") {
      O.ShowAll = true;
    } else if (startsWith(A, "--fail-if-peak-grows=")) {
      std::string Error;
      if (!parseGateLimit(A.substr(21), O.Limit, Error))
        return usageError(Error);
      O.HasGate = true;
    } else if (A == "--fail-if-leaks") {
      O.HasSiteGate[int(SiteGateKind::Leaks)] = true;
    } else if (startsWith(A, "--fail-if-calls-grow=") ||
               startsWith(A, "--fail-if-temporary-grows=") ||
               startsWith(A, "--fail-if-leaks-grow=")) {
      size_t Eq = A.find('=') + 1;
      SiteGateKind K = startsWith(A, "--fail-if-calls")       ? SiteGateKind::Calls
                       : startsWith(A, "--fail-if-temporary") ? SiteGateKind::Temporary
                                                              : SiteGateKind::LeaksGrow;
      std::string Error;
      if (!parseGateLimit(A.substr(0, Eq), A.substr(Eq),
                          K == SiteGateKind::LeaksGrow ? LimitUnits::Bytes
                                                       : LimitUnits::Count,
                          O.SiteLimit[int(K)], Error))
        return usageError(Error);
      O.HasSiteGate[int(K)] = true;
    } else if (A == "-o") {
      if (I + 1 == Args.size())
        return usageError("-o needs a file name");
      O.Output = Args[++I];
      if (O.Output.empty())
        return usageError("-o needs a file name");
    } else if (startsWith(A, "--output=")) {
      O.Output = std::string(A.substr(9));
      if (O.Output.empty())
        return usageError("--output= needs a file name");
    } else {
      return usageError("unknown option '" + std::string(A) + "'");
    }
  }
  if (O.Inputs.size() != 2)
    return usageError(O.Inputs.size() < 2
                          ? "two massif.out files are needed, A and B"
                          : "more than two input files");
  if (O.Inputs[0] == "-" && O.Inputs[1] == "-")
    return usageError("A and B cannot both be standard input");
  return 0;
}

/// Loads Path; returns 0 or an exit status after a message.
int load(const std::string &Path, msprint::model::Profile &P, FileInfo &F) {
  std::string Error;
  if (!msprint::model::loadProfile(Path, P, Error)) {
    std::fprintf(stderr, "ms_diff: %s\n", Error.c_str());
    return ExitError;
  }
  if (P.Snapshots.empty()) {
    std::fprintf(stderr, "ms_diff: %s: the profile has no snapshots\n",
                 Path.c_str());
    return ExitError;
  }
  F.Path = Path;
  F.Cmd = P.Cmd;
  F.Desc = P.Desc;
  F.TimeUnit = P.TimeUnit;
  return 0;
}

/// Reads the site statistics beside the profile at Path, if any; into S
/// (Found) or not. 0 or an exit status after a message.
int loadSites(const std::string &Path, const msprint::model::Profile &P,
              msprint::model::SiteStats &S, SitesFile &F) {
  F.Path = msprint::model::sitesPathFor(Path);
  std::string Error;
  switch (msprint::model::findSites(F.Path, true, P, S, Error)) {
  case msprint::model::SitesLookup::Absent:
    return 0;
  case msprint::model::SitesLookup::Loaded:
    F.Found = true;
    return 0;
  case msprint::model::SitesLookup::Bad:
    break;
  }
  std::fprintf(stderr, "ms_diff: %s\n", Error.c_str());
  return ExitError;
}

/// Applies the site statistics gates of O; 0 or an exit status after a
/// message (a gate without the site statistics it needs).
int applySiteGates(const Options &O, Report &R) {
  const SiteStatsDiff &D = R.C.Sites;
  for (int K = 0; K < 4; ++K) {
    if (!O.HasSiteGate[K])
      continue;
    SiteGate G;
    G.Kind = SiteGateKind(K);
    G.Limit = O.SiteLimit[K];
    const char *Side = nullptr;
    const SitesFile *Missing = nullptr;
    if (!D.B.Found)
      Side = "B", Missing = &D.B;
    else if (G.Kind != SiteGateKind::Leaks && !D.A.Found)
      Side = "A", Missing = &D.A;
    if (Missing) {
      std::fprintf(stderr,
                   "ms_diff: %s needs the site statistics of %s; %s has "
                   "none (%s%s)\n",
                   siteGateOption(G, false).c_str(),
                   G.Kind == SiteGateKind::Leaks ? "B" : "both files", Side,
                   Missing->Path.empty() ? "it is standard input" : "no ",
                   Missing->Path.c_str());
      return ExitError;
    }
    switch (G.Kind) {
    case SiteGateKind::Calls:
      G.Result = applyGate(G.Limit, D.TotalA.Calls, D.TotalB.Calls);
      break;
    case SiteGateKind::Temporary:
      G.Result = applyGate(G.Limit, D.TotalA.Temporary, D.TotalB.Temporary);
      break;
    case SiteGateKind::LeaksGrow:
      G.Result =
          applyGate(G.Limit, D.TotalA.LeakedBytes, D.TotalB.LeakedBytes);
      break;
    case SiteGateKind::Leaks:
      G.Result.A = D.A.Found ? D.TotalA.LeakedBlocks : 0;
      G.Result.B = D.TotalB.LeakedBlocks;
      G.Result.Failed = G.Result.B > 0;
      break;
    }
    R.SiteGates.push_back(G);
  }
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  if (int Status = parseOptions({Argv + 1, Argv + Argc}, O))
    return Status < 0 ? (std::fflush(stdout) == 0 ? 0 : ExitError) : Status;

  msprint::model::Profile A, B;
  Report R;
  if (int Status = load(O.Inputs[0], A, R.A))
    return Status;
  if (int Status = load(O.Inputs[1], B, R.B))
    return Status;

  msprint::model::SiteStats SitesA, SitesB;
  SitesFile FileA, FileB;
  if (int Status = loadSites(O.Inputs[0], A, SitesA, FileA))
    return Status;
  if (int Status = loadSites(O.Inputs[1], B, SitesB, FileB))
    return Status;

  R.C = compare(A, B, O.By);
  R.C.HasSites = FileA.Found || FileB.Found;
  R.C.Sites = compareSites(FileA.Found ? &SitesA : nullptr,
                           FileB.Found ? &SitesB : nullptr, O.By);
  R.C.Sites.A = FileA;
  R.C.Sites.B = FileB;
  R.ShowAll = O.ShowAll;
  R.HasGate = O.HasGate;
  if (R.HasGate) {
    R.Limit = O.Limit;
    const Moment &Peak = R.C.Moments.front();
    R.Gate = applyGate(O.Limit, Peak.A.T.total(), Peak.B.T.total());
  }
  if (int Status = applySiteGates(O, R))
    return Status;

  msprint::OutputFile Out("ms_diff");
  if (!Out.open(O.Output))
    return ExitError;
  Out.buffer().append(O.Json ? renderJson(R) : renderText(R));
  if (!Out.close())
    return ExitError;
  // The verdicts are the text report's last lines; elsewhere a failed
  // one also goes to standard error, so that a failing gate says why on
  // the console.
  if (O.Json || !O.Output.empty()) {
    if (R.HasGate && R.Gate.Failed)
      std::fprintf(stderr, "ms_diff: %s\n", gateVerdict(R).c_str());
    for (const SiteGate &G : R.SiteGates)
      if (G.Result.Failed)
        std::fprintf(stderr, "ms_diff: %s\n", siteGateVerdict(R, G).c_str());
  }
  return R.failed() ? ExitGateFailed : 0;
}
