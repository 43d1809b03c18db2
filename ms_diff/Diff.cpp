//===- Diff.cpp - The comparison of two massif.out files ------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Each side's bytes by location are gathered into a map from the key to
// the bytes (and a site's frames), then the two maps are merged into rows;
// so are the site statistics' figures, one metric at a time.
//
//===----------------------------------------------------------------------===//

#include "Diff.h"

#include "Sites.h"
#include "StackWalk.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace msdiff {

using namespace msprint::model;

namespace {

constexpr const char *InlinedInto = " inlined into ";

struct Bytes {
  uint64_t Value = 0;
  std::vector<std::string> Frames;
};

using ByLocation = std::map<std::string, Bytes>;

/// True when node I has exactly one child.
bool hasOneChild(const Snapshot &S, uint32_t I) {
  return I + 1 < S.Nodes[I].End && S.Nodes[I + 1].End == S.Nodes[I].End;
}

/// Adds the sites of S's tree: the root's children, an inlined chain
/// (nodes with the same address, each the only child of the previous)
/// being one site.
void gatherSites(const Snapshot &S, ByLocation &Out) {
  if (S.Nodes.empty())
    return;
  S.forEachChild(0, [&](uint32_t C) {
    FrameText F = parseFrameText(S.Nodes[C].Text);
    std::vector<std::string> Frames;
    if (F.Kind == FrameKind::Insignificant) {
      Frames.push_back(msprint::views::BelowThresholdFrame);
    } else {
      Frames.push_back(F.location());
      uint32_t I = C;
      while (!F.Address.empty() && hasOneChild(S, I)) {
        FrameText Next = parseFrameText(S.Nodes[I + 1].Text);
        if (Next.Kind != FrameKind::Code || Next.Address != F.Address)
          break;
        Frames.push_back(Next.location());
        ++I;
      }
    }
    std::string Key = Frames.front();
    for (size_t K = 1; K < Frames.size(); ++K)
      Key += InlinedInto + Frames[K];
    Bytes &B = Out[Key];
    B.Value += S.Nodes[C].Bytes;
    if (B.Frames.empty())
      B.Frames = std::move(Frames);
  });
}

/// "f (file.c)", "f (in obj.so)" or "f": a function without its line.
std::string functionKey(const FrameText &F) {
  std::string S(F.Function);
  if (!F.File.empty()) {
    S += " (";
    S += F.File;
    S += ')';
  } else if (!F.Object.empty()) {
    S += " (in ";
    S += F.Object;
    S += ')';
  }
  return S;
}

/// Adds each function's inclusive bytes, counted at its outermost
/// appearance on each path.
void gatherFunctions(const Snapshot &S, ByLocation &Out) {
  // The open nodes (their subtree's end and key), innermost last, and how
  // many times each key is open.
  std::vector<std::pair<uint32_t, std::string>> Open;
  std::unordered_map<std::string, uint32_t> OnPath;
  for (uint32_t I = 0; I < S.Nodes.size(); ++I) {
    while (!Open.empty() && Open.back().first <= I) {
      --OnPath[Open.back().second];
      Open.pop_back();
    }
    FrameText F = parseFrameText(S.Nodes[I].Text);
    if (F.Kind != FrameKind::Code)
      continue;
    std::string Key = functionKey(F);
    uint32_t &Count = OnPath[Key];
    if (Count++ == 0) {
      Bytes &B = Out[Key];
      B.Value += S.Nodes[I].Bytes;
      if (B.Frames.empty())
        B.Frames.push_back(Key);
    }
    Open.emplace_back(S.Nodes[I].End, std::move(Key));
  }
}

Side sideAt(const Profile &P, size_t Index, size_t TreeIndex) {
  Side Out;
  const Snapshot &S = P.Snapshots[Index];
  Out.Snapshot = S.Number;
  Out.MarkedPeak = S.Tree == TreeKind::Peak;
  Out.T = {S.HeapBytes, S.ExtraBytes, S.StackBytes};
  if (TreeIndex != SIZE_MAX && TreeIndex <= Index &&
      P.Snapshots[TreeIndex].detailed()) {
    Out.HasTree = true;
    Out.TreeSnapshot = P.Snapshots[TreeIndex].Number;
    Out.TreeOffset = Index - TreeIndex;
    Out.TreeHeap = P.Snapshots[TreeIndex].HeapBytes;
  }
  return Out;
}

/// Whether the two sides' trees compare: taken as far before their
/// totals' snapshots (the same position from the end, at the end).
Locations locationsOf(const Side &A, const Side &B) {
  if (!A.HasTree || !B.HasTree)
    return Locations::NoTree;
  if (A.TreeOffset != B.TreeOffset)
    return Locations::DifferentMoments;
  return A.TreeOffset ? Locations::SameOffset : Locations::TotalsSnapshots;
}

/// Sort order of the kinds of change.
int rank(Change C) { return int(C); }

/// The rows of the locations of InA and InB (emptied): each key either
/// side has, its change, ordered by kind, then by the size of the change
/// (for same, the size), then by key.
std::vector<Row> rowsOf(ByLocation &InA, ByLocation &InB) {
  std::vector<Row> Rows;
  for (auto &[Key, V] : InA) {
    Row R;
    R.Location = Key;
    R.Frames = std::move(V.Frames);
    R.A = V.Value;
    auto It = InB.find(Key);
    if (It == InB.end()) {
      R.Kind = Change::Gone;
    } else {
      R.B = It->second.Value;
      R.Kind = R.B > R.A   ? Change::Grew
               : R.B < R.A ? Change::Shrank
                           : Change::Same;
      InB.erase(It);
    }
    Rows.push_back(std::move(R));
  }
  for (auto &[Key, V] : InB) {
    Row R;
    R.Kind = Change::New;
    R.Location = Key;
    R.Frames = std::move(V.Frames);
    R.B = V.Value;
    Rows.push_back(std::move(R));
  }
  InA.clear();
  InB.clear();
  // Within a kind: the largest change first (for same, the largest size).
  auto weight = [](const Row &R) -> uint64_t {
    if (R.Kind == Change::Same)
      return R.A;
    return R.B > R.A ? R.B - R.A : R.A - R.B;
  };
  std::sort(Rows.begin(), Rows.end(), [&](const Row &X, const Row &Y) {
    if (X.Kind != Y.Kind)
      return rank(X.Kind) < rank(Y.Kind);
    if (weight(X) != weight(Y))
      return weight(X) > weight(Y);
    return X.Location < Y.Location;
  });
  return Rows;
}

Moment compareAt(std::string Name, const Profile &A, size_t AIndex,
                 size_t ATree, const Profile &B, size_t BIndex, size_t BTree,
                 GroupBy By) {
  Moment M;
  M.Name = std::move(Name);
  M.A = sideAt(A, AIndex, ATree);
  M.B = sideAt(B, BIndex, BTree);
  M.From = locationsOf(M.A, M.B);
  M.HaveRows =
      M.From == Locations::TotalsSnapshots || M.From == Locations::SameOffset;
  if (!M.HaveRows)
    return M;
  ByLocation InA, InB;
  auto gather = By == GroupBy::Site ? gatherSites : gatherFunctions;
  gather(A.Snapshots[ATree], InA);
  gather(B.Snapshots[BTree], InB);
  M.Rows = rowsOf(InA, InB);
  return M;
}

/// A site statistics file's counts by location: keyed as gatherSites (the
/// stack's innermost call and its inline chain) or gatherFunctions (each
/// function of the stack once) key the trees.
struct CountsAt {
  SiteCounts Counts;
  std::vector<std::string> Frames;
};

std::map<std::string, CountsAt> gatherSiteStats(const SiteStats &S,
                                                GroupBy By) {
  std::map<std::string, CountsAt> Out;
  for (const Site &Site : S.Sites) {
    if (By == GroupBy::Site) {
      FrameText F = parseFrameText(Site.Frames.front());
      std::vector<std::string> Frames{F.location()};
      for (size_t I = 1; I < Site.Frames.size(); ++I) {
        FrameText Next = parseFrameText(Site.Frames[I]);
        if (Next.Address != F.Address)
          break;
        Frames.push_back(Next.location());
      }
      std::string Key = Frames.front();
      for (size_t K = 1; K < Frames.size(); ++K)
        Key += InlinedInto + Frames[K];
      CountsAt &At = Out[Key];
      At.Counts += Site.Counts;
      if (At.Frames.empty())
        At.Frames = std::move(Frames);
      continue;
    }
    std::vector<std::string> Seen;
    for (std::string_view Text : Site.Frames) {
      std::string Key = functionKey(parseFrameText(Text));
      if (std::find(Seen.begin(), Seen.end(), Key) != Seen.end())
        continue;
      CountsAt &At = Out[Key];
      At.Counts += Site.Counts;
      if (At.Frames.empty())
        At.Frames.push_back(Key);
      Seen.push_back(std::move(Key));
    }
  }
  return Out;
}

/// The locations of In whose metric M is not zero, with that figure.
ByLocation metricOf(const std::map<std::string, CountsAt> &In, SiteMetric M) {
  ByLocation Out;
  for (const auto &[Key, At] : In)
    if (uint64_t V = siteMetric(At.Counts, M))
      Out[Key] = Bytes{V, At.Frames};
  return Out;
}

} // namespace

