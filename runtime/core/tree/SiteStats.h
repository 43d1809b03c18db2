//===- SiteStats.h - heaptrack's questions, per allocation stack -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Massif answers what holds memory at the peak, and when. The other
// questions a heap profiler is asked (heaptrack's) are about calls: which
// stacks call the allocator most, which allocations are temporary, what is
// still allocated at the end, how much was asked for in all, and of what
// sizes. The model counts them as it applies events, per entry of the
// allocation tree (AllocTree.h), and writes them beside the massif.out
// file (SitesWriter.cpp; the format is include/massif/format.h's).
//
// The definitions are heaptrack's, so that the figures compare:
//   calls      every allocation event: malloc, calloc, memalign and the
//              aligned forms, operator new, and realloc, which counts as
//              the free of the old block and the allocation of the new;
//   temporary  a block freed right after the last allocation event, when
//              that allocation had the block's own size and stack (the
//              allocation-info index heaptrack compares, not the address:
//              two allocations of one size at one site, then the free of
//              the first, count as temporary); after a free there is no
//              last allocation (heaptrack resets it to index 0, which is
//              also the index of the run's first allocation, so it counts
//              a block of that size and stack freed after another free as
//              temporary too; in a run of heaptrack that block is its own
//              libstdc++'s emergency pool, so nothing of the program's);
//   leaked     the blocks still live when the profile is written.
// Sizes are counted in power-of-two buckets: bucket 0 holds size 0,
// bucket b the sizes from 2^(b-1) up to 2^b - 1.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_SITESTATS_H
#define MASSIF_CORE_SITESTATS_H

#include "Base.h"

namespace massif {

/// What one allocation stack did.
struct SiteCounts {
  uint64_t Calls;
  uint64_t Bytes; ///< requested, in all
  uint64_t Temporary;
  uint64_t TemporaryBytes;
  uint64_t LiveBlocks;
  uint64_t LiveBytes;
};

class SiteStats {
public:
  static constexpr uint32_t SizeBuckets = 65;

  static uint32_t bucketOf(uint64_t SizeB) {
    return SizeB ? 64 - uint32_t(__builtin_clzll(SizeB)) : 0;
  }

  /// An allocation of ReqB bytes charged to entry E (counts S).
  void allocated(SiteCounts &S, uint32_t E, uint64_t ReqB) {
    ++S.Calls;
    S.Bytes += ReqB;
    ++S.LiveBlocks;
    S.LiveBytes += ReqB;
    ++Sizes[bucketOf(ReqB)];
    LastEntry = E;
    LastReqB = ReqB;
  }

  /// The release of a block of ReqB bytes charged to entry E (counts S).
  void freed(SiteCounts &S, uint32_t E, uint64_t ReqB) {
    --S.LiveBlocks;
    S.LiveBytes -= ReqB;
    if (LastEntry == E && LastReqB == ReqB) {
      ++S.Temporary;
      S.TemporaryBytes += ReqB;
    }
    LastEntry = 0;
  }

  /// Allocation events by requested size (bucketOf).
  uint64_t Sizes[SizeBuckets] = {};

private:
  uint32_t LastEntry = 0; ///< the last allocation's entry; 0 after a free
  uint64_t LastReqB = 0;
};

} // namespace massif

#endif // MASSIF_CORE_SITESTATS_H
