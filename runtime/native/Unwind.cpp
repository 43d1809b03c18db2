//===- Unwind.cpp - Frame-pointer walk with validation --------------------===//
//
// Part of massif-native, under the MIT licence.
//
// On x86-64 with frame pointers every frame starts with
//
//     [Fp + 8]  return address into the caller
//     [Fp + 0]  the caller's saved frame pointer
//
// so the walk reads two words per frame. Code built without frame pointers
// leaves an arbitrary value in the frame-pointer register; the checks below
// (alignment, strictly increasing, inside this thread's stack) make such a
// value end the walk instead of faulting: every address between the current
// frame and the top of the stack is mapped.
//
//===----------------------------------------------------------------------===//

#include "Unwind.h"

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

static bool onStack(const UnwindStart &Start, const void *Frame) {
  uintptr_t F = (uintptr_t)Frame;
  return F >= Start.StackLo && F < Start.StackHi;
}

uint32_t native::captureStack(const UnwindStart &Start, uint64_t *Pcs,
                              uint32_t Max) {
  if (Max == 0)
    return 0;
  // Bounds that do not contain the entry frame say nothing about the frames
  // above it: trust only the first.
  uintptr_t Hi = onStack(Start, Start.EntryFrame) ? Start.StackHi : 0;
  if (!Start.ResumeFrame)
    return walkFramePointers(Start.EntryFrame, Hi, Pcs, Max);
  // Frame 0 is the return address into the library function that called
  // malloc; its callers up to the entry point are skipped.
  const uintptr_t *Words = (const uintptr_t *)Start.EntryFrame;
  Pcs[0] = Words[1] - 1;
  if (!onStack(Start, Start.ResumeFrame))
    return 1;
  return 1 + walkFramePointers(Start.ResumeFrame, Hi, Pcs + 1, Max - 1);
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
