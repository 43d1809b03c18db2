//===- TextOutput.cpp - ms_diff's text report -----------------------------===//
//
// Part of massif-native, under the MIT licence.
//
//   A (base): base.out
//             cmd: ./base
//   B (new):  new.out
//             cmd: ./new
//   Sites: the callers of the allocation functions, without addresses.
//
//   At the peak: A snapshot 6, B snapshot 6
//                      A       B   Delta   Delta%
//     heap        18,432  22,016  +3,584  +19.44%
//     ...
//     change      A      B   Delta    Delta%  site
//     grew    4,096  8,192  +4,096  +100.00%  grow_site (sites.c:35)
//     ...
//
//   At the end: ...
//     Sites not compared: A's come from snapshot 3, 2 snapshots before
//     its last (heap 5,500); B's from ... (when the trees are at
//     different moments; see Diff.h)
//   FAIL: the peak total grew by ... (with --fail-if-peak-grows=)
//
// Byte counts are commified as ms_print does; numbers are right-aligned
// in columns as wide as their widest cell.
//
//===----------------------------------------------------------------------===//

#include "Output.h"

#include "PerlFormat.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace msdiff {

namespace {

/// Rows of cells: the first column left-aligned, the others right-aligned
/// (or the last written as is, when LastIsText).
class Table {
public:
  void add(std::vector<std::string> Cells) { Rows.push_back(std::move(Cells)); }

  void render(std::string &Out, const char *Indent) const {
    std::vector<size_t> Width;
    for (const auto &R : Rows)
      for (size_t I = 0; I < R.size(); ++I) {
        if (Width.size() <= I)
          Width.push_back(0);
        Width[I] = std::max(Width[I], R[I].size());
      }
    for (const auto &R : Rows) {
      std::string Line = Indent;
      for (size_t I = 0; I < R.size(); ++I) {
        if (I)
          Line += "  ";
        if (I + 1 == R.size() && LastIsText) {
          Line += R[I];
        } else if (I == 0) {
          Line += R[I];
          Line.append(Width[I] - R[I].size(), ' ');
        } else {
          msprint::appendRightAligned(Line, R[I], Width[I]);
        }
      }
      while (Line.size() > 0 && Line.back() == ' ')
        Line.pop_back();
      Out += Line;
      Out += '\n';
    }
  }

