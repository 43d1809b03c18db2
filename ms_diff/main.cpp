//===- main.cpp - ms_diff: two massif.out files compared ------------------===//
//
// Part of massif-native, under the MIT licence.
//
//   ms_diff [options] A B
//
// Compares the profile B (the new run) with A (the base) at the peak and
// at the end: totals, and bytes by allocation site or by function (see
// Diff.h). --fail-if-peak-grows= makes it a regression gate (Gate.h).
// Exit status: 0, or 1 when the gate failed, or 2 for a bad command line,
// an input that cannot be read or is not a massif.out file, or an output
// that cannot be written.
//
//===----------------------------------------------------------------------===//

#include "Diff.h"
#include "Gate.h"
#include "Output.h"

#include "OutputFile.h"
#include "Profile.h"

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
    "\n"
    "  --format=text|json        aligned text (default) or a JSON object\n"
    "  --by=site|function        rows by allocation site (default) or by\n"
    "                            function (inclusive bytes, once per path)\n"
    "  --all                     show the unchanged rows too\n"
    "  --fail-if-peak-grows=N%   exit 1 when B's peak total exceeds A's by\n"
    "  --fail-if-peak-grows=N    more than N percent of A's, or N bytes\n"
    "                            (units B, KiB, MiB, GiB, kB, MB, GB)\n"
    "  -o FILE, --output=FILE    write to FILE instead of standard output\n"
    "  --help, --version\n"
    "\n"
    "Exit status: 0; 1 when the peak grew more than --fail-if-peak-grows=\n"
    "allows; 2 for a bad command line, an unreadable or malformed input, or\n"
    "an output that cannot be written.\n";

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

  R.C = compare(A, B, O.By);
  R.ShowAll = O.ShowAll;
  R.HasGate = O.HasGate;
  if (R.HasGate) {
    R.Limit = O.Limit;
    const Moment &Peak = R.C.Moments.front();
    R.Gate = applyGate(O.Limit, Peak.A.T.total(), Peak.B.T.total());
  }

  msprint::OutputFile Out("ms_diff");
  if (!Out.open(O.Output))
    return ExitError;
  Out.buffer().append(O.Json ? renderJson(R) : renderText(R));
  if (!Out.close())
    return ExitError;
  // The verdict is the text report's last line; elsewhere it also goes to
  // standard error, so that a failing gate says why on the console.
  if (R.HasGate && R.Gate.Failed && (O.Json || !O.Output.empty()))
    std::fprintf(stderr, "ms_diff: %s\n", gateVerdict(R).c_str());
  return R.HasGate && R.Gate.Failed ? ExitGateFailed : 0;
}
