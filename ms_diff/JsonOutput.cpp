//===- JsonOutput.cpp - ms_diff's JSON object -----------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Version JsonVersion, documented in docs/VIEWS.md:
//
//   {"format": "massif-native-diff", "version": 1, "by": "site"|"function",
//    "files": {"a": {"path", "cmd", "desc", "time_unit"}, "b": {...}},
//    "moments": [{"moment": "peak"|"end",
//                 "a": {"snapshot", "heap_tree_peak", "tree_snapshot",
//                       "tree_offset", "tree_heap"},
//                 "b": {...},
//                 "totals": {"heap"|"extra_heap"|"stacks"|"total":
//                            {"a", "b", "delta", "percent"}},
//                 "locations": "totals_snapshots"|"same_offset"|
//                              "different_moments"|"no_tree",
//                 "rows": [{"change", "location", "frames", "a", "b",
//                           "delta", "percent"}] or null,
//                 "unchanged": n}],
//    "gate": null or {"limit", "kind": "percent"|"bytes", "allowed_bytes",
//                     "a", "b", "delta", "failed"},
//    "site_stats": null or {"a": {"path", "found"}, "b": {...},
//                           "compared": bool,
//                           "totals": null or {"calls"|"bytes"|"temporary"|
//                                              "temporary_bytes"|
//                                              "leaked_blocks"|
//                                              "leaked_bytes": CHANGE},
//                           "by_metric": null or {"calls"|"bytes"|
//                                                 "temporary"|"leaked_bytes":
//                                                 {"rows", "unchanged"}}},
//    "site_gates": [{"gate", "option", "limit", "kind", "allowed", "a",
//                    "b", "delta", "percent", "failed", "verdict"}],
//    "failed": any gate failed}
//
// site_stats, site_gates and failed came after the first files of
// version 1, as new members do (docs/VIEWS.md).
//
//===----------------------------------------------------------------------===//

#include "Output.h"

#include "JsonText.h"

#include <cstdio>

