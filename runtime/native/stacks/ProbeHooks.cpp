//===- ProbeHooks.cpp - The probes' hooks, in assembly --------------------===//
//
// Part of massif-native, under the MIT licence.
//
// What a probe calls: the hooks test the thread's flag and return at once
// when it is clear. Otherwise they go to the C++ hooks (StackProbes.cpp),
// except that with --time-unit=i or B a patched sled's hook tries a common
// path here first, one per clock. These paths take the common case in four
// registers: the process has one thread, the shadow's top entry is not
// stale, and the change takes no snapshot. There they do exactly what the
// C++ hooks (enterFrame, leaveFrame) do: the shadow entry, LastSP, and
// tryStackDelta's totals. In any other case they change nothing and jump
// to the C++ hook, which does the whole event. The C++ hooks save nine
// registers and take about 83 instructions a probe; these about 60.
//
//===----------------------------------------------------------------------===//

#include "ProbeHooks.h"

#include "Counters.h"
#include "State.h"
#include "ThreadArea.h"

#include "massif/abi.h"

#include <stddef.h>

using namespace massif;
using namespace massif::native;

// The hooks themselves. They test the flag first: a sled patched for the
// process calls them in every thread, and code built before sleds at -O0
// called them every time. Written in assembly because the
// compiler saves every register of a preserve_all function before its
// first test; R11 is the one register preserve_all callers give up.
#if defined(__x86_64__)
static_assert(MASSIF_ABI_STACK_PROBES_FLAG_OFFSET == 0x88,
              "the hooks test the flag at %fs:0x88");
asm(R"(
  # A hook's symbol, and the start of its call-frame description.
  .macro massif_hook_start Name
  .text
  .globl \Name
  .type \Name, @function
  .p2align 4
\Name:
  .cfi_startproc
  .endm

  # Every hook starts with the flag's test and returns at once when the
  # flag is clear.
  .macro massif_hook_begin Name
  massif_hook_start \Name
  cmpb $0, %fs:0x88
  jne 1f
  ret
1:
  .endm

  .macro massif_hook_end Name
  .cfi_endproc
  .size \Name, .-\Name
  .endm

  .macro massif_probe_hook Name, Slow
  massif_hook_begin \Name
  jmp \Slow
  massif_hook_end \Name
  .endm

  massif_probe_hook __massif_stack_enter, massifStackEnterSlow
  massif_probe_hook __massif_stack_leave, massifStackLeaveSlow

  # What a patched sled calls (StackSleds.cpp): no arguments, the stack not
  # necessarily aligned (the probed function may be a leaf), every register
  # but R11 and the flags to keep. With the flag at 1 it jumps to the C++
  # hook, which finds the stack pointers from its own frame, aligns the
  # stack and saves what it uses; at 2 and 3, to the common paths in
  # assembly (below) of the instruction and the byte clock, which come
  # back to the C++ hook for the rest. The default clock's test is first.
  .macro massif_sled_hook Name, FastI, FastB, Slow
  massif_hook_start \Name
  cmpb $2, %fs:0x88
  je \FastI
  ja \FastB
  cmpb $0, %fs:0x88
  jne \Slow
  ret
  massif_hook_end \Name
  .endm

  massif_sled_hook __massif_stack_sled_enter, massifStackSledEnterFast, massifStackSledEnterFastB, massifStackSledEnter
  massif_sled_hook __massif_stack_sled_leave, massifStackSledLeaveFast, massifStackSledLeaveFastB, massifStackSledLeave
)");
#else
extern "C" MASSIF_EXPORT MASSIF_ABI_PRESERVE_ALL void
__massif_stack_enter(void *StackPointer, void *CallerStackPointer) {
  if (threadArea().StackProbesOn)
    massifStackEnterSlow(StackPointer, CallerStackPointer);
}

extern "C" MASSIF_EXPORT MASSIF_ABI_PRESERVE_ALL void
__massif_stack_leave(void *StackPointer, void *CallerStackPointer) {
  if (threadArea().StackProbesOn)
    massifStackLeaveSlow(StackPointer, CallerStackPointer);
}
#endif

#if defined(__x86_64__)

