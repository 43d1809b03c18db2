//===- Unwind.cpp - Frame-pointer and .eh_frame stack walk ----------------===//
//
// Part of massif-native, under the MIT licence.
//
// The walk keeps, for the frame whose address it just stored, the three
// registers that find its caller: IP (the return address into it, or the
// interrupted instruction after a signal frame), SP (the stack pointer it
// had at the call) and BP. On x86-64 with frame pointers every instrumented
// frame starts with
//
//     [BP + 8]  return address into the caller
//     [BP + 0]  the caller's saved frame pointer
//
// so the step there reads two words. Elsewhere the .eh_frame rule of IP says
// where the caller's SP (the CFA), return address and BP are. Frame pointers
// are restored through uninstrumented code exactly as the CFI describes, so
// the walk switches back to the cheap chain at the first instrumented frame
// above a library. Code built without frame pointers leaves an arbitrary
// value in BP; since every word is read only after a bounds check against
// [entry frame, top of stack) and the stack pointer must grow at every step,
// a wrong value ends the walk, never faults or loops.
//
//===----------------------------------------------------------------------===//

#include "Unwind.h"

#include "FrameRules.h"
#include "Modules.h"
#include "UnwindMemo.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>


using namespace massif;
using namespace massif::native;

uint32_t native::walkFramePointers(const void *Fp, uintptr_t StackHi,
                                   uint64_t *Pcs, uint32_t Max) {
  uint32_t N = 0;
  uintptr_t Frame = (uintptr_t)Fp;
  while (N < Max) {
    if (Frame == 0 || (Frame & 7) != 0)
      break;
    // Without known bounds only the first frame (the caller's own, always
    // valid) is trusted.
    if (StackHi == 0 ? N > 0 : Frame + 2 * sizeof(uintptr_t) > StackHi)
      break;
    const uintptr_t *Words = (const uintptr_t *)Frame;
    uintptr_t Ret = Words[1];
    if (Ret < 4096) // not a code address: a zeroed or garbage frame
      break;
    Pcs[N++] = Ret - 1;
    uintptr_t Next = Words[0];
    if (Next <= Frame)
      break;
    Frame = Next;
  }
  return N;
}

namespace {

bool onStack(const UnwindStart &Start, const void *Frame) {
  uintptr_t F = (uintptr_t)Frame;
  return F >= Start.StackLo && F < Start.StackHi;
}

/// Start moved onto the alternate signal stack the thread runs on, when
/// Start's entry frame lies there. The walk then keeps to that stack as
/// Valgrind's does: through the handler and the signal frame to the
/// interrupted instruction, whose caller's frame lies off it.
bool onAltStack(const UnwindStart &Start, UnwindStart &Alt) {
  stack_t Ss;
  if (sigaltstack(nullptr, &Ss) != 0 || !(Ss.ss_flags & SS_ONSTACK))
    return false;
  Alt = Start;
  Alt.StackLo = (uintptr_t)Ss.ss_sp;
  Alt.StackHi = (uintptr_t)Ss.ss_sp + Ss.ss_size;
  return onStack(Alt, Start.EntryFrame);
}

/// Stack words the walk read, to check later that the stack still holds
/// them. The arrays belong to a memo.
struct ReadLog {
  uintptr_t *Addr;
  uintptr_t *Value;
  uint32_t Count, Cap;
  bool Overflow;

  void add(uintptr_t A, uintptr_t V) {
    if (Count == Cap) {
      Overflow = true;
      return;
    }
    Addr[Count] = A;
    Value[Count++] = V;
  }
};

/// Whether the stack still holds every word of a log.
bool unchanged(const uintptr_t *Addr, const uintptr_t *Value, uint32_t Count,
               uintptr_t Lo, uintptr_t Hi) {
  bool Same = true;
  // No early exit: the loads are independent, let them overlap.
  for (uint32_t I = 0; I < Count; ++I) {
    uintptr_t A = Addr[I];
    Same &= A >= Lo && A <= Hi - sizeof(uintptr_t) &&
            *(const uintptr_t *)A == Value[I];
  }
  return Same;
}

/// The frame records the frame-pointer walk read: Value[I] is the pair at
/// Addr[I]. The arrays belong to a memo.
struct PairLog {
  uintptr_t *Addr;
  WordPair *Value;
  uint32_t Count, Cap;
  bool Overflow;

