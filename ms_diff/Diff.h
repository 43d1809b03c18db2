//===- Diff.h - The comparison of two massif.out files --------------------===//
//
// Part of massif-native, under the MIT licence.
//
// A is the base (before), B the new run. They are compared at two moments:
//
//   peak  the snapshot Massif marked heap_tree=peak (Profile::peakIndex():
//         the first largest total when none is marked);
//   end   the last snapshot; its locations come from the last detailed
//         snapshot, which may be an earlier one.
//
// At each moment the totals (heap, extra-heap, stacks, their sum) are
// compared, and the bytes by location when both sides have a tree there
// taken at comparable moments: the trees of the totals' snapshots, or
// trees as many snapshots before them on both sides. At the end, when
// one file's last tree is further from its last snapshot than the
// other's, the trees are of different moments (one side may have freed
// what the other still holds) and their locations are not compared.
// The locations are grouped:
//
//   by site      each code node directly under the root (the caller of
//                malloc/new, or of mmap/brk with --pages-as-heap), keyed by
//                its text without the address, so that two builds of a
//                program match. An inlined call is a chain of nodes with the
//                same address, innermost first; the chain is one site, keyed
//                by all its frames. Nodes below the threshold are one site,
//                "(below threshold)".
//   by function  inclusive bytes per function (its name and its file or
//                object, without the line), counted once per path: a
//                function deeper on a path where it already appears (a
//                recursion) adds nothing. Nodes below the threshold are
//                left out.
//
// Every location either side knows gets a row: grew, shrank, new (only in
// B), gone (only in A) or same.
//
// Over the whole run, when both files have site statistics beside them
// (ms_print/model/Sites.h; massif-native writes them, Valgrind does not),
// heaptrack's figures are compared too: their totals (calls, bytes asked
// for, temporary allocations and their bytes, leaked blocks and bytes)
// and, per location keyed as above (a stack's innermost call and its
// inline chain; by function, every function on the stack once), the
// calls, bytes, temporary allocations and leaked bytes. A location whose
// figure is 0 on a side has none there: "new" is a figure only B has.
//
//===----------------------------------------------------------------------===//

#ifndef MSDIFF_DIFF_H
#define MSDIFF_DIFF_H

#include "Profile.h"
#include "Sites.h"

#include <cstdint>
#include <string>
#include <vector>

namespace msdiff {

/// What the bytes are grouped by.
enum class GroupBy { Site, Function };

/// How a location's bytes changed from A to B.
enum class Change { Grew, Shrank, New, Gone, Same };

/// The bytes of one snapshot.
struct Totals {
  uint64_t Heap = 0;
  uint64_t Extra = 0;
  uint64_t Stacks = 0;
  uint64_t total() const { return Heap + Extra + Stacks; }
};

/// One location at one moment.
struct Row {
  Change Kind = Change::Same;
  /// The key: a site's frames joined by " inlined into ", or a function.
  std::string Location;
  /// A site's frames, innermost first (one unless inlined); a function's
  /// name alone.
  std::vector<std::string> Frames;
  uint64_t A = 0;
  uint64_t B = 0;
  int64_t delta() const { return int64_t(B - A); }
};

/// One profile's snapshots at a moment.
struct Side {
  /// The snapshot= number of the totals.
  uint64_t Snapshot = 0;
  /// True when that snapshot is the one Massif marked heap_tree=peak.
  bool MarkedPeak = false;
  /// The snapshot= number the locations come from; valid when HasTree.
  uint64_t TreeSnapshot = 0;
  /// How many snapshots the tree's comes before the totals' (0: the
  /// same one); valid when HasTree.
  uint64_t TreeOffset = 0;
  /// The tree snapshot's heap (mem_heap_B); valid when HasTree.
  uint64_t TreeHeap = 0;
  bool HasTree = false;
  Totals T;
};

/// Where a moment's locations come from, and whether they are compared.
enum class Locations {
  /// Both sides' trees are the totals' snapshots.
  TotalsSnapshots,
  /// Both sides' trees are the same number of snapshots before the
  /// totals' (Side::TreeOffset, not 0).
  SameOffset,
  /// The trees are different numbers of snapshots before the totals':
  /// taken at moments that do not compare, they are not compared.
  DifferentMoments,
  /// A side has no tree: nothing to compare.
  NoTree,
};

/// The comparison at one moment.
struct Moment {
  /// "peak" or "end".
  std::string Name;
  Side A;
  Side B;
  Locations From = Locations::NoTree;
  /// True when the locations are compared (TotalsSnapshots, SameOffset);
  /// Rows is empty otherwise.
  bool HaveRows = false;
  /// Grew (largest growth first), shrank (largest fall first), new
  /// (largest first), gone (largest first), same (largest first); ties in
  /// location order.
  std::vector<Row> Rows;
};

/// The figures of the site statistics compared per location.
enum class SiteMetric { Calls, Bytes, Temporary, LeakedBytes };
inline constexpr size_t NumSiteMetrics = 4;

/// One side's site statistics file.
struct SitesFile {
  /// The path looked at (model::sitesPathFor); empty for standard input.
  std::string Path;
  bool Found = false;
};

/// heaptrack's figures over the run compared, from the site statistics.
struct SiteStatsDiff {
  SitesFile A;
  SitesFile B;
  /// Both sides have site statistics: Rows are filled.
  bool Compared = false;
  /// Each side's totals, when it has site statistics.
  msprint::model::SiteCounts TotalA;
  msprint::model::SiteCounts TotalB;
  /// Rows per SiteMetric, ordered as a moment's rows.
  std::vector<Row> Rows[NumSiteMetrics];
};

/// The whole comparison. Both profiles must have snapshots.
struct Comparison {
  GroupBy By = GroupBy::Site;
  /// Peak, then end.
  std::vector<Moment> Moments;
  /// The site statistics, when either side has them (HasSites).
  bool HasSites = false;
  SiteStatsDiff Sites;
};

Comparison compare(const msprint::model::Profile &A,
                   const msprint::model::Profile &B, GroupBy By);

/// The site statistics of A and B (null when a side has none; Files
/// says where they were looked for), compared by By.
SiteStatsDiff compareSites(const msprint::model::SiteStats *A,
                           const msprint::model::SiteStats *B, GroupBy By);

/// A SiteMetric's figure of C.
uint64_t siteMetric(const msprint::model::SiteCounts &C, SiteMetric M);

/// "calls", "bytes", "temporary", "leaked_bytes".
const char *siteMetricName(SiteMetric M);

/// "grew", "shrank", "new", "gone", "same".
const char *changeName(Change C);

/// "totals_snapshots", "same_offset", "different_moments", "no_tree".
const char *locationsName(Locations L);

/// Delta as a percentage of A: false when A is 0 and B is not (no
/// percentage); 0 when both are 0.
bool deltaPercent(uint64_t A, uint64_t B, double &Percent);

} // namespace msdiff

#endif // MSDIFF_DIFF_H
