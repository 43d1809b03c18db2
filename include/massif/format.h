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

} // namespace format
} // namespace massif

#endif // MASSIF_FORMAT_H
