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
//
//   Over the run, from the site statistics: A base.out.sites, B new.out.sites
//                           A     B  Delta   Delta%
//     calls                12    13     +1   +8.33%
//     ...
//     Calls by site:
//     change  A   B  Delta   Delta%  site
//     grew    1   2     +1  +100.00%  grow_site (sites.c:35)
//     ... bytes asked for, temporary allocations, leaked bytes by site
//     (when either file has site statistics beside it)
//   FAIL: the peak total grew by ... (with --fail-if-peak-grows=)
//   PASS: calls to allocation functions ... (with --fail-if-calls-grow=,
//   and so for each gate given)
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

/// The rows' table (same rows only with --all), then how many were
/// hidden; None when there are no rows at all.
void renderRows(std::string &Out, const Report &R, const std::vector<Row> &All,
                const char *What, const std::string &None) {
  Table Rows;
  Rows.LastIsText = true;
  Rows.add({"change", "A", "B", "Delta", "Delta%", What});
  size_t Shown = 0, Hidden = 0;
  for (const Row &Row : All) {
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
    Out += "  " + None + "\n";
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
  renderRows(Out, R, M.Rows, What, "No allocation " + std::string(What) +
                                       " on either side.");
  Out += '\n';
}

/// What the site statistics compare per location, as the text names it.
const char *const MetricTitles[NumSiteMetrics] = {
    "Calls", "Bytes asked for", "Temporary allocations", "Leaked bytes"};

std::string sitesFileText(const SitesFile &F) {
  return F.Path.empty() ? std::string("standard input") : F.Path;
}

void renderSites(std::string &Out, const Report &R) {
  const SiteStatsDiff &D = R.C.Sites;
  if (!D.Compared) {
    const SitesFile &Has = D.A.Found ? D.A : D.B;
    const SitesFile &Lacks = D.A.Found ? D.B : D.A;
    Out += std::string("Over the run: only ") + (D.A.Found ? "A" : "B") +
           " has site statistics (" + sitesFileText(Has) + "); " +
           (D.A.Found ? "B" : "A") + " has none (" +
           (Lacks.Path.empty() ? std::string("it is standard input")
                               : "no " + Lacks.Path) +
           "): not compared.\n\n";
    return;
  }
  Out += "Over the run, from the site statistics: A " + sitesFileText(D.A) +
         ", B " + sitesFileText(D.B) + "\n";
  Table Totals;
  Totals.add({"", "A", "B", "Delta", "Delta%"});
  auto line = [&](const char *Name, uint64_t A, uint64_t B) {
    Totals.add({Name, commified(A), commified(B), signedCommified(A, B),
                percentText(A, B)});
  };
  const msprint::model::SiteCounts &A = D.TotalA, &B = D.TotalB;
  line("calls", A.Calls, B.Calls);
  line("bytes asked for", A.Bytes, B.Bytes);
  line("temporary", A.Temporary, B.Temporary);
  line("temporary bytes", A.TemporaryBytes, B.TemporaryBytes);
  line("leaked blocks", A.LeakedBlocks, B.LeakedBlocks);
  line("leaked bytes", A.LeakedBytes, B.LeakedBytes);
  Totals.render(Out, "  ");
  const char *What = R.C.By == GroupBy::Site ? "site" : "function";
  for (size_t M = 0; M < NumSiteMetrics; ++M) {
    Out += "\n  " + std::string(MetricTitles[M]) + " by " + What + ":\n";
    renderRows(Out, R, D.Rows[M], What,
               std::string("None on either side."));
  }
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

std::string siteGateOption(const SiteGate &G, bool WithLimit) {
  const char *Name = "--fail-if-leaks";
  switch (G.Kind) {
  case SiteGateKind::Calls:
    Name = "--fail-if-calls-grow=";
    break;
  case SiteGateKind::Temporary:
    Name = "--fail-if-temporary-grows=";
    break;
  case SiteGateKind::LeaksGrow:
    Name = "--fail-if-leaks-grow=";
    break;
  case SiteGateKind::Leaks:
    return Name;
  }
  return WithLimit ? Name + G.Limit.Text : std::string(Name);
}

std::string siteGateVerdict(const Report &R, const SiteGate &G) {
  const GateResult &Res = G.Result;
  std::string S = Res.Failed ? "FAIL: " : "PASS: ";
  if (G.Kind == SiteGateKind::Leaks) {
    const msprint::model::SiteCounts &B = R.C.Sites.TotalB;
    if (B.LeakedBlocks == 0)
      S += "B leaked no block";
    else
      S += "B leaked " + commified(B.LeakedBytes) +
           (B.LeakedBytes == 1 ? " byte in " : " bytes in ") +
           commified(B.LeakedBlocks) +
           (B.LeakedBlocks == 1 ? " block" : " blocks");
    return S + "; --fail-if-leaks allows no leaked block";
  }
  const char *What = G.Kind == SiteGateKind::Calls ? "calls to allocation functions"
                     : G.Kind == SiteGateKind::Temporary
                         ? "temporary allocations"
                         : "leaked bytes";
  const char *Unit = G.Kind == SiteGateKind::LeaksGrow ? " bytes" : "";
  S += What;
  if (Res.A == Res.B) {
    S += " did not change (" + commified(Res.A) + Unit + ")";
  } else {
    S += Res.B > Res.A ? " grew by " : " shrank by ";
    S += commified(Res.B > Res.A ? Res.B - Res.A : Res.A - Res.B) + Unit;
    std::string P = percentText(Res.A, Res.B);
    if (P != "n/a")
      S += " (" + P + ")";
    S += ", from " + commified(Res.A) + " to " + commified(Res.B);
  }
  S += "; " + siteGateOption(G, true) + " allows growth up to " +
       commified(Res.AllowedBytes);
  if (G.Kind == SiteGateKind::Calls)
    return S + (Res.AllowedBytes == 1 ? " call" : " calls");
  if (G.Kind == SiteGateKind::Temporary)
    return S + (Res.AllowedBytes == 1 ? " temporary allocation"
                                      : " temporary allocations");
  return S + Unit;
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
  if (R.C.HasSites)
    renderSites(Out, R);
  if (R.HasGate)
    Out += gateVerdict(R) + "\n";
  for (const SiteGate &G : R.SiteGates)
    Out += siteGateVerdict(R, G) + "\n";
  return Out;
}

} // namespace msdiff