namespace {

constexpr size_t AreaAt = MASSIF_ABI_THREAD_AREA_OFFSET;
constexpr size_t InRuntimeAt = AreaAt + offsetof(ThreadArea, Thread.InRuntime);
constexpr size_t LastSPAt = AreaAt + offsetof(ThreadArea, Probes.LastSP);
constexpr size_t ShadowAt = AreaAt + offsetof(ThreadArea, Probes.Shadow);
constexpr size_t DepthAt = AreaAt + offsetof(ThreadArea, Probes.Depth);
constexpr size_t CounterAt = AreaAt + offsetof(ThreadArea, Counter);
static_assert(sizeof(ShadowEntry) == 16 && offsetof(ShadowEntry, OwnSP) == 8,
              "the paths index the shadow by 16 bytes");
static_assert(sizeof(ProbeState::Depth) == 4 && sizeof(TheState) == 4 &&
                  sizeof(PendingSignal) == 4 &&
                  sizeof(StackHot::CountStacks) == 1,
              "the paths read these at these sizes");

} // namespace

// The paths' operands: offsets from %fs and from StackHot, immediates,
// symbols.
#define MASSIF_FAST_OPERANDS                                                   \
  [inrt] "i"(InRuntimeAt), [last] "i"(LastSPAt), [shadow] "i"(ShadowAt),       \
      [depth] "i"(DepthAt), [counter] "i"(CounterAt),                          \
      [instr] "i"(MASSIF_ABI_THREAD_INSTRUCTIONS_OFFSET),                      \
      [capb] "i"(ShadowCap * sizeof(ShadowEntry)), [max] "i"(MaxStackFrameB),  \
      [active] "i"(StateActive), [state] "i"(&TheState), [hot] "i"(&ProbeHot), \
      [exited] "i"(&ExitedInstructions), [pending] "i"(&PendingSignal),        \
      [counts] "i"(offsetof(StackHot, CountStacks)),                           \
      [heap] "i"(offsetof(StackHot, HeapB)),                                   \
      [extra] "i"(offsetof(StackHot, ExtraB)),                                 \
      [stacks] "i"(offsetof(StackHot, StacksB)),                               \
      [timeb] "i"(offsetof(StackHot, TimeB)),                                  \
      [base] "i"(offsetof(StackHot, ClockBase)),                               \
      [next] "i"(offsetof(StackHot, EarliestNext)),                            \
      [peak] "i"(offsetof(StackHot, PeakLimitB)),                              \
      [skipped] "i"(offsetof(StackHot, NumSkipped)),                           \
      [allocs] "i"(offsetof(StackHot, NumStackAllocs))

// Entered by a jump from the sled's hook: the return address into the
// probed function on top, %rbp the probed function's frame. Begins the
// event (InRuntime; when it is set already, the C++ hook, \p Slow, returns)
// and saves four registers. Then %rax holds the function's stack pointer
// and %rcx its caller's.
#define MASSIF_FAST_BEGIN(Slow)                                                \
  "cmpb $0, %%fs:%c[inrt]\n\t"                                                 \
  "jne " Slow "\n\t"                                                           \
  "movb $1, %%fs:%c[inrt]\n\t"                                                 \
  "pushq %%rax\n\t.cfi_adjust_cfa_offset 8\n\t"                                \
  "pushq %%rcx\n\t.cfi_adjust_cfa_offset 8\n\t"                                \
  "pushq %%rdx\n\t.cfi_adjust_cfa_offset 8\n\t"                                \
  "pushq %%r8\n\t.cfi_adjust_cfa_offset 8\n\t"                                 \
  "leaq 40(%%rsp), %%rax\n\t"                                                  \
  "leaq 16(%%rbp), %%rcx\n\t"

// Whether the model may take the change here, as moveTo asks: to 1 (no
// model) when the runtime is not active, or StackHot (then in %r11) does
// not count stacks yet; to 9 (the C++ hook) when the process has threads
// or, with \p CounterTest, this thread has no counter.
// clang-format off
#define MASSIF_FAST_MODEL_GATE(CounterTest)                                    \
  "cmpl %[active], %c[state](%%rip)\n\t"                                       \
  "jne 1f\n\t"                                                                 \
  "movq __libc_single_threaded@GOTPCREL(%%rip), %%r11\n\t"                     \
  "cmpb $0, (%%r11)\n\t"                                                       \
  "je 9f\n\t" CounterTest                                                      \
  "movq %c[hot](%%rip), %%r11\n\t"                                             \
  "cmpb $0, %c[counts](%%r11)\n\t"                                             \
  "je 1f\n\t"
// clang-format on
#define MASSIF_FAST_HAS_COUNTER                                                \
  "cmpq $0, %%fs:%c[counter]\n\t"                                              \
  "je 9f\n\t"

