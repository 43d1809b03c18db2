//===- Profile.h - Massif's profile model -----------------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The model every engine shares: the live-block table, the allocation tree
// (bytes per interned stack), Massif's snapshot engine (normal, detailed and
// peak snapshots, culling) and the massif.out writer. It reproduces Massif
// 3.19's behaviour; docs/DESIGN-core.md describes how it works.
//
// Not thread-safe: the engine serialises calls (the native runtime holds one
// short lock around each event; capture and interning happen before it).
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_PROFILE_H
#define MASSIF_CORE_PROFILE_H

#include "Base.h"
#include "Options.h"
#include "StackDepot.h"
#include "Symbolizer.h"

namespace massif {

struct SnapshotTrace;

/// The time source for --time-unit=ms and --time-unit=i (unit B is kept by
/// the model itself). Returns the absolute count; the model subtracts the
/// value it saw at start-up.
struct Clock {
  uint64_t (*Now)(void *Ctx);
  void *Ctx;
};

/// Text of the file header: desc: lists Options::Given, cmd: is the command.
struct RunInfo {
  const char *const *Argv; ///< the profiled command as typed, then its args
  uint32_t Argc;
};

/// The part of the model that a stack probe's hook updates itself, in one
/// place: the running totals, the clock's base, and copies of the snapshot
/// engine's two thresholds. Heap events update it too. The model owns it
/// (Profile::stackHot); tryStackDelta below is the one function, besides
/// the model's own, that changes it.
struct StackHot {
  uint64_t HeapB;   ///< useful bytes of live non-ignored blocks
  uint64_t ExtraB;  ///< admin + slop bytes of the same blocks
  uint64_t StacksB; ///< --stacks=yes
  uint64_t TimeB;   ///< bytes allocated + freed so far (--time-unit=B)
  uint64_t ClockBase;    ///< the Clock's reading at start-up
  int64_t EarliestNext;  ///< no Normal snapshot before this time
  uint64_t PeakLimitB;   ///< no Peak snapshot at or below this total
  /// Normal attempts that found no snapshot due (Massif's skipped
  /// snapshots), the stack's included; --stats=yes and -v -v report them.
  uint64_t NumSkipped;
  uint64_t NumStackAllocs; ///< stack growths counted (--stats=yes)
  bool CountStacks;      ///< --stacks=yes, and start-up is done
  bool UnitB;            ///< --time-unit=B
};

/// Profile::onStackDelta for the common case where it takes no snapshot:
/// applies the change and returns true, or returns false and changes
/// nothing when a Peak or Normal snapshot would be taken (call
/// onStackDelta then). ClockNow is what the Clock reads now (unused with
/// --time-unit=B). Inline and calling nothing, for a stack probe's hook,
/// which runs as often as the program calls functions.
MASSIF_PRESERVE_ALL inline bool tryStackDelta(StackHot &H, int64_t DeltaB,
                                              uint64_t ClockNow) {
  if (!H.CountStacks || DeltaB == 0)
    return true; // onStackDelta would ignore it
  uint64_t StacksB = H.StacksB, TimeB = H.TimeB;
  if (DeltaB > 0) {
    StacksB += uint64_t(DeltaB);
    TimeB += uint64_t(DeltaB);
  } else {
    uint64_t Down = uint64_t(-DeltaB);
    if (H.HeapB + H.ExtraB + StacksB > H.PeakLimitB)
      return false;
    StacksB -= Down < StacksB ? Down : StacksB;
    TimeB += Down;
  }
  int64_t Time = H.UnitB ? int64_t(TimeB) : int64_t(ClockNow - H.ClockBase);
  if (Time >= H.EarliestNext)
    return false;
  H.StacksB = StacksB;
  H.TimeB = TimeB;
  H.NumStackAllocs += DeltaB > 0;
  ++H.NumSkipped;
  return true;
}

/// A history-free estimate of Valgrind's allocator: the slop ("usable
/// minus requested") of a fresh block of ReqB bytes aligned to AlignB. The
/// Profile itself replays Valgrind's allocator (onMalloc) and is exact;
/// this is for callers that keep no history.
uint64_t modelSlopB(uint64_t ReqB, uint64_t AlignB);

/// Whether an xtree report named Name (expanded) is written in Massif's
/// format: Valgrind's rule, the name contains ".ms" anywhere.
inline bool xtreeNameIsMassifFormat(const char *Name) {
  for (const char *P = Name; *P; ++P)
    if (P[0] == '.' && P[1] == 'm' && P[2] == 's')
      return true;
  return false;
}

/// Massif's --stats=yes figures (its n_* counters): what the model has
/// done so far. Blocks are "ignored" when --alloc-fn/--ignore-fn leave
/// them charged to nothing; with --heap=no no heap event is counted.
struct ProfileStats {
  uint64_t HeapAllocs;   ///< blocks recorded, not ignored (a page each
                         ///< with --pages-as-heap=yes)
  uint64_t HeapReallocs; ///< reallocs of blocks not ignored
  uint64_t HeapFrees;    ///< frees of blocks not ignored
  uint64_t IgnoredHeapAllocs;
  uint64_t IgnoredHeapFrees;
  uint64_t IgnoredHeapReallocs; ///< reallocs of an ignored block, or to an
                                ///< ignored stack
  uint64_t StackAllocs;         ///< stack growths (--stacks=yes)
  uint64_t SkippedSnapshots;    ///< Normal attempts with no snapshot due
  uint64_t RealSnapshots;       ///< snapshots taken, culled ones included
  uint64_t DetailedSnapshots;
  uint64_t PeakSnapshots;
  uint64_t Cullings;
};

/// Massif's --stats=yes lines for S ("heap allocs:           10", ...),
/// one at a time through T, in Massif's order (Stats.cpp).
void traceStats(const ProfileStats &S, const SnapshotTrace &T);

class Profile {
public:
  /// Sets up an empty profile. Depot must be initialised; the symbolizer is
  /// used at events only when --ignore-fn or --alloc-fn decisions need names
  /// and at write time. Returns false when memory is exhausted.
  bool init(const Options &O, const Allocator &A, StackDepot &Depot,
            const Symbolizer &Sym, const Clock &C);