namespace msdiff {

using msprint::views::appendJsonMember;
using msprint::views::appendJsonString;
using msprint::views::appendNumber;

namespace {

void appendDelta(std::string &Out, uint64_t A, uint64_t B) {
  if (B < A) {
    Out += '-';
    appendNumber(Out, A - B);
  } else {
    appendNumber(Out, B - A);
  }
}

void appendPercent(std::string &Out, uint64_t A, uint64_t B) {
  double P;
  if (!deltaPercent(A, B, P)) {
    Out += "null";
    return;
  }
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%.2f", P);
  Out += Buf;
}

/// "a":A,"b":B,"delta":D,"percent":P
void appendChange(std::string &Out, uint64_t A, uint64_t B) {
  Out += "\"a\":";
  appendNumber(Out, A);
  appendJsonMember(Out, "b", B);
  Out += ",\"delta\":";
  appendDelta(Out, A, B);
  Out += ",\"percent\":";
  appendPercent(Out, A, B);
}

void appendFile(std::string &Out, const FileInfo &F) {
  Out += "{\"path\":";
  appendJsonString(Out, F.Path);
  appendJsonMember(Out, "cmd", F.Cmd);
  appendJsonMember(Out, "desc", F.Desc);
  appendJsonMember(Out, "time_unit", F.TimeUnit);
  Out += '}';
}

void appendSide(std::string &Out, const Side &S) {
  Out += "{\"snapshot\":";
  appendNumber(Out, S.Snapshot);
  Out += ",\"heap_tree_peak\":";
  Out += S.MarkedPeak ? "true" : "false";
  auto tree = [&](const char *Name, uint64_t V) {
    Out += ",\"";
    Out += Name;
    Out += "\":";
    if (S.HasTree)
      appendNumber(Out, V);
    else
      Out += "null";
  };
  tree("tree_snapshot", S.TreeSnapshot);
  tree("tree_offset", S.TreeOffset);
  tree("tree_heap", S.TreeHeap);
  Out += '}';
}

/// The rows, same ones only with --all; Unchanged counts those.
void appendRows(std::string &Out, const Report &R, const std::vector<Row> &Rows,
                size_t &Unchanged) {
  Out += '[';
  bool First = true;
  for (const Row &Row : Rows) {
    if (Row.Kind == Change::Same) {
      ++Unchanged;
      if (!R.ShowAll)
        continue;
    }
    Out += First ? "\n  {" : ",\n  {";
    First = false;
    Out += "\"change\":\"";
    Out += changeName(Row.Kind);
    Out += '"';
    appendJsonMember(Out, "location", Row.Location);
    Out += ",\"frames\":[";
    for (size_t I = 0; I < Row.Frames.size(); ++I) {
      if (I)
        Out += ',';
      appendJsonString(Out, Row.Frames[I]);
    }
    Out += "],";
    appendChange(Out, Row.A, Row.B);
    Out += '}';
  }
  Out += ']';
}

void appendMoment(std::string &Out, const Report &R, const Moment &M) {
  Out += "{\"moment\":";
  appendJsonString(Out, M.Name);
  Out += ",\"a\":";
  appendSide(Out, M.A);
  Out += ",\"b\":";
  appendSide(Out, M.B);
  Out += ",\n \"totals\":{";
  auto total = [&](const char *Name, uint64_t A, uint64_t B, bool Last) {
    Out += '"';
    Out += Name;
    Out += "\":{";
    appendChange(Out, A, B);
    Out += Last ? "}" : "},";
  };
  total("heap", M.A.T.Heap, M.B.T.Heap, false);
  total("extra_heap", M.A.T.Extra, M.B.T.Extra, false);
  total("stacks", M.A.T.Stacks, M.B.T.Stacks, false);
  total("total", M.A.T.total(), M.B.T.total(), true);
  Out += "},\n \"locations\":\"";
  Out += locationsName(M.From);
  Out += "\",\"rows\":";
  size_t Unchanged = 0;
  if (!M.HaveRows)
    Out += "null";
  else
    appendRows(Out, R, M.Rows, Unchanged);
  Out += ",\n \"unchanged\":";
  appendNumber(Out, Unchanged);
  Out += '}';
}

void appendSitesFile(std::string &Out, const SitesFile &F) {
  Out += "{\"path\":";
  if (F.Path.empty())
    Out += "null";
  else
    appendJsonString(Out, F.Path);
  Out += ",\"found\":";
  Out += F.Found ? "true" : "false";
  Out += '}';
}

void appendSiteStats(std::string &Out, const Report &R) {
  const SiteStatsDiff &D = R.C.Sites;
  Out += "{\"a\":";
  appendSitesFile(Out, D.A);
  Out += ",\"b\":";
  appendSitesFile(Out, D.B);
  Out += ",\"compared\":";
  Out += D.Compared ? "true" : "false";
  Out += ",\n \"totals\":";
  if (!D.Compared) {
    Out += "null,\n \"by_metric\":null}";
    return;
  }
  const msprint::model::SiteCounts &A = D.TotalA, &B = D.TotalB;
  struct {
    const char *Name;
    uint64_t A, B;
  } Totals[] = {{"calls", A.Calls, B.Calls},
                {"bytes", A.Bytes, B.Bytes},
                {"temporary", A.Temporary, B.Temporary},
                {"temporary_bytes", A.TemporaryBytes, B.TemporaryBytes},
                {"leaked_blocks", A.LeakedBlocks, B.LeakedBlocks},
                {"leaked_bytes", A.LeakedBytes, B.LeakedBytes}};
  Out += '{';
  for (size_t I = 0; I < std::size(Totals); ++I) {
    Out += I ? ",\"" : "\"";
    Out += Totals[I].Name;
    Out += "\":{";
    appendChange(Out, Totals[I].A, Totals[I].B);
    Out += '}';
  }
  Out += "},\n \"by_metric\":{";
  for (size_t M = 0; M < NumSiteMetrics; ++M) {
    Out += M ? ",\n  \"" : "\n  \"";
    Out += siteMetricName(SiteMetric(M));
    Out += "\":{\"rows\":";
    size_t Unchanged = 0;
    appendRows(Out, R, D.Rows[M], Unchanged);
    Out += ",\"unchanged\":";
    appendNumber(Out, Unchanged);
    Out += '}';
  }
  Out += "}}";
}

const char *siteGateName(SiteGateKind K) {
  switch (K) {
  case SiteGateKind::Calls:
    return "calls";
  case SiteGateKind::Temporary:
    return "temporary";
  case SiteGateKind::LeaksGrow:
    return "leaks_grow";
  case SiteGateKind::Leaks:
    break;
  }
  return "leaks";
}

void appendSiteGate(std::string &Out, const Report &R, const SiteGate &G) {
  Out += "{\"gate\":\"";
  Out += siteGateName(G.Kind);
  Out += '"';
  appendJsonMember(Out, "option", siteGateOption(G, false));
  Out += ",\"limit\":";
  bool Leaks = G.Kind == SiteGateKind::Leaks;
  if (Leaks)
    Out += "null";
  else
    appendJsonString(Out, G.Limit.Text);
  Out += ",\"kind\":";
  Out += Leaks                           ? "\"none\""
         : G.Limit.Percent               ? "\"percent\""
         : G.Kind == SiteGateKind::LeaksGrow ? "\"bytes\""
                                         : "\"count\"";
  appendJsonMember(Out, "allowed", G.Result.AllowedBytes);
  Out += ',';
  appendChange(Out, G.Result.A, G.Result.B);
  Out += ",\"failed\":";
  Out += G.Result.Failed ? "true" : "false";
  appendJsonMember(Out, "verdict", siteGateVerdict(R, G));
  Out += '}';
}

} // namespace

std::string renderJson(const Report &R) {
  std::string Out = "{\"format\":\"massif-native-diff\",\"version\":";
  appendNumber(Out, JsonVersion);
  Out += ",\"by\":";
  Out += R.C.By == GroupBy::Site ? "\"site\"" : "\"function\"";
  Out += ",\n\"files\":{\"a\":";
  appendFile(Out, R.A);
  Out += ",\n         \"b\":";
  appendFile(Out, R.B);
  Out += "},\n\"moments\":[";
  for (size_t I = 0; I < R.C.Moments.size(); ++I) {
    Out += I ? ",\n" : "\n";
    appendMoment(Out, R, R.C.Moments[I]);
  }
  Out += "],\n\"gate\":";
  if (!R.HasGate) {
    Out += "null";
  } else {
    const GateResult &G = R.Gate;
    Out += "{\"limit\":";
    appendJsonString(Out, R.Limit.Text);
    Out += ",\"kind\":";
    Out += R.Limit.Percent ? "\"percent\"" : "\"bytes\"";
    appendJsonMember(Out, "allowed_bytes", G.AllowedBytes);
    Out += ',';
    appendChange(Out, G.A, G.B);
    Out += ",\"failed\":";
    Out += G.Failed ? "true" : "false";
    appendJsonMember(Out, "verdict", gateVerdict(R));
    Out += '}';
  }
  Out += ",\n\"site_stats\":";
  if (R.C.HasSites)
    appendSiteStats(Out, R);
  else
    Out += "null";
  Out += ",\n\"site_gates\":[";
  for (size_t I = 0; I < R.SiteGates.size(); ++I) {
    Out += I ? ",\n" : "\n";
    appendSiteGate(Out, R, R.SiteGates[I]);
  }
  Out += "],\n\"failed\":";
  Out += R.failed() ? "true" : "false";
  Out += "}\n";
  return Out;
}

} // namespace msdiff