// To 9 when a Normal snapshot is due: the time after the change (in %rdx,
// the bytes it moved the stack by) has reached EarliestNext. Uses \p Reg.
// The instruction clock is this thread's counter and the exited
// threads'; the byte clock, TimeB.
#define MASSIF_FAST_INSTRUCTIONS_DUE(Reg)                                      \
  "movq %%fs:%c[instr], " Reg "\n\t"                                           \
  "addq %c[exited](%%rip), " Reg "\n\t"                                        \
  "subq %c[base](%%r11), " Reg "\n\t"                                          \
  "cmpq %c[next](%%r11), " Reg "\n\t"                                          \
  "jge 9f\n\t"
#define MASSIF_FAST_BYTES_DUE(Reg)                                             \
  "movq %c[timeb](%%r11), " Reg "\n\t"                                         \
  "addq %%rdx, " Reg "\n\t"                                                    \
  "cmpq %c[next](%%r11), " Reg "\n\t"                                          \
  "jge 9f\n\t"

// The registers back and the event's end, with a signal that came
// meanwhile delivered. At 9, the same without the event: the C++ hook
// does it all.
#define MASSIF_FAST_RESTORE                                                    \
  "popq %%r8\n\t.cfi_adjust_cfa_offset -8\n\t"                                 \
  "popq %%rdx\n\t.cfi_adjust_cfa_offset -8\n\t"                                \
  "popq %%rcx\n\t.cfi_adjust_cfa_offset -8\n\t"                                \
  "popq %%rax\n\t.cfi_adjust_cfa_offset -8\n\t"                                \
  "movb $0, %%fs:%c[inrt]\n\t"
#define MASSIF_FAST_END(Slow)                                                  \
  ".cfi_remember_state\n\t" MASSIF_FAST_RESTORE                                \
  "cmpl $0, %c[pending](%%rip)\n\t"                                            \
  "jne massifStackSledPending\n\t"                                             \
  "ret\n\t"                                                                    \
  ".cfi_restore_state\n"                                                       \
  "9:\n\t" MASSIF_FAST_RESTORE "jmp " Slow

// An enter, given the clock's gate (Due) and what the model's gate tests.
// clang-format off
#define MASSIF_FAST_ENTER(Name, CounterTest, Due)                              \
  extern "C" __attribute__((naked, used)) void Name() {                        \
    asm(MASSIF_FAST_BEGIN("massifStackSledEnter")                              \
        /* The caller's pointer is the last event's when that lies          */ \
        /* between.                                                          */ \
        "movq %%fs:%c[last], %%rdx\n\t"                                        \
        "cmpq %%rax, %%rdx\n\t"                                                \
        "jb 2f\n\t"                                                            \
        "cmpq %%rcx, %%rdx\n\t"                                                \
        "cmovbq %%rdx, %%rcx\n"                                                \
        "2:\n\t"                                                               \
        /* The entry goes above the top, which must not be stale, and is    */ \
        /* counted at the end.                                               */ \
        "movq %%fs:%c[shadow], %%r11\n\t"                                      \
        "testq %%r11, %%r11\n\t"                                               \
        "je 9f\n\t"                                                            \
        "movl %%fs:%c[depth], %%r8d\n\t"                                       \
        "shlq $4, %%r8\n\t"                                                    \
        "je 3f\n\t"                                                            \
        "cmpq %%rax, -8(%%r11,%%r8)\n\t"                                       \
        "jb 9f\n"                                                              \
        "3:\n\t"                                                               \
        "cmpq %[capb], %%r8\n\t"                                               \
        "jae 9f\n\t"                                                           \
        "movq %%rcx, (%%r11,%%r8)\n\t"                                         \
        "movq %%rax, 8(%%r11,%%r8)\n\t"                                        \
        /* Growth of at most --max-stackframe: the totals, unless a Normal  */ \
        /* snapshot is due. A shrink is the C++ hook's.                      */ \
        "subq %%rax, %%rdx\n\t"                                                \
        "je 1f\n\t"                                                            \
        "jb 9f\n\t"                                                            \
        "cmpq %[max], %%rdx\n\t"                                               \
        "ja 1f\n\t"                                                            \
        MASSIF_FAST_MODEL_GATE(CounterTest)                                    \
        Due("%%r8")                                                            \
        "addq %%rdx, %c[stacks](%%r11)\n\t"                                    \
        "addq %%rdx, %c[timeb](%%r11)\n\t"                                     \
        "incq %c[allocs](%%r11)\n\t"                                           \
        "incq %c[skipped](%%r11)\n"                                            \
        "1:\n\t"                                                               \
        "movq %%rax, %%fs:%c[last]\n\t"                                        \
        "incl %%fs:%c[depth]\n\t"                                              \
        MASSIF_FAST_END("massifStackSledEnter")                                \
        :                                                                      \
        : MASSIF_FAST_OPERANDS);                                               \
  }

