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

#include <pthread.h>

extern "C" void *__libc_stack_end; // the main thread's initial stack pointer

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

/// The registers that find the caller of the frame last stored.
struct Regs {
  uintptr_t Ip, Sp, Bp;
  bool Exact; ///< Ip is an interrupted instruction, not a return address
};

/// Stack memory the walk may read: [Lo, Hi).
struct Bounds {
  uintptr_t Lo, Hi;
  bool read(uintptr_t A, uintptr_t &V) const {
    if (A < Lo || A > Hi - sizeof(uintptr_t) || (A & 7) != 0)
      return false;
    V = *(const uintptr_t *)A;
    return true;
  }
};

/// One step through a frame of instrumented code.
bool stepFramePointer(const Regs &R, const Bounds &B, Regs &Out) {
  if (R.Bp < R.Sp)
    return false;
  uintptr_t Next, Ret;
  if (!B.read(R.Bp, Next) || !B.read(R.Bp + 8, Ret))
    return false;
  Out = Regs{Ret, R.Bp + 16, Next, false};
  return true;
}

/// One step by the .eh_frame rule; Patch is the slot holding the frame's
/// printed address (for the clone3 substitution).
bool stepRule(const Regs &R, const Bounds &B, Regs &Out, uint64_t *Patch) {
  FrameRule F;
  if (!lookupFrameRule(R.Exact ? R.Ip : R.Ip - 1, F))
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

} // namespace

uint32_t native::captureStack(const UnwindStart &Start, uint64_t *Pcs,
                              uint32_t Max) {
  if (Max == 0)
    return 0;
  // Frame 0: the entry point's own frame (the runtime keeps frame pointers)
  // holds the return address into its caller.
  const uintptr_t *Entry = (const uintptr_t *)Start.EntryFrame;
  Regs R = {Entry[1], (uintptr_t)Entry + 16, Entry[0], false};
  Pcs[0] = R.Ip - 1;
  // Bounds that do not contain the entry frame (a signal handler on an
  // alternate stack) say nothing about the frames above it.
  if (!onStack(Start, Start.EntryFrame))
    return 1;
  Bounds B = {(uintptr_t)Start.EntryFrame, Start.StackHi};
  uint32_t N = 1;
  if (Start.ResumeFrame) {
    // An entry point called a library function that called malloc: skip
    // from that function's frame to the entry point's caller.
    const uintptr_t *Resume = (const uintptr_t *)Start.ResumeFrame;
    if (!onStack(Start, Resume) || Resume < Entry || N == Max)
      return N;
    R = Regs{Resume[1], (uintptr_t)Resume + 16, Resume[0], false};
    Pcs[N++] = R.Ip - 1;
  }
  if (__builtin_expect(
          __atomic_load_n(&NumFramePointerRanges, __ATOMIC_ACQUIRE) == 0, 0))
    initModules();

  while (N < Max) {
    Regs Next;
    // An interrupted instruction may lie in a prologue, before the frame
    // pointer is set up: only return addresses trust the chain.
    bool Ok = !R.Exact && inFramePointerCode(R.Ip)
                  ? stepFramePointer(R, B, Next)
                  : stepRule(R, B, Next, &Pcs[N - 1]);
    if (!Ok || Next.Ip < 4096 || Next.Sp <= R.Sp)
      break;
    // Valgrind prints every outer frame as its address minus 1, even the
    // instruction a signal interrupted.
    Pcs[N++] = Next.Ip - 1;
    R = Next;
  }
  return N;
}

void native::findStackBounds(uintptr_t &Lo, uintptr_t &Hi) {
  pthread_attr_t Attr;
  Lo = Hi = 0;
  if (pthread_getattr_np(pthread_self(), &Attr) == 0) {
    void *Addr = nullptr;
    size_t SizeB = 0;
    if (pthread_attr_getstack(&Attr, &Addr, &SizeB) == 0) {
      Lo = (uintptr_t)Addr;
      Hi = (uintptr_t)Addr + SizeB;
    }
    pthread_attr_destroy(&Attr);
  }
  // The main thread's frames all lie below its initial stack pointer, which
  // also bounds it when /proc is unavailable to pthread_getattr_np.
  uintptr_t MainHi = (uintptr_t)__libc_stack_end;
  if (Hi == 0 && MainHi != 0) {
    uintptr_t Here = (uintptr_t)__builtin_frame_address(0);
    if (Here < MainHi)
      Hi = MainHi; // Lo stays 0: below the current frame nothing is read
  }
}

uintptr_t native::findStackHi() {
  uintptr_t Lo, Hi;
  findStackBounds(Lo, Hi);
  return Hi;
}
