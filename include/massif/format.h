//===- massif/format.h - The massif.out file format, defined once ---------===//
//
// Part of massif-native, under the MIT licence.
//
// The one definition of the massif.out text format. The runtime's writer
// (runtime/core/output/Writer.cpp) and ms_print's readers (ms_print/report/ProfileReader.cpp,
// ms_print/model/ProfileLoader.cpp) all
// spell every key, separator and fixed description through these constants,
// so they cannot drift apart. Header-only and freestanding: plain
// character arrays, no library types, usable from runtime/core.
//
//   desc: --time-unit=B --massif-out-file=x.out     <- options, verbatim
//   cmd: ./prog arg1 arg2                           <- command as typed
//   time_unit: B                                    <- i | ms | B
//   #-----------                                    <- SnapshotSeparator
//   snapshot=0                                      \
//   #-----------                                     |
//   time=0                                           |  one block per
//   mem_heap_B=0                                     |  snapshot, in
//   mem_heap_extra_B=0                               |  file order
//   mem_stacks_B=0                                   |
//   heap_tree=empty | detailed | peak                |
//   n2: 3000 (heap allocation functions) ...         |  tree lines, only
//    n0: 2000 0x4005F1: f (a.c:10)                   |  for detailed and
//    n0: 1000 0x400612: main (a.c:20)               /   peak snapshots
//
// A tree line is <indent>n<children>: <bytes> <description>, indented one
// space per tree level (plus one per inlined frame). Nothing follows the last
// snapshot. docs/FILE-FORMAT.md describes every field.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_FORMAT_H
#define MASSIF_FORMAT_H

namespace massif {
namespace format {

// Header lines. Each key is followed by the text shown in the diagram.
inline constexpr char DescKey[] = "desc:";
inline constexpr char DescNone[] = " (none)";
inline constexpr char CmdKey[] = "cmd:";
inline constexpr char TimeUnitKey[] = "time_unit:";

// Time units as written after "time_unit: ".
inline constexpr char TimeUnitInstructions[] = "i";
inline constexpr char TimeUnitMilliseconds[] = "ms";
inline constexpr char TimeUnitBytes[] = "B";

// Snapshot block.
inline constexpr char SnapshotSeparator[] = "#-----------";
inline constexpr char SnapshotKey[] = "snapshot=";
inline constexpr char TimeKey[] = "time=";
inline constexpr char HeapKey[] = "mem_heap_B=";
inline constexpr char HeapExtraKey[] = "mem_heap_extra_B=";
inline constexpr char StacksKey[] = "mem_stacks_B=";
inline constexpr char HeapTreeKey[] = "heap_tree=";

// Values of heap_tree=.
inline constexpr char TreeEmpty[] = "empty";
inline constexpr char TreeDetailed[] = "detailed";
inline constexpr char TreePeak[] = "peak";

// Description of the root line of every tree.
inline constexpr char RootHeap[] =
    "(heap allocation functions) malloc/new/new[], --alloc-fns, etc.";
inline constexpr char RootPages[] =
    "(page allocation syscalls) mmap/mremap/brk, --alloc-fns, etc.";

// Massif-side aggregate lines: " in 1 place, below massif's threshold (T%)"
// and " in K places, all below massif's threshold (T%)".
inline constexpr char AggregateOnePrefix[] = " in 1 place, below massif's threshold (";
inline constexpr char AggregateManyInfix[] = " places, all below massif's threshold (";
inline constexpr char AggregateSuffix[] = "%)";

// Name shown for frames outside main (unless --show-below-main=yes).
inline constexpr char BelowMain[] = "(below main)";

// The site statistics file, written beside the massif.out file under the
// name sitesPathOf gives (runtime/core/output/SitesWriter.cpp; read by
// ms_print's views). docs/FILE-FORMAT.md describes it.
//
//   massif-sites: 1                                  <- SitesMagic, version
//   cmd: ./prog arg1 arg2                            <- as massif.out's
//   sizes: 0 12 40 7                                 <- calls per size bucket
//   total: calls=59 bytes=4100 temporary=3 temporary_bytes=96 leaked_blocks=2 leaked_bytes=64
//   site: calls=40 bytes=3000 temporary=3 temporary_bytes=96 leaked_blocks=0 leaked_bytes=0
//    0x4005F1: f (a.c:10)                            <- its frames, innermost
//    0x400612: main (a.c:20)                            first, as tree lines
//   site: ...                                           describe them
inline constexpr char SitesOutName[] = "massif.out";
inline constexpr char SitesName[] = "massif.sites";
inline constexpr char SitesSuffix[] = ".sites";
inline constexpr char SitesMagic[] = "massif-sites:";
inline constexpr unsigned SitesVersion = 1;
inline constexpr char SitesSizesKey[] = "sizes:";
inline constexpr char SitesTotalKey[] = "total:";
inline constexpr char SiteKey[] = "site:";
// The counters of a total: or site: line, in this order, each "name=N".
inline constexpr char SiteCalls[] = "calls=";
inline constexpr char SiteBytes[] = "bytes=";
inline constexpr char SiteTemporary[] = "temporary=";
inline constexpr char SiteTemporaryBytes[] = "temporary_bytes=";
inline constexpr char SiteLeakedBlocks[] = "leaked_blocks=";
inline constexpr char SiteLeakedBytes[] = "leaked_bytes=";

/// The site statistics file's path for the massif.out file at Path, into
/// Out (OutB bytes): the last "massif.out" of the file's own name becomes
/// "massif.sites" (massif.out.1234 -> massif.sites.1234, out of the way of
/// a glob of massif.out.*); a name without it gets ".sites" appended.
/// False when Out is too small.
inline bool sitesPathOf(const char *Path, char *Out, unsigned long OutB) {
  unsigned long Len = 0, NameAt = 0;
  for (; Path[Len]; ++Len)
    if (Path[Len] == '/')
      NameAt = Len + 1;
  const unsigned long OutNameB = sizeof(SitesOutName) - 1;
  unsigned long At = ~0ul;
  for (unsigned long I = NameAt; I + OutNameB <= Len; ++I) {
    unsigned long K = 0;
    while (K < OutNameB && Path[I + K] == SitesOutName[K])
      ++K;
    if (K == OutNameB)
      At = I;
  }
  unsigned long Grow = At == ~0ul ? sizeof(SitesSuffix) - 1
                                  : sizeof(SitesName) - 1 - OutNameB;
  if (Len + Grow + 1 > OutB)
    return false;
  unsigned long O = 0;
  if (At == ~0ul) {
    for (unsigned long I = 0; I < Len; ++I)
      Out[O++] = Path[I];
    for (const char *S = SitesSuffix; *S; ++S)
      Out[O++] = *S;
  } else {
    for (unsigned long I = 0; I < At; ++I)
      Out[O++] = Path[I];
    for (const char *S = SitesName; *S; ++S)
      Out[O++] = *S;
    for (unsigned long I = At + OutNameB; I < Len; ++I)
      Out[O++] = Path[I];
  }
  Out[O] = 0;
  return true;
}

} // namespace format
} // namespace massif

#endif // MASSIF_FORMAT_H
