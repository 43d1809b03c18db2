//===- Record.cpp - Recording allocation events into the model ------------===//
//
// Part of massif-native, under the MIT licence.
//
// The part of every event after the real allocation: capture the stack and
// intern it (no lock), then one short critical section around the model.
// Frees are recorded before the memory goes back to glibc and reallocs are
// performed inside the critical section, so an address is never live twice
// in the model when threads race to reuse it; a program of one thread whose
// events the model's thread applies (Applier.h) logs them instead, in its
// order.
//
//===----------------------------------------------------------------------===//

#include "Record.h"

#include "Applier.h"
#include "EventRing.h"
#include "LiveStarts.h"
#include "Unwind.h"

#include "massif/abi.h"


using namespace massif;
using namespace massif::native;

// main's frame once main has started; main sets it (llvm-pass/MainFrame.cpp).
extern "C" MASSIF_EXPORT void *__massif_main_frame = nullptr;

StackId native::captureAndIntern(ThreadState &T, const void *EntryFrame) {
  uintptr_t Stop =
      TheModel.StopAtMain
          ? (uintptr_t)__atomic_load_n(&__massif_main_frame, __ATOMIC_RELAXED)
          : 0;
  UnwindStart Start = {EntryFrame, T.ResumeFrame, T.StackLo, T.StackHi, Stop};
  return captureStackId(Start, *TheModel.Depot, TheModel.CaptureMax);
}

static bool active() {
  return __atomic_load_n(&TheState, __ATOMIC_ACQUIRE) == StateActive;
}

StackId native::captureWithReplacementFrame(ThreadState &T,
                                            const void *EntryFrame,
                                            uint64_t ReplacementPc) {
  uintptr_t Stop =
      TheModel.StopAtMain
          ? (uintptr_t)__atomic_load_n(&__massif_main_frame, __ATOMIC_RELAXED)
          : 0;
  UnwindStart Start = {EntryFrame, T.ResumeFrame, T.StackLo, T.StackHi, Stop};
  uint64_t Pcs[256];
  uint32_t Max = TheModel.CaptureMax < 255 ? TheModel.CaptureMax : 255;
  Pcs[0] = ReplacementPc;
  uint32_t N = captureStack(Start, Pcs + 1, Max);
  return TheModel.Depot->intern(Pcs, N + 1);
}

void native::recordAlloc(ThreadState &T, void *P, size_t ReqB, size_t AlignB,
                         const void *EntryFrame, uint64_t ReplacementPc) {
  StackId Stack = ReplacementPc
                      ? captureWithReplacementFrame(T, EntryFrame, ReplacementPc)
                      : captureAndIntern(T, EntryFrame);
  if (ringAlloc(P, ReqB, AlignB, Stack))
    return;
  {
    ModelLock L;
    // The model replays Valgrind's allocator to find the slop.
    if (active())
      TheModel.Prof->onMalloc((uint64_t)P, ReqB, AlignB, Stack);
  }
  noteDirectEvent();
}

void native::catchUpFor(uint64_t Addr) {
  applyOwnRing();
  uint64_t ReqB, SlopB;
  if (!__atomic_load_n(&__libc_single_threaded, __ATOMIC_RELAXED) &&
      !TheModel.Prof->findBlock(Addr, ReqB, SlopB))
    applyAllRings();
}

void native::recordFree(void *P, StackId FreeStack) {
  {
    ModelLock L;
    if (!active())
      return;
    catchUpFor((uint64_t)P);
    TheModel.Prof->onFree((uint64_t)P, FreeStack);
  }
  noteDirectEvent();
}

StackId native::captureFreeStack(ThreadState &T, const void *EntryFrame,
                                 uint64_t ReplacementPc) {
  return ReplacementPc
             ? captureWithReplacementFrame(T, EntryFrame, ReplacementPc)
             : captureAndIntern(T, EntryFrame);
}

void *native::reallocAndRecord(ThreadState &T, void *P, size_t SizeB,
                               const void *EntryFrame) {
  StackId Stack = captureAndIntern(T, EntryFrame);
  if (singleProducer()) {
    // The model's thread meets it in this thread's order, after the free
    // or allocation that could hand out the same address.
    void *NewP = glibcRealloc(P, SizeB);
    TheLiveStarts.mark(NewP ? NewP : P);
    if (NewP)
      ringRealloc(P, NewP, SizeB, Stack);
    return NewP;
  }
  void *NewP;
  {
    ModelLock L;
    if (active())
      catchUpFor((uint64_t)P);
    NewP = glibcRealloc(P, SizeB);
    // P was claimed (LiveStarts.h); on failure the old block is untouched
    // and live again, and the model is untouched too.
    TheLiveStarts.mark(NewP ? NewP : P);
    if (NewP && active())
      TheModel.Prof->onRealloc((uint64_t)P, (uint64_t)NewP, SizeB, Stack);
  }
  noteDirectEvent();
  return NewP;
}

size_t native::usableSize(void *P, bool Recorded) {
  // Where no live block begins, glibc would read whatever lies before P;
  // Massif answers 0.
  if (!P || !TheLiveStarts.isLive(P))
    return 0;
  size_t RealB = glibcUsableSize(P);
  uint64_t ReqB = 0, SlopB = 0;
  bool Known = false;
  if (Recorded) {
    ModelLock L;
    if (active()) {
      applyOwnRing();
      Known = TheModel.Prof->findBlock((uint64_t)P, ReqB, SlopB);
    }
  }
  if (Known && ReqB + SlopB < RealB)
    return (size_t)(ReqB + SlopB);
  return RealB;
}