  void add(uintptr_t A, uintptr_t Next, uintptr_t Ret) {
    if (Count == Cap) {
      Overflow = true;
      return;
    }
    Addr[Count] = A;
    Value[Count++] = WordPair{Next, Ret};
  }
};

/// Stack memory the walk may read: [Lo, Hi). Reads go to the logs set.
struct Bounds {
  uintptr_t Lo, Hi;
  ReadLog *Log;     // of the current run of rule steps
  ReadLog *TailLog; // of the whole capture, while it is recorded
  bool read(uintptr_t A, uintptr_t &V) const {
    if ((A & 7) != 0)
      return false;
    return readAny(A, V);
  }
  /// read, at any alignment (Valgrind's fallbacks do not check it).
  bool readAny(uintptr_t A, uintptr_t &V) const {
    if (A < Lo || A > Hi - sizeof(uintptr_t))
      return false;
    memcpy(&V, (const void *)A, sizeof(V));
    if (Log)
      Log->add(A, V);
    if (TailLog)
      TailLog->add(A, V);
    return true;
  }
};

/// One step by the .eh_frame rule; Patch is the slot holding the frame's
/// printed address (for the clone3 substitution).
bool stepRule(const Regs &R, const Bounds &B, Regs &Out, uint64_t *Patch) {
  FrameRule F;
  uint64_t Addr = R.Exact ? R.Ip : R.Ip - 1;
  bool Computed;
  bool Known = lookupFrameRule(Addr, F, Computed);
  if (Computed)
    noteModuleAt(Addr); // met for the first time: classify its object
  if (!Known)
    return false;
  if (F.Clone3Start) {
    if (uint64_t Pc = threadStartPc())
      *Patch = Pc;
  }
  if (F.Ra == FrameRule::Undefined)
    return false; // the outermost frame
  uintptr_t Cfa;
  switch (F.Cfa) {
  case FrameRule::CfaSp:
    Cfa = R.Sp + F.CfaOff;
    break;
  case FrameRule::CfaBp:
    Cfa = R.Bp + F.CfaOff;
    break;
  case FrameRule::CfaDerefSp:
    if (!B.read(R.Sp + F.CfaOff, Cfa))
      return false;
    break;
  case FrameRule::CfaDerefBp:
    if (!B.read(R.Bp + F.CfaOff, Cfa))
      return false;
    break;
  default:
    return false;
  }
  uintptr_t Ret, Bp = R.Bp;
  uintptr_t RaAt = (F.Ra == FrameRule::AtSp ? R.Sp : Cfa) + F.RaOff;
  if (!B.read(RaAt, Ret))
    return false;
  if (F.Bp != FrameRule::Same) {
    uintptr_t BpAt = (F.Bp == FrameRule::AtSp ? R.Sp : Cfa) + F.BpOff;
    if (F.Bp == FrameRule::Undefined || !B.read(BpAt, Bp))
      Bp = 0;
  }
  Out = Regs{Ret, Cfa, Bp, F.Signal};
  return true;
}

/// What Valgrind's amd64 walk (m_stacktrace.c) does with a frame its
/// call-frame information cannot step: no entry covers the address (ld.so's
/// _dl_start_user, below _dl_init), the return address is undefined (the
/// outermost frames, _start and a thread's start), or a word lies off the
/// stack. With BP in the stack, it follows the frame-pointer chain one
/// frame; else, with SP in the stack, it takes the word at SP for a return
/// address and moves SP one word on (its "last-ditch hack"), so that past
/// such a frame it lists the words on the stack (argc, the argv pointers)
/// up to a 0 or a 1. The bounds are Valgrind's, on [Lo, Hi): BP at most
/// Hi - 16, SP below Hi - 8. Scanned is set for the second way: the
/// registers then describe no real frame. A return address of 0 or 1 ends
/// Valgrind's walk wherever it is found; here only frame 0 can be one.
bool stepFallback(const Regs &R, const Bounds &B, Regs &Out, bool &Scanned) {
  constexpr uintptr_t W = sizeof(uintptr_t);
  uintptr_t Ret, Next;
  if (R.Ip <= 1)
    return false;
  if (R.Bp >= B.Lo && R.Bp <= B.Hi - 2 * W) {
    if (!B.readAny(R.Bp + W, Ret) || Ret <= 1 || R.Bp + 2 * W <= R.Sp ||
        !B.readAny(R.Bp, Next))
      return false;
    Out = Regs{Ret, R.Bp + 2 * W, Next, false};
    Scanned = false;
    return true;
  }
  if (R.Sp >= B.Lo && R.Sp < B.Hi - W) {
    if (!B.readAny(R.Sp, Ret) || Ret <= 1)
      return false;
    Out = Regs{Ret, R.Sp + W, R.Bp, false};
    Scanned = true;
    return true;
  }
  return false;
}

/// Recent runs of .eh_frame steps of this thread, replayed when a capture
/// enters uninstrumented code in the same state and the stack still holds
/// every word the run read: the steps are a function of the starting
/// registers, the rules (fixed per address while the rule generation does
/// not change) and those words. Every stack of the main thread ends in the
/// same few libc frames below main, every other thread's in start_thread
/// and clone; loops calling into a library repeat their runs too. Four
/// sets of two, chosen by the starting address, so that a library's run and
/// the run below main do not evict each other.
bool replay(const RunMemo &M, Regs &R, const Bounds &B, uint64_t *Pcs,
            uint32_t &N, uint32_t Max) {
  if (!M.Valid || M.Ip != R.Ip || M.Sp != R.Sp || M.Bp != R.Bp ||
      M.Exact != R.Exact || N + M.NumFrames > Max ||
      M.Generation != ruleGeneration() ||
      !unchanged(M.ReadAddr, M.ReadValue, M.NumReads, B.Lo, B.Hi))
    return false;
  if (B.TailLog)
    for (uint32_t I = 0; I < M.NumReads; ++I)
      B.TailLog->add(M.ReadAddr[I], M.ReadValue[I]);
  if (M.PatchPrev)
    Pcs[N - 1] = M.PatchPrev;
  for (uint32_t I = 0; I < M.NumFrames; ++I)
    Pcs[N++] = M.Pcs[I];
  R = M.Out;
  return true;
}

/// Steps by .eh_frame rules from R (a frame outside instrumented code,
/// already stored as Pcs[N - 1]) until the walk ends or reaches
/// instrumented code. Returns whether the walk goes on (from R). Memos
/// come from Cache, if any.
__attribute__((noinline)) bool ruleRun(Regs &R, const Bounds &B,
                                       uint64_t *Pcs, uint32_t &N,
                                       uint32_t Max, CaptureCache *Cache) {
  MemoSet *Set = Cache ? &Cache->runsFor(R.Ip) : nullptr;
  if (Set)
    for (RunMemo &Way : Set->Ways)
      if (replay(Way, R, B, Pcs, N, Max))
        return Way.Continues;
  uint32_t Generation = ruleGeneration();
  uintptr_t Addr[MaxMemoReads], Value[MaxMemoReads];
  ReadLog Log = {Addr, Value, 0, MaxMemoReads, false};
  Bounds Logged = {B.Lo, B.Hi, &Log, B.TailLog};
  Regs Start = R;
  uint32_t First = N;
  uint64_t Prev = Pcs[N - 1];
  bool Continues = false, Ended = false;
  while (N < Max) {
    Regs Next;
    bool Scanned = false;
    if (stepRule(R, Logged, Next, &Pcs[N - 1])) {
      if (Next.Ip < 4096 || Next.Sp <= R.Sp) {
        Ended = true;
        break;
      }
    } else if (!stepFallback(R, Logged, Next, Scanned)) {
      Ended = true;
      break;
    }
    // Valgrind prints every outer frame as its address minus 1, even the
    // instruction a signal interrupted.
    Pcs[N++] = Next.Ip - 1;
    R = Next;
    // After a scanned word the registers are no frame's: Valgrind goes on
    // by call-frame rules (the chain would read a stale BP), and so do we.
    if (!Scanned && !R.Exact && inFramePointerCode(R.Ip)) {
      Continues = true;
      break;
    }
  }
  if (Set && (Ended || Continues) && !Log.Overflow &&
      N - First <= MaxMemoFrames) {
    RunMemo &M = Set->Ways[Set->Next];
    M.Valid = false;
    M.Ip = Start.Ip;
    M.Sp = Start.Sp;
    M.Bp = Start.Bp;
    M.Exact = Start.Exact;
    M.Continues = Continues;
    M.Generation = Generation;
    M.NumFrames = N - First;
    M.PatchPrev = Pcs[First - 1] != Prev ? Pcs[First - 1] : 0;
    for (uint32_t I = 0; I < M.NumFrames; ++I)
      M.Pcs[I] = Pcs[First + I];
    M.Out = R;
    M.NumReads = Log.Count;
    for (uint32_t I = 0; I < Log.Count; ++I) {
      M.ReadAddr[I] = Addr[I];
      M.ReadValue[I] = Value[I];
    }
    M.Valid = true;
    Set->Next = (Set->Next + 1) % NumMemoWays;
  }
  return Continues;
}

/// The rest of a recent capture of this thread, from its first frame
/// outward, with every stack word the walk read after it: when the next
/// capture starts in the same state (the same call site, at the same stack
/// position) and the stack still holds those words, the walk would read
/// and find the same, so the recorded frames are copied instead, or, when
/// only the stack's id is wanted, the id interned last time is returned.
/// The check loads words whose addresses are known in advance, in
/// parallel, a frame record (saved frame pointer and return address) in
/// one 16-byte load; the walk loads each frame pointer from the one before.
/// A loop allocating at one site, or a function called from one, hits
/// every time (UnwindMemo.h: TailMemo).

/// Whether the stack still holds every word T read (its addresses lie in
/// the stack bounds, the same as when recorded). Out of line: inlined into
/// the test of each of a set's ways, it made the common case longer.
__attribute__((noinline)) bool sameTail(const TailMemo &T) {
  // Four records a step, their loads and compares independent of one
  // another (a deep stack, lua's interpreter, compares 18 records a
  // capture; a shallow one, one or two).
  auto at = [&T](uint32_t I) {
    WordPair V;
    memcpy(&V, (const void *)T.PairAddr[I], sizeof(V));
    return V ^ T.PairValue[I];
  };
  WordPair Pairs = {0, 0};
  uint32_t I = 0;
  for (; I + 4 <= T.NumPairs; I += 4)
    Pairs |= (at(I) | at(I + 1)) | (at(I + 2) | at(I + 3));
  for (; I < T.NumPairs; ++I)
    Pairs |= at(I);
  uintptr_t Diff = Pairs[0] | Pairs[1];
  for (uint32_t I = 0; I < T.NumSingles; ++I)
    Diff |= *(const uintptr_t *)T.SingleAddr[I] ^ T.SingleValue[I];
  return Diff == 0;
}

/// Whether T replays a capture from state R whose first N frames are
/// stored already, up to Max frames: it was recorded from R, with the same
/// end of the walk and the same rules, and the stack still holds what it
/// read.
bool replays(const TailMemo &T, const Regs &R, uintptr_t Stop, uint32_t N,
             uint32_t Max) {
  return T.Valid && T.Ip == R.Ip && T.Sp == R.Sp && T.Bp == R.Bp &&
         T.Stop == Stop &&
         (T.Cut ? N + T.NumFrames == Max : N + T.NumFrames <= Max) &&
         T.Generation == ruleGeneration() && sameTail(T);
}

/// The tail memo of a capture from state R: the way of R's set that
/// replays it (Hit), or else the way to record the walk over, the one the
/// set used less recently.
struct TailLookup {
  TailMemo *T;
  bool Hit;
};
MASSIF_ALWAYS_INLINE TailLookup lookupTail(CaptureCache &C, const Regs &R,
                                           uintptr_t Stop, uint32_t N,
                                           uint32_t Max) {
  uint32_t Set = C.tailSet(R.Ip, R.Sp);
  TailMemo *Ways = &C.tail(Set, 0);
  for (uint32_t Way = 0; Way < TailWays; ++Way)
    if (replays(Ways[Way], R, Stop, N, Max)) {
      C.TailLast[Set] = (uint8_t)Way;
      return TailLookup{&Ways[Way], true};
    }
  uint32_t Way = (C.TailLast[Set] + 1) % TailWays;
  C.TailLast[Set] = (uint8_t)Way;
  return TailLookup{&Ways[Way], false};
}

/// What a capture found: the frames, and the tail memo it replayed (Hit)
/// or recorded; Memo is null when neither. With IdOnly, a replayed memo
/// whose id is known for these first frames leaves the frames after them
/// unwritten and sets Known.
struct CaptureResult {
  uint32_t N;
  TailMemo *Memo;
  bool Hit;
  StackId Known;
};

CaptureResult capture(const UnwindStart &Given, uint64_t *Pcs, uint32_t Max,
                      bool IdOnly, const TailLookup *Looked = nullptr) {
  CaptureResult Res = {0, nullptr, false, 0};
  if (Max == 0)
    return Res;
  // Frame 0: the entry point's own frame (the runtime keeps frame pointers)
  // holds the return address into its caller.
  const uintptr_t *Entry = (const uintptr_t *)Given.EntryFrame;
  Regs R = {Entry[1], (uintptr_t)Entry + 16, Entry[0], false};
  Pcs[0] = R.Ip - 1;
  Res.N = 1;
  // Off the thread's stack: a signal handler on an alternate stack, walked
  // within that stack; anywhere else, nothing is known of the callers.
  const UnwindStart *S = &Given;
  UnwindStart Alt;
  if (__builtin_expect(!onStack(Given, Given.EntryFrame), 0)) {
    if (!onAltStack(Given, Alt))
      return Res;
    S = &Alt;
  }
  const UnwindStart &Start = *S;
  Bounds B = {(uintptr_t)Start.EntryFrame, Start.StackHi, nullptr, nullptr};
  uint32_t N = 1;
  if (Start.ResumeFrame) {
    // An entry point called a library function that called malloc: skip
    // from that function's frame to the entry point's caller.
    const uintptr_t *Resume = (const uintptr_t *)Start.ResumeFrame;
    if (!onStack(Start, Resume) || Resume < Entry || N == Max)
      return Res;
    R = Regs{Resume[1], (uintptr_t)Resume + 16, Resume[0], false};
    Pcs[N++] = R.Ip - 1;
    Res.N = N;
  }
  if (__builtin_expect(
          __atomic_load_n(&NumFramePointerRanges, __ATOMIC_ACQUIRE) == 0, 0))
    initModules();

  // The rest of the stack as recorded from this state? (Looked: the
  // caller looked already, from this state with one frame stored.)
  uint32_t First = N;
  CaptureCache *Cache = threadCaptureCache();
  TailLookup Tail = {nullptr, false};
  if (Looked)
    Tail = *Looked;
  else if (Cache)
    Tail = lookupTail(*Cache, R, Start.StopFrame, N, Max);
  TailMemo *T = Tail.T;
  if (Tail.Hit) {
    Res.Memo = T;
    Res.Hit = true;
    const StackIdMemo &Ids = T->Ids;
    if (IdOnly && Ids.Id && Ids.NumHead == N && Pcs[0] == Ids.Head[0] &&
        (N < 2 || Pcs[1] == Ids.Head[1])) {
      Res.Known = Ids.Id;
      return Res;
    }
    for (uint32_t I = 0; I < T->NumFrames; ++I)
      Pcs[N++] = T->Pcs[I];
    Res.N = N;
    return Res;
  }
  // Walk, recording what is read for the next capture from this state
  // straight into the memo, which is valid again once the walk is done
  // (without a memo, the logs take nothing and overflow).
  ReadLog Singles = {nullptr, nullptr, 0, 0, false};
  PairLog Pairs = {nullptr, nullptr, 0, 0, false};
  if (T) {
    T->Valid = false;
    Singles = ReadLog{T->SingleAddr, T->SingleValue, 0, TailMaxSingles, false};
    Pairs = PairLog{T->PairAddr, T->PairValue, 0, TailMaxPairs, false};
  }
  B.TailLog = &Singles;
  Regs Key = R;
  uint32_t Generation = ruleGeneration();

  // The executable's code, its two largest ranges tested first, inline
  // (a loop over every range cost a third of jsoncpp's walks). The second
  // range may be another object's, or none yet.
  uintptr_t ExeLo = FramePointerRanges[0].Lo;
  uintptr_t ExeSizeB = FramePointerRanges[0].SizeB;
  uintptr_t Exe2Lo = 0, Exe2SizeB = 0;
  if (__atomic_load_n(&NumFramePointerRanges, __ATOMIC_ACQUIRE) > 1) {
    Exe2Lo = FramePointerRanges[1].Lo;
    Exe2SizeB = __atomic_load_n(&FramePointerRanges[1].SizeB, __ATOMIC_ACQUIRE);
  }
  // The frame-pointer chain runs on locals (R's address goes to ruleRun,
  // and stores into Pcs would otherwise force it back to memory each frame).
  uintptr_t Ip = R.Ip, Sp = R.Sp, Bp = R.Bp;
  const uintptr_t BpMax = B.Hi - 2 * sizeof(uintptr_t);
  const uintptr_t Stop = Start.StopFrame;
  for (;;) {
    bool Broken = false;
    while (N < Max && (Ip - ExeLo < ExeSizeB || Ip - Exe2Lo < Exe2SizeB ||
                       inFramePointerCode(Ip))) {
      // Bp is the frame of the function Ip returns into: at main's, the
      // last frame Massif keeps is stored.
      if (Bp < Sp || (Bp & 7) != 0 || Bp > BpMax || Bp == Stop) {
        Broken = true;
        break;
      }
      uintptr_t Next = ((const uintptr_t *)Bp)[0];
      uintptr_t Ret = ((const uintptr_t *)Bp)[1];
      Pairs.add(Bp, Next, Ret);
      if (Ret < 4096) { // not a code address: the end of the chain
        Broken = true;
        break;
      }
      Pcs[N++] = Ret - 1;
      Ip = Ret;
      Sp = Bp + 16;
      Bp = Next;
    }
    if (Broken || N == Max)
      break;
    // Uninstrumented code. A run of rules ends in instrumented code at a
    // return address (an interrupted instruction there may lie in a
    // prologue, before the frame pointer is set up, so the run goes on).
    R = Regs{Ip, Sp, Bp, false};
    uint32_t Count = N; // N stays in a register
    bool More = ruleRun(R, B, Pcs, Count, Max, Cache);
    N = Count;
    if (!More)
      break;
    Ip = R.Ip;
    Sp = R.Sp;
    Bp = R.Bp;
  }
  Res.N = N;
  // A walk cut by Max says nothing of what lies beyond: it is replayed only
  // when it would be cut at the same frame again.
  if (T && !Singles.Overflow && !Pairs.Overflow &&
      N - First <= TailMaxFrames) {
    T->Cut = N == Max;
    T->Ip = Key.Ip;
    T->Sp = Key.Sp;
    T->Bp = Key.Bp;
    T->Stop = Stop;
    T->Generation = Generation;
    T->NumFrames = N - First;
    memcpy(T->Pcs, Pcs + First, T->NumFrames * sizeof(uint64_t));
    T->NumPairs = Pairs.Count;
    T->NumSingles = Singles.Count;
    T->Ids.Id = 0;
    T->Valid = true;
    Res.Memo = T;
  }
  return Res;
}

/// Copies Pcs[0..N) without the runtime's own frames into Out; the number
/// copied. (They lie where the runtime calls on into glibc: rare, and
/// memos replay them, so they go here, once per stack interned.)
uint32_t withoutRuntimeFrames(const uint64_t *Pcs, uint32_t N, uint64_t *Out) {
  uint32_t Kept = 0;
  for (uint32_t I = 0; I < N; ++I) { // without a branch per frame
    Out[Kept] = Pcs[I];
    Kept += !isRuntimeCode(Pcs[I]);
  }
  return Kept;
}

} // namespace