  /// Where Valgrind would place the client heap's first superblock in this
  /// process (the model's block addresses follow it); before startup().
  void setClientHeapBase(uint64_t Addr);

  /// The start-up snapshot (snapshot 0, time 0).
  void startup();

  /// Sends Massif's -v -v lines about snapshots through T (verbosity 2 and
  /// more); call before startup().
  void setSnapshotTrace(const SnapshotTrace &T);

  /// A block from the program's allocator (malloc, calloc, new, memalign,
  /// valloc, aligned new, ...) of ReqB useful bytes at Addr, charged to
  /// Stack. AlignB is 0 for the unaligned forms (they get --alignment) or
  /// the alignment the program asked for. Its slop is what Valgrind's
  /// allocator would hand out after the same history: the model replays
  /// that allocator (ClientArena.h), ignored blocks included.
  void onMalloc(uint64_t Addr, uint64_t ReqB, uint64_t AlignB, StackId Stack);

  /// A block of ReqB useful bytes at Addr with the given slop, charged to
  /// Stack: for blocks outside Valgrind's allocator (client requests) or
  /// engines that know the slop. It takes no part in the replay.
  void onAlloc(uint64_t Addr, uint64_t ReqB, uint64_t SlopB, StackId Stack);

  /// A free/delete of Addr; unknown addresses are ignored. Returns whether
  /// the block was known. FreeStack, the freeing call's stack, is needed
  /// only with --xtree-memory=full (0 otherwise: the freed bytes are then
  /// charged to no stack).
  bool onFree(uint64_t Addr, StackId FreeStack = 0);

  /// realloc(OldAddr, NewReqB) that returned NewAddr (equal to OldAddr when
  /// in place). NewSlopB is the slop if the block had to move. Returns false
  /// (and changes nothing) when OldAddr is unknown. Whether the block
  /// shrinks, fits its slop or grows is decided from the block's own record,
  /// as Massif does. NewReqB == 0 is Massif's realloc(p, 0): a free of
  /// OldAddr (NewAddr and NewSlopB are ignored). realloc(NULL, n) is an
  /// onAlloc, charged to the realloc's stack.
  bool onRealloc(uint64_t OldAddr, uint64_t NewAddr, uint64_t NewReqB,
                 uint64_t NewSlopB, StackId Stack);

