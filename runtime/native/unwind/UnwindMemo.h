//===- UnwindMemo.h - What a thread's stack walks remember ------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The memos of Unwind.cpp: runs of .eh_frame steps (RunMemo) and the rest
// of recent captures (TailMemo), replayed when a walk starts again from
// the same state and the stack still holds every word the first walk
// read. Each thread keeps its memos in one CaptureCache, mapped on its
// first capture and released when it exits, so that the thread's area
// (ThreadArea.h) holds only a pointer to them.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_UNWINDMEMO_H
#define MASSIF_NATIVE_UNWINDMEMO_H

#include "ThreadArea.h"
#include "Unwind.h"

namespace massif {
namespace native {

/// The registers that find the caller of the frame last stored.
struct Regs {
  uintptr_t Ip, Sp, Bp;
  bool Exact; ///< Ip is an interrupted instruction, not a return address
};

/// Two adjacent stack words: a frame's saved frame pointer and return
/// address, compared in one 16-byte load.
typedef uint64_t WordPair __attribute__((vector_size(16)));

/// A run of .eh_frame steps from (Ip, Sp, Bp): its frames, where it ended,
/// and the stack words it read.
constexpr uint32_t MaxMemoFrames = 16, MaxMemoReads = 32;
struct RunMemo {
  uintptr_t Ip, Sp, Bp;
  bool Exact;
  bool Valid;
  bool Continues;      ///< the run ended in instrumented code, at Out
  uint32_t Generation; ///< ruleGeneration() when recorded
  uint32_t NumFrames;
  uint64_t PatchPrev; ///< replaces the frame before the run, when non-zero
  uint64_t Pcs[MaxMemoFrames];
  Regs Out;
  uint32_t NumReads;
  uintptr_t ReadAddr[MaxMemoReads];
  uintptr_t ReadValue[MaxMemoReads];
};

/// Four sets of two run memos, chosen by the starting address, so that a
/// library's run and the run below main do not evict each other.
constexpr uint32_t NumMemoSets = 4, NumMemoWays = 2;
struct MemoSet {
  RunMemo Ways[NumMemoWays];
  uint32_t Next; ///< the way to replace next
};

/// The rest of a capture from its first frame outward, keyed by the state
/// it started in, with every stack word the walk read after it. Sized for
/// the captures of --depth=30 (38 frames) with room: a walk of more than
/// 48 frames is not memoised. Smaller memos, more of them.
constexpr uint32_t TailMaxFrames = 48, TailMaxPairs = 48, TailMaxSingles = 32;
struct TailMemo {
  uintptr_t Ip, Sp, Bp;
  uintptr_t Stop; ///< UnwindStart::StopFrame, which decides where it ended
  bool Valid;
  bool Cut; ///< the walk stopped at Max frames, not at the end of the stack
  uint32_t Generation;
  uint32_t NumFrames, NumPairs, NumSingles;
  StackIdMemo Ids; ///< for captureStackId
  uint64_t Pcs[TailMaxFrames];
  WordPair PairValue[TailMaxPairs];
  uintptr_t PairAddr[TailMaxPairs];
  uintptr_t SingleAddr[TailMaxSingles];
  uintptr_t SingleValue[TailMaxSingles];
};

/// A thread's memos. A hundred and twenty-eight tail memos, in sets of two
/// chosen by the starting state: a recursive parser allocates at a few
/// sites from many depths, each a state of its own, and a site called at
/// one depth from two callers keeps both stacks. (jsoncpp's bench-1: 261k
/// of 561k captures walked with 64 memos, one to a set, 225k now.)
constexpr uint32_t TailSetBits = 6, TailWays = 2;
struct CaptureCache {
  MemoSet Runs[NumMemoSets];
  TailMemo Tails[(1u << TailSetBits) * TailWays];
  uint8_t TailLast[1u << TailSetBits]; ///< the way used last, in each set

  MemoSet &runsFor(uintptr_t Ip) {
    return Runs[((Ip * 0x9E3779B97F4A7C15ull) >> 62) & (NumMemoSets - 1)];
  }
  /// The set of tail memos for a starting state.
  uint32_t tailSet(uintptr_t Ip, uintptr_t Sp) const {
    return ((Ip ^ (Sp << 7)) * 0x9E3779B97F4A7C15ull) >> (64 - TailSetBits);
  }
  TailMemo &tail(uint32_t Set, uint32_t Way) {
    return Tails[Set * TailWays + Way];
  }
};

/// Maps the calling thread's memos; null when memory is exhausted or the
/// thread is exiting.
CaptureCache *mapCaptureCache();

/// The calling thread's memos, mapped on first use; null when they cannot
/// be (walks then go without memos).
inline CaptureCache *threadCaptureCache() {
  if (CaptureCache *C = threadArea().Cache)
    return C;
  return mapCaptureCache();
}

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_UNWINDMEMO_H
