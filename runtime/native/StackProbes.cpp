//===- StackProbes.cpp - Stack sizes for --stacks=yes ---------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Code built with stack probes (the pass's -massif-stack-probes, on by
// default in mscc) reports the stack pointer after each function's
// prologue and before each return, but only in threads whose
// __massif_stack_probes_on flag is set. The runtime sets the flag when
// --stacks=yes is given: in the main thread from a constructor, in every
// other thread before its start routine (Threads.cpp).
//
// Each thread remembers the last stack pointer it reported. A lower one is
// growth: Massif adds it and attempts a Normal snapshot. A higher one is a
// shrink: a Peak attempt, the subtraction, a Normal attempt
// (Profile::onStackDelta does both). The main thread's stack starts at
// zero at the process's initial stack pointer (__libc_stack_end), as
// Massif's starts at zero when the program's first instruction runs; every
// other thread's starts at zero where its start routine is called. A jump
// larger than Valgrind's default --max-stackframe (2,000,000 bytes) is a
// switch to another stack (sigaltstack, a coroutine) and is not counted,
// as in Valgrind.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"
#include "Threads.h"

#include "massif/abi.h"

#include <unistd.h>

using namespace massif;
using namespace massif::native;

extern "C" {
MASSIF_EXPORT __thread unsigned char __massif_stack_probes_on
    __attribute__((tls_model("initial-exec"))) = 0;

// The marker every probed module defines (llvm-pass/Markers.cpp).
extern const char StackProbesLinkedMarker __asm__(
    MASSIF_ABI_STACK_PROBES_LINKED_SYMBOL)
    __attribute__((weak, visibility("default")));

// glibc: the stack pointer the process started with.
extern void *__libc_stack_end;
}

namespace {

/// Valgrind's default --max-stackframe.
constexpr uint64_t MaxStackFrameB = 2000000;

/// The stack pointer this thread last reported (or started at).
__thread uintptr_t LastSP __attribute__((tls_model("initial-exec"))) = 0;

/// Turns the probes on in the calling thread, whose stack is taken to be
/// empty at \p TopSP, if the runtime is active with --stacks=yes.
void startProbes(uintptr_t TopSP) {
  ThreadState *T = beginEvent(); // initialises the runtime if need be
  if (!T)
    return;
  bool On = TheModel.Opts->Stacks;
  endEvent(*T);
  if (!On)
    return;
  LastSP = TopSP;
  __massif_stack_probes_on = 1;
}

} // namespace

void native::startThreadStack(uintptr_t TopSP) { startProbes(TopSP); }

/// The work of a probe while the flag is on. Not inlined: the hook stays a
/// flag test that saves no register when the flag is off.
__attribute__((noinline)) static void reportStackPointer(uintptr_t SP) {
  uintptr_t Last = LastSP;
  int64_t GrowthB = (int64_t)(Last - SP);
  uint64_t SizeB = GrowthB < 0 ? (uint64_t)-GrowthB : (uint64_t)GrowthB;
  if (GrowthB == 0)
    return;
  // Probes in code the runtime itself called (the program's operator new)
  // are not events; the next probe outside catches up.
  ThreadState *T = beginEvent();
  if (!T)
    return;
  LastSP = SP;
  if (SizeB <= MaxStackFrameB) {
    MutexLock L(TheModel.Lock);
    if (__atomic_load_n(&TheState, __ATOMIC_ACQUIRE) == StateActive)
      TheModel.Prof->onStackDelta(GrowthB);
  }
  endEvent(*T);
}

/// The hook with the flag set: saves every register it uses
/// (preserve_all), as the hook's callers expect.
extern "C" __attribute__((preserve_all, used)) void
massifStackPointerSlow(void *StackPointer) {
  reportStackPointer((uintptr_t)StackPointer);
}

// The hook itself. Optimised code tests the flag inline and calls only when
// it is set; -O0 code calls every time (see llvm-pass/StackProbes.cpp), so
// the hook tests it again first. Written in assembly because the compiler
// saves every register of a preserve_all function before its first test;
// R11 is the one register preserve_all callers give up.
#if defined(__x86_64__)
asm(R"(
  .text
  .globl __massif_stack_pointer
  .type __massif_stack_pointer, @function
  .p2align 4
__massif_stack_pointer:
  .cfi_startproc
  movq __massif_stack_probes_on@gottpoff(%rip), %r11
  cmpb $0, %fs:(%r11)
  jne 1f
  ret
1:
  jmp massifStackPointerSlow
  .cfi_endproc
  .size __massif_stack_pointer, .-__massif_stack_pointer
)");
#else
extern "C" MASSIF_EXPORT __attribute__((preserve_all)) void
__massif_stack_pointer(void *StackPointer) {
  if (__massif_stack_probes_on)
    reportStackPointer((uintptr_t)StackPointer);
}
#endif

// After the runtime's start-up (priority 101 constructors run first) and
// before the program's own constructors.
__attribute__((constructor(102))) static void startMainThreadProbes() {
  bool Linked = &StackProbesLinkedMarker != nullptr;
  ThreadState *T = beginEvent();
  if (!T)
    return;
  bool On = TheModel.Opts->Stacks;
  endEvent(*T);
  if (!On)
    return;
  if (!Linked) {
    static const char Warning[] =
        "massif: warning: --stacks=yes requires stack probes, and no code "
        "of this program was built with them (mscc builds with them); "
        "stack sizes stay 0\n";
    ssize_t Ignored = write(2, Warning, sizeof(Warning) - 1);
    (void)Ignored;
    return;
  }
  startProbes((uintptr_t)__libc_stack_end);
}