uint64_t siteMetric(const SiteCounts &C, SiteMetric M) {
  switch (M) {
  case SiteMetric::Calls:
    return C.Calls;
  case SiteMetric::Bytes:
    return C.Bytes;
  case SiteMetric::Temporary:
    return C.Temporary;
  case SiteMetric::LeakedBytes:
    break;
  }
  return C.LeakedBytes;
}

const char *siteMetricName(SiteMetric M) {
  switch (M) {
  case SiteMetric::Calls:
    return "calls";
  case SiteMetric::Bytes:
    return "bytes";
  case SiteMetric::Temporary:
    return "temporary";
  case SiteMetric::LeakedBytes:
    break;
  }
  return "leaked_bytes";
}

SiteStatsDiff compareSites(const SiteStats *A, const SiteStats *B,
                           GroupBy By) {
  SiteStatsDiff D;
  D.A.Found = A != nullptr;
  D.B.Found = B != nullptr;
  if (A)
    D.TotalA = A->Total;
  if (B)
    D.TotalB = B->Total;
  if (!A || !B)
    return D;
  D.Compared = true;
  auto InA = gatherSiteStats(*A, By), InB = gatherSiteStats(*B, By);
  for (size_t M = 0; M < NumSiteMetrics; ++M) {
    ByLocation MA = metricOf(InA, SiteMetric(M));
    ByLocation MB = metricOf(InB, SiteMetric(M));
    D.Rows[M] = rowsOf(MA, MB);
  }
  return D;
}

