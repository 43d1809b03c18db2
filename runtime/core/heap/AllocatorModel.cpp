//===- AllocatorModel.cpp - Massif's slop, as Valgrind's allocator gives it
//
// Part of massif-native, under the MIT licence.
//
// Under Valgrind, slop is "usable size minus requested size" of a block
// from Valgrind's own allocator (m_mallocfree.c), not glibc's. The native
// engine has no such allocator, so it asks this model. Measured on amd64
// with Valgrind 3.19 (malloc_usable_size under --tool=massif; see
// docs/DESIGN-core.md, "Slop"):
//
//   * payloads are multiples of 16: usable = round_up(req, 16), and
//     malloc(0) has usable 0;
//   * a block is split off a superblock only when at least 32 bytes would
//     remain, so the largest payloads that still fit a fresh superblock
//     take all of it (4,194,224 bytes: usable 4,194,240);
//   * a payload that does not fit a 4 MiB client superblock (more than
//     4,194,240 bytes after rounding) gets its own superblock of whole
//     pages with 64 bytes of headers: usable = page_up(req16 + 64) - 64
//     (malloc(10 MiB) has slop 4032; 4,194,241 bytes has slop 4095);
//   * aligned requests (alignment > 16) split an over-sized block at the
//     first aligned address, so their slop depends on where that block
//     lies. In a fresh superblock (large requests) that position is fixed:
//     usable = req16 + 80 + align - round_up(96, align). Elsewhere it
//     ranges over (req16, req16 + align]; the model uses the middle,
//     req16 + align/2.
//
// This estimate keeps no history, so it misses reuse of a freed block
// whose leftover would be too small to split (Valgrind then hands out the
// whole block: malloc(96) in a freed 112-byte block has slop 16). The
// Profile does not use it for blocks it can replay: ClientArena.h
// simulates Valgrind's allocator exactly; this is its fallback when the
// model's memory runs out, and for callers that keep no history.
//
//===----------------------------------------------------------------------===//

#include "Profile.h"

namespace massif {
namespace {

constexpr uint64_t MinAlignB = 16;
constexpr uint64_t PageB = 4096;
constexpr uint64_t MaxSuperblockPayloadB = 4194240;
constexpr uint64_t BigBlockHeadersB = 64;
/// A free remainder smaller than this stays with the block.
constexpr uint64_t MinSplitB = 32;
/// Smallest block the aligned allocator can split off in front.
constexpr uint64_t MinFragmentB = 48;

uint64_t roundUp(uint64_t V, uint64_t To) { return (V + To - 1) & ~(To - 1); }

} // namespace

uint64_t modelSlopB(uint64_t ReqB, uint64_t AlignB) {
  if (ReqB > (~uint64_t(0) >> 2))
    return 0; // no such block can exist
  uint64_t Req16 = roundUp(ReqB, MinAlignB);
  uint64_t UsableB;
  if (AlignB <= MinAlignB || (AlignB & (AlignB - 1)) != 0) {
    if (Req16 > MaxSuperblockPayloadB)
      UsableB = roundUp(Req16 + BigBlockHeadersB, PageB) - BigBlockHeadersB;
    else if (MaxSuperblockPayloadB - Req16 < MinSplitB)
      UsableB = MaxSuperblockPayloadB;
    else
      UsableB = Req16;
  } else if (Req16 + MinFragmentB + AlignB > MaxSuperblockPayloadB) {
    UsableB = Req16 + 80 + AlignB - roundUp(96, AlignB);
  } else {
    UsableB = Req16 + AlignB / 2;
  }
  return UsableB - ReqB;
}

} // namespace massif
