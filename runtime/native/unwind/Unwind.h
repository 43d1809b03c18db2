//===- Unwind.h - Capturing the call stack of an allocation -----*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Stack capture starts at the frame of the runtime function the program
// called (an interposed malloc or a __massif_* entry point) and yields code
// addresses innermost first, each a return address minus 1, exactly the
// addresses Massif prints. Two ways of stepping to a caller are mixed frame
// by frame: through instrumented code (which keeps frame pointers) the
// frame-pointer chain, two loads per frame; through any other code (glibc,
// libstdc++, ld.so, a library built without frame pointers) the .eh_frame
// rule of the return address (FrameRules.h), one cached lookup per frame.
// Every word read is first checked to lie in the current thread's stack, so
// a wrong rule or a stale register ends the walk instead of faulting. Per
// thread memos replay what a capture from the same state found before,
// once the stack words it read are seen unchanged (Unwind.cpp).
//
// This folder (unwind/) owns stacks: the loaded objects (Modules.h), their
// .eh_frame rules (EhFrame.h, FrameRules.h), the walk and its memos. It
// reads the thread's area (state/ThreadArea.h, where the memos hang) and
// calls runtime/support and runtime/core only.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_UNWIND_H
#define MASSIF_NATIVE_UNWIND_H

#include "StackDepot.h"

#include <stddef.h>
#include <stdint.h>

namespace massif {
namespace native {

/// The most frames any capture returns: Massif's --depth maximum (200) plus
/// the 50 extra frames it unwinds.
constexpr uint32_t MaxCapturedFrames = 250;

/// Where a capture starts.
struct UnwindStart {
  /// __builtin_frame_address(0) of the runtime function the program called.
  const void *EntryFrame;
  /// When an entry point called an uninstrumented library function that
  /// called back into the interposed malloc (__massif_strdup -> strdup ->
  /// malloc), the entry point's frame: after the first frame (the return
  /// address into the library function) the walk resumes here, skipping the
  /// library's frames, which may lack frame pointers. Null otherwise.
  const void *ResumeFrame;
  /// The current thread's stack: [StackLo, StackHi). Frame pointers at or
  /// above StackHi end the walk. An entry frame outside the range is on
  /// the alternate signal stack, whose bounds then apply, or else is
  /// trusted for its first frame only.
  uintptr_t StackLo;
  uintptr_t StackHi;
  /// main's frame pointer (the pass marks it), where the walk ends, since
  /// Massif cuts the frames below main; 0 for none.
  uintptr_t StopFrame = 0;
};

/// Follows saved frame pointers from Fp, storing return address minus 1 of
/// each frame into Pcs[0..Max). A frame pointer that is misaligned, not
/// strictly above the previous one or not below StackHi ends the walk, so
/// garbage left in the frame-pointer register by code built without frame
/// pointers never causes a fault. Returns the number of frames stored.
uint32_t walkFramePointers(const void *Fp, uintptr_t StackHi, uint64_t *Pcs,
                           uint32_t Max);

/// Captures the stack described by Start into Pcs[0..Max): the frames of
/// instrumented and uninstrumented code alike, through signal frames (the
/// interrupted code continues the stack), down to the thread's outermost
/// frame (_start, or clone for other threads) and past code without a
/// call-frame rule as Valgrind's walk goes past it (the stack words it
/// takes for return addresses below _start and ld.so's start code), the
/// runtime's own frames left out. Allocates nothing.
uint32_t captureStack(const UnwindStart &Start, uint64_t *Pcs, uint32_t Max);

extern "C" const char __start_massif_rt_text[] __attribute__((weak));
extern "C" const char __stop_massif_rt_text[] __attribute__((weak));

/// Whether Pc lies in the runtime's own code (RuntimeText.h). Captured
/// stacks leave such frames out: the runtime is never seen in a profile.
inline bool isRuntimeCode(uint64_t Pc) {
  return Pc - (uint64_t)(uintptr_t)__start_massif_rt_text <
         (uint64_t)(__stop_massif_rt_text - __start_massif_rt_text);
}

/// What captureStackId keeps beside a memo of the frames above a stack's
/// first ones (Unwind.cpp): the id the whole stack was given, and those
/// first frames.
struct StackIdMemo {
  StackId Id;
  uint32_t NumHead;
  uint64_t Head[2];
};

/// Captures the stack described by Start (at most Max frames) and interns
/// it in Depot: Depot.intern of captureStack's frames, except that a stack
/// captured again from the same state (the same call site at the same
/// stack position, with the stack above unchanged) gives the id it was
/// given before without being walked or hashed again.
StackId captureStackId(const UnwindStart &Start, StackDepot &Depot,
                       uint32_t Max);

/// Finds the calling thread's stack, [Lo, Hi); Hi is 0 when it cannot be
/// found. May allocate (pthread_getattr_np): call it with the recursion
/// guard set, once per thread.
void findStackBounds(uintptr_t &Lo, uintptr_t &Hi);

/// One past the highest address of the calling thread's stack, or 0.
uintptr_t findStackHi();

/// The stack pointer the process started with (glibc's __libc_stack_end,
/// which the dynamic linker defines: referenced weakly, so that the
/// program does not name the dynamic linker among its libraries), or 0.
uintptr_t initialStackPointer();

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_UNWIND_H