uint32_t native::captureStack(const UnwindStart &Start, uint64_t *Pcs,
                              uint32_t Max) {
  uint64_t All[MaxCapturedFrames];
  uint32_t N = capture(Start, All, Max, /*IdOnly=*/false).N;
  return withoutRuntimeFrames(All, N, Pcs);
}

namespace {

/// captureStackId when no memo gives the id: the capture (Looked: the tail
/// memo looked up already), then the interning. On its own, so that the
/// common case does not set up these arrays.
__attribute__((noinline)) StackId captureAndIntern(const UnwindStart &Start,
                                                   StackDepot &Depot,
                                                   uint32_t Max,
                                                   const TailLookup *Looked) {
  uint64_t Pcs[MaxCapturedFrames], Kept[MaxCapturedFrames];
  CaptureResult C = capture(Start, Pcs, Max, /*IdOnly=*/true, Looked);
  if (C.Known)
    return C.Known;
  uint32_t NumHead = C.Memo ? C.N - C.Memo->NumFrames : 0;
  StackId Id = Depot.intern(Kept, withoutRuntimeFrames(Pcs, C.N, Kept));
  // Remember the id with the memo the walk recorded or replayed, for the
  // first frames it was interned with (at most two come before a memo).
  if (C.Memo && NumHead <= 2)
    C.Memo->Ids = StackIdMemo{Id, NumHead, {Pcs[0], NumHead > 1 ? Pcs[1] : 0}};
  return Id;
}

} // namespace

