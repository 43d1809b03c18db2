//===- ProbeHooks.h - What the probes' hooks share --------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// What the stack probes' hooks in assembly (ProbeHooks.cpp) share with
// their C++ (StackProbes.cpp): the shadow stack's entries and bounds, the
// model's totals, the thread's flag, and the C++ hooks they go to.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_PROBEHOOKS_H
#define MASSIF_NATIVE_PROBEHOOKS_H

#include <stdint.h>

namespace massif {
struct StackHot;

namespace native {

/// A frame entered and not yet left (ProbeState::Shadow).
struct ShadowEntry {
  uintptr_t CallerSP; ///< the stack pointer before the frame
  uintptr_t OwnSP;    ///< the function's, after its prologue
};

/// Entries per thread: 1 MiB of address space, touched only as deep as the
/// thread goes.
constexpr uint32_t ShadowCap = 1 << 16;

/// Valgrind's default --max-stackframe: a larger jump of the stack pointer
/// is a switch to another stack, not counted.
constexpr uint64_t MaxStackFrameB = 2000000;

/// The values of a thread's flag (ThreadArea::StackProbesOn) with the
/// probes on. With the instruction or the byte clock, the sleds' hooks try
/// the common paths in assembly that read that clock first; with the
/// millisecond clock they go to the C++ hooks.
constexpr unsigned char ProbesOn = 1, ProbesOnInstructions = 2,
                        ProbesOnBytes = 3;

/// The model's totals and thresholds (Profile::stackHot), once the probes
/// started.
extern StackHot *ProbeHot __attribute__((visibility("hidden")));

} // namespace native
} // namespace massif

// The C++ hooks (StackProbes.cpp). They save every register they use
// (preserve_all). The probes of code built before sleds pass both stack
// pointers; a patched sled's hook jumps to the others, which find them
// from its frame.
extern "C" {
__attribute__((preserve_all)) void
massifStackEnterSlow(void *StackPointer, void *CallerStackPointer);
__attribute__((preserve_all)) void
massifStackLeaveSlow(void *StackPointer, void *CallerStackPointer);
}

#endif // MASSIF_NATIVE_PROBEHOOKS_H