const char *changeName(Change C) {
  switch (C) {
  case Change::Grew:
    return "grew";
  case Change::Shrank:
    return "shrank";
  case Change::New:
    return "new";
  case Change::Gone:
    return "gone";
  case Change::Same:
    break;
  }
  return "same";
}

const char *locationsName(Locations L) {
  switch (L) {
  case Locations::TotalsSnapshots:
    return "totals_snapshots";
  case Locations::SameOffset:
    return "same_offset";
  case Locations::DifferentMoments:
    return "different_moments";
  case Locations::NoTree:
    break;
  }
  return "no_tree";
}

bool deltaPercent(uint64_t A, uint64_t B, double &Percent) {
  if (A == 0) {
    Percent = 0;
    return B == 0;
  }
  Percent = B >= A ? double(B - A) * 100.0 / double(A)
                   : -(double(A - B) * 100.0 / double(A));
  return true;
}

Comparison compare(const Profile &A, const Profile &B, GroupBy By) {
  Comparison C;
  C.By = By;
  size_t APeak = A.peakIndex(), BPeak = B.peakIndex();
  C.Moments.push_back(compareAt("peak", A, APeak, APeak, B, BPeak, BPeak, By));
  C.Moments.push_back(
      compareAt("end", A, A.Snapshots.size() - 1, A.lastDetailedIndex(), B,
                B.Snapshots.size() - 1, B.lastDetailedIndex(), By));
  return C;
}

} // namespace msdiff