  /// The last column is free text (a location), not padded.
  bool LastIsText = false;

private:
  std::vector<std::vector<std::string>> Rows;
};

std::string sideText(const Side &S, bool IsPeak) {
  std::string T = "snapshot " + std::to_string(S.Snapshot);
  std::string Notes;
  auto note = [&](const std::string &N) {
    Notes += Notes.empty() ? " (" : "; ";
    Notes += N;
  };
  if (IsPeak && !S.MarkedPeak)
    note("the largest total, none is heap_tree=peak");
  if (!S.HasTree)
    note("no detailed snapshot");
  else if (S.TreeSnapshot != S.Snapshot)
    note("locations from snapshot " + std::to_string(S.TreeSnapshot));
  return Notes.empty() ? T : T + Notes + ")";
}

/// "site" -> "Site".
std::string capitalized(std::string S) {
  if (!S.empty() && S[0] >= 'a' && S[0] <= 'z')
    S[0] = char(S[0] - 'a' + 'A');
  return S;
}

/// "1 snapshot before", "3 snapshots before".
std::string snapshotsBefore(uint64_t N) {
  return std::to_string(N) +
         (N == 1 ? " snapshot before" : " snapshots before");
}

/// Where a side's tree is: "snapshot 45, 3 snapshots before its last
/// (heap 5,500)" or "snapshot 48, its last (heap 500)".
std::string treeText(const Side &S, bool IsPeak) {
  std::string T = "snapshot " + std::to_string(S.TreeSnapshot) + ", ";
  if (S.TreeOffset)
    T += snapshotsBefore(S.TreeOffset) + " ";
  T += IsPeak ? "its peak" : "its last";
  return T + " (heap " + commified(S.TreeHeap) + ")";
}

/// Says where the locations come from when they are not simply the
/// totals' snapshots; false when they are not compared (the moment ends
/// there).
bool locationsNote(std::string &Out, const Moment &M, const char *What,
                   bool IsPeak) {
  switch (M.From) {
  case Locations::TotalsSnapshots:
    return true;
  case Locations::SameOffset:
    Out += "  " + capitalized(What) + "s from the trees " +
           snapshotsBefore(M.A.TreeOffset) +
           (IsPeak ? " the peak" : " the last") + " of each file: A snapshot " +
           std::to_string(M.A.TreeSnapshot) + " (heap " +
           commified(M.A.TreeHeap) + "), B snapshot " +
           std::to_string(M.B.TreeSnapshot) + " (heap " +
           commified(M.B.TreeHeap) + ").\n";
    return true;
  case Locations::DifferentMoments:
    Out += "  " + capitalized(What) + "s not compared: A's come from " +
           treeText(M.A, IsPeak) + "; B's from " + treeText(M.B, IsPeak) +
           ".\n  Trees taken at different moments do not compare "
           "(--detailed-freq=1 gives every snapshot a tree).\n\n";
    return false;
  case Locations::NoTree:
    break;
  }
  Out += "  Locations not compared: ";
  Out += !M.A.HasTree && !M.B.HasTree ? "neither file has a"
         : !M.A.HasTree               ? "A has no"
                                      : "B has no";
  Out += " detailed snapshot here.\n\n";
  return false;
}

void renderMoment(std::string &Out, const Report &R, const Moment &M) {
  bool IsPeak = M.Name == "peak";
  Out += IsPeak ? "At the peak: " : "At the end: ";
  Out += "A " + sideText(M.A, IsPeak) + ", B " + sideText(M.B, IsPeak) + "\n";

  Table Totals;
  Totals.add({"", "A", "B", "Delta", "Delta%"});
  auto line = [&](const char *Name, uint64_t A, uint64_t B) {
    Totals.add({Name, commified(A), commified(B), signedCommified(A, B),
                percentText(A, B)});
  };
  line("heap", M.A.T.Heap, M.B.T.Heap);
  line("extra-heap", M.A.T.Extra, M.B.T.Extra);
  line("stacks", M.A.T.Stacks, M.B.T.Stacks);
  line("total", M.A.T.total(), M.B.T.total());
  Totals.render(Out, "  ");
  Out += '\n';

  const char *What = R.C.By == GroupBy::Site ? "site" : "function";
  if (!locationsNote(Out, M, What, IsPeak))
    return;
  Table Rows;
  Rows.LastIsText = true;
  Rows.add({"change", "A", "B", "Delta", "Delta%", What});
  size_t Shown = 0, Hidden = 0;
  for (const Row &Row : M.Rows) {
    if (Row.Kind == Change::Same && !R.ShowAll) {
      ++Hidden;
      continue;
    }
    ++Shown;
    Rows.add({changeName(Row.Kind), commified(Row.A), commified(Row.B),
              signedCommified(Row.A, Row.B), percentText(Row.A, Row.B),
              Row.Location});
  }
  if (Shown)
    Rows.render(Out, "  ");
  std::string Count = std::to_string(Hidden);
  if (Hidden && Shown)
    Out += "  (" + Count + " unchanged " + What + (Hidden == 1 ? "" : "s") +
           " not shown; --all shows them)\n";
  else if (Hidden)
    Out += "  No " + std::string(What) + " changed (" + Count +
           " unchanged; --all shows them).\n";
  else if (!Shown)
    Out += "  No allocation " + std::string(What) + " on either side.\n";
  Out += '\n';
}

} // namespace

std::string commified(uint64_t V) {
  return msprint::commify(std::to_string(V));
}

std::string signedCommified(uint64_t A, uint64_t B) {
  if (A == B)
    return "0";
  return (B > A ? "+" : "-") + commified(B > A ? B - A : A - B);
}

std::string percentText(uint64_t A, uint64_t B) {
  double P;
  if (!deltaPercent(A, B, P))
    return "n/a";
  if (A == B)
    return "0.00%";
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%+.2f%%", P);
  return Buf;
}

std::string gateVerdict(const Report &R) {
  const GateResult &G = R.Gate;
  std::string S = G.Failed ? "FAIL: the peak total " : "PASS: the peak total ";
  if (G.A == G.B) {
    S += "did not change (" + commified(G.A) + " bytes)";
  } else {
    S += G.B > G.A ? "grew by " : "shrank by ";
    S += commified(G.B > G.A ? G.B - G.A : G.A - G.B) + " bytes";
    std::string P = percentText(G.A, G.B);
    if (P != "n/a")
      S += " (" + P + ")";
    S += ", from " + commified(G.A) + " to " + commified(G.B);
  }
  S += "; --fail-if-peak-grows=" + R.Limit.Text + " allows growth up to " +
       commified(G.AllowedBytes) + " bytes";
  return S;
}

std::string renderText(const Report &R) {
  std::string Out;
  Out += "A (base): " + R.A.Path + "\n          cmd: " + R.A.Cmd + "\n";
  Out += "B (new):  " + R.B.Path + "\n          cmd: " + R.B.Cmd + "\n";
  Out += R.C.By == GroupBy::Site
             ? "Sites: the callers of the allocation functions, without "
               "addresses.\n\n"
             : "Functions: inclusive bytes, counted once per path.\n\n";
  for (const Moment &M : R.C.Moments)
    renderMoment(Out, R, M);
  if (R.HasGate)
    Out += gateVerdict(R) + "\n";
  return Out;
}

} // namespace msdiff
