//===- SitesWriter.cpp - The site statistics file -------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Writes what SiteStats.h counts, beside the massif.out file: the header
// (magic and version, the cmd: line), the calls per size bucket, the
// totals, then one site per allocation stack as the trees show stacks
// (the frames Massif selects: alloc-fns stripped, cut below main and at
// --depth), in the trees' order. Entries whose stacks differ only beyond
// the selected frames are one site, as they are one path of the trees.
// Ignored entries (--ignore-fn, --alloc-fn down to everything) have no
// site and no part in the totals. The frames are described as tree lines
// describe them (TreeWriter::emitFrame), one space in, an inline chain
// innermost first.
//
//===----------------------------------------------------------------------===//

#include "ProfileImpl.h"
#include "TextWriter.h"
#include "TreeWriter.h"

#include "massif/format.h"

namespace massif {
namespace {

void addCounts(SiteCounts &To, const SiteCounts &From) {
  To.Calls += From.Calls;
  To.Bytes += From.Bytes;
  To.Temporary += From.Temporary;
  To.TemporaryBytes += From.TemporaryBytes;
  To.LiveBlocks += From.LiveBlocks;
  To.LiveBytes += From.LiveBytes;
}

void putCounts(TextWriter &W, const char *Key, const SiteCounts &S) {
  W.put(Key);
  W.put(' ').put(format::SiteCalls).putUnsigned(S.Calls);
  W.put(' ').put(format::SiteBytes).putUnsigned(S.Bytes);
  W.put(' ').put(format::SiteTemporary).putUnsigned(S.Temporary);
  W.put(' ').put(format::SiteTemporaryBytes).putUnsigned(S.TemporaryBytes);
  W.put(' ').put(format::SiteLeakedBlocks).putUnsigned(S.LiveBlocks);
  W.put(' ').put(format::SiteLeakedBytes).putUnsigned(S.LiveBytes);
  W.put('\n');
}

bool sameFrames(const uint64_t *A, uint32_t NA, const uint64_t *B,
                uint32_t NB) {
  if (NA != NB)
    return false;
  for (uint32_t I = 0; I < NA; ++I)
    if (A[I] != B[I])
      return false;
  return true;
}

} // namespace

bool Profile::writeSites(const Sink &Out, const RunInfo &Run) {
  if (!P)
    return false;
  Impl &I = *P;
  TextWriter W(Out);
  W.put(format::SitesMagic).put(' ').putUnsigned(format::SitesVersion);
  W.put('\n');
  writeCmdLine(W, Run);

  uint32_t LastBucket = 0;
  for (uint32_t B = 0; B < SiteStats::SizeBuckets; ++B)
    if (I.Sites.Sizes[B])
      LastBucket = B + 1;
  W.put(format::SitesSizesKey);
  for (uint32_t B = 0; B < LastBucket; ++B)
    W.put(' ').putUnsigned(I.Sites.Sizes[B]);
  W.put('\n');

  for (uint32_t E = 0; E < I.Tree.numEntries(); ++E)
    if (I.Tree.Class[E] == entry_class::Unclassified)
      I.classify(E);
  TreeWriter Trees(I.A, I.Sym, I.Opts.Threshold, format::RootHeap);
  Trees.setFullpathAfter(&I.Opts.FullpathAfter);
  Trees.ShowBelowMain = I.Opts.ShowBelowMain;
  Trees.ReadInlineInfo = I.Opts.ReadInlineInfo;
  if (!Trees.init(I.Tree, *I.Depot))
    return false;

  SiteCounts Total{};
  for (uint32_t K = 0; K < Trees.numSorted(); ++K)
    addCounts(Total, I.Tree.Sites[Trees.sortedEntry(K)]);
  putCounts(W, format::SitesTotalKey, Total);

  for (uint32_t K = 0; K < Trees.numSorted();) {
    uint32_t N;
    const uint64_t *Frames = Trees.sortedFrames(K, N);
    SiteCounts Site{};
    uint32_t End = K;
    for (; End < Trees.numSorted(); ++End) {
      uint32_t M;
      const uint64_t *Other = Trees.sortedFrames(End, M);
      if (!sameFrames(Frames, N, Other, M))
        break;
      addCounts(Site, I.Tree.Sites[Trees.sortedEntry(End)]);
    }
    K = End;
    if (Site.Calls == 0 && Site.LiveBlocks == 0)
      continue;
    putCounts(W, format::SiteKey, Site);
    for (uint32_t F = 0; F < N; ++F)
      Trees.emitFrame(W, Frames[F], 1);
  }
  return W.flush();
}

} // namespace massif