StackId native::captureStackId(const UnwindStart &Start, StackDepot &Depot,
                               uint32_t Max) {
  // The common case, kept short: the allocating call comes from the same
  // call site at the same stack position as a recent capture whose id is
  // known, and the stack still holds every word that capture's walk read.
  // Otherwise the capture goes on from what was looked up.
  const uintptr_t *Entry = (const uintptr_t *)Start.EntryFrame;
  CaptureCache *Cache = threadArea().Cache;
  if (!Cache || Start.ResumeFrame || Max == 0 || !onStack(Start, Entry))
    return captureAndIntern(Start, Depot, Max, nullptr);
  Regs R = {Entry[1], (uintptr_t)Entry + 16, Entry[0], false};
  TailLookup Tail = lookupTail(*Cache, R, Start.StopFrame, 1, Max);
  const StackIdMemo &Ids = Tail.T->Ids;
  if (Tail.Hit && Ids.Id && Ids.NumHead == 1 && Ids.Head[0] == R.Ip - 1)
    return Ids.Id;
  return captureAndIntern(Start, Depot, Max, &Tail);
}

void native::findStackBounds(uintptr_t &Lo, uintptr_t &Hi) {
  // The main thread's bounds come from the maps file, as glibc finds them
  // (Modules.h); another thread's from its descriptor. (A thread that
  // forked is its child's main thread, on a stack that does not hold
  // __libc_stack_end.)
  uintptr_t MainHi = initialStackPointer();
  uintptr_t Here = (uintptr_t)__builtin_frame_address(0);
  bool Main = MainHi != 0 && gettid() == getpid() &&
              mainStackFromMaps(MainHi, Lo, Hi) && Lo <= Here && Here < Hi;
  if (!Main) {
    Lo = Hi = 0;
    pthread_attr_t Attr;
    if (pthread_getattr_np(pthread_self(), &Attr) == 0) {
      void *Addr = nullptr;
      size_t SizeB = 0;
      if (pthread_attr_getstack(&Attr, &Addr, &SizeB) == 0) {
        Lo = (uintptr_t)Addr;
        Hi = (uintptr_t)Addr + SizeB;
      }
      pthread_attr_destroy(&Attr);
    }
  }
  // The main thread's frames all lie below its initial stack pointer, which
  // also bounds it when /proc is unavailable.
  if (Hi == 0 && MainHi != 0 && Here < MainHi)
    Hi = MainHi; // Lo stays 0: below the current frame nothing is read
  // glibc ends the main thread's stack at the end of the page holding the
  // initial stack pointer, but argc's words go on above it (argv, the
  // environment, the auxiliary vector and their strings) to the top of the
  // mapping, where the kernel put the program's name (AT_EXECFN). Valgrind
  // bounds the main thread's walk by that top, and the walk past _dl_init
  // and _start reads argv; a bound at the page's end cut it short when the
  // initial stack pointer lay in the last words of its page (ASLR: about
  // one run in a hundred with two arguments).
  if (MainHi != 0 && Lo <= MainHi && MainHi < Hi) {
    uintptr_t Name = (uintptr_t)getauxval(AT_EXECFN);
    if (Name >= Hi) {
      uintptr_t PageB = (uintptr_t)getauxval(AT_PAGESZ);
      uintptr_t Top = Name + strlen((const char *)Name) + 1;
      Hi = (Top + PageB - 1) & ~(PageB - 1);
    }
  }
}

extern "C" void *__libc_stack_end __attribute__((weak));

uintptr_t native::initialStackPointer() {
  return &__libc_stack_end ? (uintptr_t)__libc_stack_end : 0;
}

uintptr_t native::findStackHi() {
  uintptr_t Lo, Hi;
  findStackBounds(Lo, Hi);
  return Hi;
}
