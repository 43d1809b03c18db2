//===- Hotspots.cpp - heaptrack's questions, as text ----------------------===//
//
// Part of massif-native, under the MIT licence.
//
// ms_print --format=hotspots: the site statistics beside a massif.out file
// (model/Sites.h) printed in heaptrack_print's spirit. Four lists of the
// top sites, each site with its figures and its stack (the frames as the
// trees describe them, innermost first), then a summary and the sizes:
//
//   Allocation hot spots (heaptrack's figures)
//   Command:         ./example
//   Site statistics: massif.sites.1234
//   ---------------------------------------------------------------------
//
//   MOST CALLS TO ALLOCATION FUNCTIONS
//   40 calls (67.80% of 59), 3,000 bytes asked for, from:
//       0x4005F1: f (a.c:10)
//       0x400612: main (a.c:20)
//
//   ... MOST TEMPORARY ALLOCATIONS, MOST MEMORY LEAKED, MOST MEMORY
//   ALLOCATED (bytes asked for in all) ...
//
//   SUMMARY
//   calls to allocation functions: 59
//   ...
//
//   ALLOCATION SIZES (calls by requested size, in bytes)
//      size  calls
//         1     12   20.34%  ############
//     2 - 3     40   67.80%  ########################################
//     4 - 7      0
//    8 - 15      7   11.86%  #######
//
// The sizes go from the first power-of-two bucket with calls to the last;
// the longest bar is 40 columns, and a bucket with calls has at least one
// '#'.
//
// A list holds the sites whose figure is not zero, largest first (then by
// a second figure: bytes for calls, temporary bytes, leaked blocks; then
// in the file's order), at most Top of them; a line says how many more there
// are. Numbers are commified as ms_print's report does.
//
//===----------------------------------------------------------------------===//

#include "Views.h"

#include "PerlFormat.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace msprint::views {

using namespace model;

namespace {

constexpr size_t RuleWidth = 80;
/// The widest bar of the size histogram.
constexpr size_t BarWidth = 40;

std::string num(uint64_t V) { return commify(std::to_string(V)); }

/// "12.34%" of Part in Whole ("0.00%" when Whole is 0).
std::string percent(uint64_t Part, uint64_t Whole) {
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, "%.2f%%",
                Whole ? 100.0 * double(Part) / double(Whole) : 0.0);
  return Buf;
}

std::string plural(uint64_t N, const char *One, const char *Many) {
  return num(N) + " " + (N == 1 ? One : Many);
}

struct List {
  const char *Title;
  /// The figure the list is sorted by; then Tie.
  std::function<uint64_t(const SiteCounts &)> Key;
  std::function<uint64_t(const SiteCounts &)> Tie;
  /// The heading of one site: "40 calls (67.80% of 59), ...".
  std::function<std::string(const SiteCounts &, const SiteCounts &Total)>
      Heading;
  /// What the list says when no site has the figure.
  const char *None;
  /// "sites with calls" in "(N more sites with calls; ...)".
  const char *Which;
};

void writeList(std::string &Out, const SiteStats &S, const List &L,
               size_t Top) {
  Out += '\n';
  Out += L.Title;
  Out += '\n';
  std::vector<const Site *> Order;
  for (const Site &Site : S.Sites)
    if (L.Key(Site.Counts) || L.Tie(Site.Counts))
      Order.push_back(&Site);
  // Ties in the file's order: the sites' order in S.Sites.
  std::sort(Order.begin(), Order.end(), [&](const Site *A, const Site *B) {
    if (L.Key(A->Counts) != L.Key(B->Counts))
      return L.Key(A->Counts) > L.Key(B->Counts);
    if (L.Tie(A->Counts) != L.Tie(B->Counts))
      return L.Tie(A->Counts) > L.Tie(B->Counts);
    return A < B;
  });
  if (Order.empty()) {
    Out += L.None;
    Out += '\n';
    return;
  }
  size_t Shown = Top && Top < Order.size() ? Top : Order.size();
  for (size_t I = 0; I < Shown; ++I) {
    if (I)
      Out += '\n';
    Out += L.Heading(Order[I]->Counts, S.Total);
    Out += ", from:\n";
    for (std::string_view Frame : Order[I]->Frames) {
      Out += "    ";
      Out += Frame;
      Out += '\n';
    }
  }
  if (Shown < Order.size())
    Out += "\n(" + num(Order.size() - Shown) + " more " + L.Which +
           "; --top=N shows N, --top=0 all)\n";
}

/// "1,024 - 2,047": the sizes of bucket B.
std::string bucketLabel(size_t B) {
  uint64_t Low = SiteStats::bucketLow(B), High = SiteStats::bucketHigh(B);
  return Low == High ? num(Low) : num(Low) + " - " + num(High);
}