// A leave, the same way.
#define MASSIF_FAST_LEAVE(Name, CounterTest, Due)                              \
  extern "C" __attribute__((naked, used)) void Name() {                        \
    asm(MASSIF_FAST_BEGIN("massifStackSledLeave")                              \
        /* The top entry, unless stale, is popped at the end (%r8 not 0):   */ \
        /* back to the lower of its caller's pointer and the computed one.  */ \
        "movq %%fs:%c[shadow], %%r11\n\t"                                      \
        "testq %%r11, %%r11\n\t"                                               \
        "je 9f\n\t"                                                            \
        "movl %%fs:%c[depth], %%r8d\n\t"                                       \
        "shlq $4, %%r8\n\t"                                                    \
        "je 2f\n\t"                                                            \
        "cmpq %%rax, -8(%%r11,%%r8)\n\t"                                       \
        "jb 9f\n\t"                                                            \
        "movq -16(%%r11,%%r8), %%rdx\n\t"                                      \
        "cmpq %%rcx, %%rdx\n\t"                                                \
        "cmovbq %%rdx, %%rcx\n"                                                \
        "2:\n\t"                                                               \
        /* A shrink of at most --max-stackframe: the totals, unless a Peak  */ \
        /* or a Normal snapshot is due. Growth is the C++ hook's.            */ \
        "movq %%fs:%c[last], %%rdx\n\t"                                        \
        "subq %%rcx, %%rdx\n\t"                                                \
        "je 1f\n\t"                                                            \
        "jnb 9f\n\t"                                                           \
        "negq %%rdx\n\t"                                                       \
        "cmpq %[max], %%rdx\n\t"                                               \
        "ja 1f\n\t"                                                            \
        MASSIF_FAST_MODEL_GATE(CounterTest)                                    \
        "movq %c[heap](%%r11), %%rax\n\t"                                      \
        "addq %c[extra](%%r11), %%rax\n\t"                                     \
        "addq %c[stacks](%%r11), %%rax\n\t"                                    \
        "cmpq %c[peak](%%r11), %%rax\n\t"                                      \
        "ja 9f\n\t"                                                            \
        Due("%%rax")                                                           \
        "movq %c[stacks](%%r11), %%rax\n\t"                                    \
        "subq %%rdx, %%rax\n\t"                                                \
        "jae 4f\n\t"                                                           \
        "xorl %%eax, %%eax\n"                                                  \
        "4:\n\t"                                                               \
        "movq %%rax, %c[stacks](%%r11)\n\t"                                    \
        "addq %%rdx, %c[timeb](%%r11)\n\t"                                     \
        "incq %c[skipped](%%r11)\n"                                            \
        "1:\n\t"                                                               \
        "movq %%rcx, %%fs:%c[last]\n\t"                                        \
        "testq %%r8, %%r8\n\t"                                                 \
        "je 5f\n\t"                                                            \
        "decl %%fs:%c[depth]\n"                                                \
        "5:\n\t"                                                               \
        MASSIF_FAST_END("massifStackSledLeave")                                \
        :                                                                      \
        : MASSIF_FAST_OPERANDS);                                               \
  }
// clang-format on

MASSIF_FAST_ENTER(massifStackSledEnterFast, MASSIF_FAST_HAS_COUNTER,
                  MASSIF_FAST_INSTRUCTIONS_DUE)
MASSIF_FAST_LEAVE(massifStackSledLeaveFast, MASSIF_FAST_HAS_COUNTER,
                  MASSIF_FAST_INSTRUCTIONS_DUE)
MASSIF_FAST_ENTER(massifStackSledEnterFastB, "", MASSIF_FAST_BYTES_DUE)
MASSIF_FAST_LEAVE(massifStackSledLeaveFastB, "", MASSIF_FAST_BYTES_DUE)

/// Where a fast path that found a fatal signal pending goes, in place of
/// its return: delivers it.
extern "C" __attribute__((preserve_all, force_align_arg_pointer, used)) void
massifStackSledPending() {
  deliverPendingSignal();
}
#undef MASSIF_FAST_OPERANDS
#undef MASSIF_FAST_BEGIN
#undef MASSIF_FAST_MODEL_GATE
#undef MASSIF_FAST_HAS_COUNTER
#undef MASSIF_FAST_INSTRUCTIONS_DUE
#undef MASSIF_FAST_BYTES_DUE
#undef MASSIF_FAST_RESTORE
#undef MASSIF_FAST_END
#undef MASSIF_FAST_ENTER
#undef MASSIF_FAST_LEAVE

#endif // __x86_64__