  /// The same for a program's realloc, with the new block (if it must
  /// move) taken from the replayed allocator, as onMalloc, after which the
  /// old one is released there, in Massif's order.
  bool onRealloc(uint64_t OldAddr, uint64_t NewAddr, uint64_t NewReqB,
                 StackId Stack);

  /// --pages-as-heap=yes: LenB bytes of pages mapped at Addr (page
  /// aligned), charged to Stack. As Massif, each page is a block of its
  /// own with no slop, and only the last page's record may take a
  /// snapshot.
  void onPages(uint64_t Addr, uint64_t LenB, StackId Stack);

  /// The pages of [Addr, Addr + LenB) unmapped: each known page is freed,
  /// and only the first one's release may take snapshots (Massif's order).
  void onUnmapPages(uint64_t Addr, uint64_t LenB);

  /// The page size of onPages and onUnmapPages.
  static constexpr uint64_t PageB = 4096;

  /// Stack growth (positive) or shrink (negative) for --stacks=yes.
  void onStackDelta(int64_t DeltaB);

  /// The model's totals and thresholds, for tryStackDelta. Valid for the
  /// life of the profile.
  StackHot *stackHot();

  /// Massif's --stats=yes figures so far (all zero without a model).
  ProfileStats stats() const;

  /// Requested and slop bytes of the live block at Addr, if known.
  bool findBlock(uint64_t Addr, uint64_t &ReqB, uint64_t &SlopB) const;

  /// Writes the whole massif.out text: the snapshot array as it is now.
  /// Changes nothing, so it may be called mid-run (Massif's all_snapshots
  /// monitor command) and again later. Returns false on an I/O error.
  bool write(const Sink &Out, const RunInfo &Run);

  /// Writes an xtree memory report of the current state (spec section
  /// 7.3) to Out, at any time before discardBlocks: with
  /// --xtree-memory=full the counters kept since start-up, otherwise (also
  /// with `none`, as Massif's `xtmemory` monitor command) the live blocks
  /// as `allocs` reports them. In Massif's format when MassifFormat (the
  /// expanded file name contains ".ms"), else in callgrind format. Pid is
  /// the callgrind "pid:" line; TimeMs the time= of a Massif-format report
  /// (milliseconds since start-up). Returns false on an I/O error.
  bool writeXtree(const Sink &Out, const RunInfo &Run, bool MassifFormat,
                  int64_t Pid, uint64_t TimeMs);

  /// Writes the site statistics (SiteStats.h) in the format of
  /// include/massif/format.h: per allocation stack, cut as the trees cut
  /// it, its calls, temporary allocations and live blocks now, and the
  /// sizes asked for. Changes nothing but the deferred classification of
  /// stacks. Returns false on an I/O error.
  bool writeSites(const Sink &Out, const RunInfo &Run);

  /// Whether snapshots may be taken: start-up is done, or page mode.
  bool started() const;

  enum class NowResult { Written, NotStarted, IoError };

  /// Massif's snapshot and detailed_snapshot monitor commands: a file of
  /// one Normal snapshot, numbered 0, taken now. It is not added to the
  /// array and moves no threshold: culling, peaks and the next snapshots
  /// are as if it had not been taken. NotStarted before start-up (Massif
  /// refuses then, outside page mode).
  NowResult writeNow(const Sink &Out, const RunInfo &Run, bool Detailed);

  /// Gives back the memory of the live blocks' records (the block table
  /// and the replayed allocator), which writing does not need, so that a
  /// profile written at the end does not add its naming to their pages.
  /// No event may follow; findBlock then finds nothing.
  void discardBlocks();

  /// Tests: the blocks' insertion numbers are renumbered whenever they
  /// reach Limit (at most 2^32 - 1, where a long run renumbers them).
  void setInsertionLimitForTesting(uint64_t Limit);

  struct Impl;

private:
  Impl *P = nullptr;
};

} // namespace massif

#endif // MASSIF_CORE_PROFILE_H