void writeSizes(std::string &Out, const SiteStats &S) {
  Out += "\nALLOCATION SIZES (calls by requested size, in bytes)\n";
  uint64_t All = 0, Most = 0;
  for (uint64_t N : S.Sizes) {
    All += N;
    Most = std::max(Most, N);
  }
  if (!All) {
    Out += "no allocation calls\n";
    return;
  }
  // From the first bucket with calls to the last (the file leaves out
  // the empty ones after it).
  size_t First = 0;
  while (!S.Sizes[First])
    ++First;
  std::vector<std::string> Labels, Counts;
  size_t LabelW = 4, CountW = 5;
  for (size_t B = First; B < S.Sizes.size(); ++B) {
    Labels.push_back(bucketLabel(B));
    Counts.push_back(num(S.Sizes[B]));
    LabelW = std::max(LabelW, Labels.back().size());
    CountW = std::max(CountW, Counts.back().size());
  }
  std::string Head;
  appendRightAligned(Head, "size", LabelW);
  Head += "  ";
  appendRightAligned(Head, "calls", CountW);
  Out += Head + "\n";
  for (size_t B = First; B < S.Sizes.size(); ++B) {
    std::string Line;
    appendRightAligned(Line, Labels[B - First], LabelW);
    Line += "  ";
    appendRightAligned(Line, Counts[B - First], CountW);
    if (S.Sizes[B]) {
      Line += "  ";
      appendRightAligned(Line, percent(S.Sizes[B], All), 7);
      // At least one '#' for a bucket with calls.
      size_t Bar = size_t((S.Sizes[B] * BarWidth + Most - 1) / Most);
      Line += "  ";
      Line.append(std::max<size_t>(Bar, 1), '#');
    }
    Out += Line + '\n';
  }
}

void writeSummary(std::string &Out, const Profile &P, const SiteStats &S) {
  const SiteCounts &T = S.Total;
  Out += "\nSUMMARY\n";
  auto line = [&](const char *Name, const std::string &Value) {
    std::string L = Name;
    L.resize(std::max<size_t>(L.size(), 32), ' ');
    Out += L + Value + '\n';
  };
  line("calls to allocation functions:", num(T.Calls));
  line("bytes asked for:", num(T.Bytes));
  line("temporary allocations:",
       num(T.Temporary) + " (" + percent(T.Temporary, T.Calls) +
           " of the calls), " + plural(T.TemporaryBytes, "byte", "bytes"));
  size_t LeakSites = 0;
  for (const Site &Site : S.Sites)
    LeakSites += Site.Counts.LeakedBytes || Site.Counts.LeakedBlocks;
  line("memory leaked:", plural(T.LeakedBytes, "byte", "bytes") + " in " +
                             plural(T.LeakedBlocks, "block", "blocks") +
                             " from " + plural(LeakSites, "site", "sites"));
  line("sites:", num(S.Sites.size()));
  size_t Peak = P.peakIndex();
  if (Peak != SIZE_MAX) {
    const Snapshot &Sn = P.Snapshots[Peak];
    line("peak heap (Massif's):",
         plural(Sn.HeapBytes, "byte", "bytes") + " at snapshot " +
             std::to_string(Sn.Number) + ", " + num(Sn.total()) +
             " with extra heap and stacks");
  }
  uint64_t Sized = 0;
  for (uint64_t N : S.Sizes)
    Sized += N;
  if (Sized != T.Calls)
    Out += "(the sizes below count " + plural(Sized, "call", "calls") +
           ", the sites " + num(T.Calls) +
           ": the others' stacks are in no site, left out by --ignore-fn or "
           "--alloc-fn)\n";
}

} // namespace

void writeHotspots(const Profile &P, const SiteStats &S, size_t Top,
                   Sink &Sink) {
  std::string Out = "Allocation hot spots (heaptrack's figures)\n";
  Out += "Command:         " + S.Cmd + "\n";
  Out += "Site statistics: " + S.Path + "\n";
  Out += std::string(RuleWidth, '-') + "\n";

  const List Lists[] = {
      {"MOST CALLS TO ALLOCATION FUNCTIONS",
       [](const SiteCounts &C) { return C.Calls; },
       [](const SiteCounts &C) { return C.Bytes; },
       [](const SiteCounts &C, const SiteCounts &T) {
         return plural(C.Calls, "call", "calls") + " (" +
                percent(C.Calls, T.Calls) + " of " + num(T.Calls) + "), " +
                plural(C.Bytes, "byte", "bytes") + " asked for";
       },
       "no allocation calls", "sites with calls"},
      {"MOST TEMPORARY ALLOCATIONS",
       [](const SiteCounts &C) { return C.Temporary; },
       [](const SiteCounts &C) { return C.TemporaryBytes; },
       [](const SiteCounts &C, const SiteCounts &) {
         return num(C.Temporary) + " temporary of " +
                plural(C.Calls, "call", "calls") + " (" +
                percent(C.Temporary, C.Calls) + "), " +
                plural(C.TemporaryBytes, "byte", "bytes");
       },
       "no temporary allocations", "sites with temporary allocations"},
      {"MOST MEMORY LEAKED",
       [](const SiteCounts &C) { return C.LeakedBytes; },
       [](const SiteCounts &C) { return C.LeakedBlocks; },
       [](const SiteCounts &C, const SiteCounts &T) {
         return plural(C.LeakedBytes, "byte", "bytes") + " leaked (" +
                percent(C.LeakedBytes, T.LeakedBytes) + " of " +
                num(T.LeakedBytes) + ") in " +
                plural(C.LeakedBlocks, "block", "blocks");
       },
       "no memory leaked", "sites with leaks"},
      {"MOST MEMORY ALLOCATED (bytes asked for, in all)",
       [](const SiteCounts &C) { return C.Bytes; },
       [](const SiteCounts &) { return uint64_t(0); },
       [](const SiteCounts &C, const SiteCounts &T) {
         return plural(C.Bytes, "byte", "bytes") + " (" +
                percent(C.Bytes, T.Bytes) + " of " + num(T.Bytes) + ") in " +
                plural(C.Calls, "call", "calls");
       },
       "no bytes asked for", "sites that asked for bytes"},
  };
  for (const List &L : Lists)
    writeList(Out, S, L, Top);
  writeSummary(Out, P, S);
  writeSizes(Out, S);
  Sink.write(Out);
}

} // namespace msprint::views
