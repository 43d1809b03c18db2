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
//                     "a", "b", "delta", "failed"}}
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
  if (!M.HaveRows) {
    Out += "null";
  } else {
    Out += '[';
    bool First = true;
    for (const Row &Row : M.Rows) {
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
  Out += ",\n \"unchanged\":";
  appendNumber(Out, Unchanged);
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
  Out += "}\n";
  return Out;
}

} // namespace msdiff
