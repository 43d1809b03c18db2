/*===- massif/abi.h - The contract between the pass and the runtime -------===*
 *
 * Part of massif-native, under the MIT licence.
 *
 * Every symbol the pass plugin (llvm-pass/) emits a reference to, and every
 * entry point the runtime (runtime/native/) defines for instrumented code,
 * is declared here and nowhere else. The pass spells names through the
 * MASSIF_ABI_* macros below; the runtime implements the declarations.
 *
 * Allocation calls. The pass replaces a direct call to an allocation
 * function F with a call to __massif_F, same arguments, same result:
 *
 *     call ptr @malloc(i64 %n)  ==>  call ptr @__massif_malloc(i64 %n)
 *
 * The runtime knows a __massif_* call comes from instrumented code, whose
 * frames all carry frame pointers, so it walks the stack without DWARF.
 * Calls the pass cannot see (indirect calls, uninstrumented libraries) reach
 * the runtime's interposed malloc/free/new/delete instead, with the same
 * accounting. C++ operators are listed by their Itanium mangled names.
 *
 * Version check. Every instrumented module references
 * MASSIF_ABI_VERSION_SYMBOL; only a runtime built from the same contract
 * defines it, so a mismatch fails at link time naming the version.
 *
 * Instruction counter (--time-unit=i). When built with counters
 * (-mllvm -massif-count-instructions), each basic block of instrumented code
 * adds its number of IR instructions to the running thread's
 * instruction counter (the thread area, below) as it starts executing; a
 * straight-line chain of blocks adds once, at its head. The runtime sums
 * the counters over threads. Every counted module also defines the link-once marker
 * MASSIF_ABI_COUNTERS_LINKED_SYMBOL; the runtime falls back to
 * --time-unit=ms only when no linked code defines it.
 *
 * Stack probes (--stacks=yes). When built with probes
 * (-mllvm -massif-stack-probes), each instrumented function has a sled
 * after its prologue and before each return (below), which the runtime
 * patches into a call of __massif_stack_sled_enter or _leave when
 * --stacks=yes is given; the hooks act in threads whose probes' flag (the
 * thread area, below) is set. Probed modules define the
 * marker MASSIF_ABI_STACK_PROBES_LINKED_SYMBOL.
 *
 * main's frame. The module that defines main makes it store its frame
 * address into MASSIF_ABI_MAIN_FRAME_SYMBOL as it starts; the runtime's
 * stack walk stops at that frame, where Massif cuts the stack anyway.
 *
 * Valgrind client requests. The pass replaces the inline assembly of
 * valgrind.h's client-request macro (amd64) with a call to
 * __massif_client_request, with the same request block and default, so
 * VALGRIND_MALLOCLIKE_BLOCK and friends reach the runtime natively.
 *
 *===----------------------------------------------------------------------===*/

#ifndef MASSIF_ABI_H
#define MASSIF_ABI_H

#include <stddef.h>

#define MASSIF_ABI_VERSION 1
#define MASSIF_ABI_VERSION_SYMBOL "__massif_abi_version_1"
#define MASSIF_ABI_PREFIX "__massif_"

/* The allocation functions the pass rewrites, as
 * X(name, mangled-or-C-name). The runtime entry point is __massif_<name>. */
#define MASSIF_ABI_C_ALLOC_FUNCTIONS(X)                                        \
  X(malloc, "malloc")                                                          \
  X(calloc, "calloc")                                                          \
  X(realloc, "realloc")                                                        \
  X(reallocarray, "reallocarray")                                              \
  X(free, "free")                                                              \
  X(memalign, "memalign")                                                      \
  X(posix_memalign, "posix_memalign")                                          \
  X(aligned_alloc, "aligned_alloc")                                            \
  X(valloc, "valloc")                                                          \
  X(pvalloc, "pvalloc")                                                        \
  X(strdup, "strdup")                                                          \
  X(strndup, "strndup")

#define MASSIF_ABI_CXX_ALLOC_FUNCTIONS(X)                                      \
  X(Znwm, "_Znwm")                     /* new(size_t) */                       \
  X(Znam, "_Znam")                     /* new[](size_t) */                     \
  X(ZnwmRKSt9nothrow_t, "_ZnwmRKSt9nothrow_t")                                 \
  X(ZnamRKSt9nothrow_t, "_ZnamRKSt9nothrow_t")                                 \
  X(ZnwmSt11align_val_t, "_ZnwmSt11align_val_t")                               \
  X(ZnamSt11align_val_t, "_ZnamSt11align_val_t")                               \
  X(ZnwmSt11align_val_tRKSt9nothrow_t, "_ZnwmSt11align_val_tRKSt9nothrow_t")   \
  X(ZnamSt11align_val_tRKSt9nothrow_t, "_ZnamSt11align_val_tRKSt9nothrow_t")   \
  X(ZdlPv, "_ZdlPv")                   /* delete(void*) */                     \
  X(ZdaPv, "_ZdaPv")                   /* delete[](void*) */                   \
  X(ZdlPvm, "_ZdlPvm")                 /* sized */                             \
  X(ZdaPvm, "_ZdaPvm")                                                         \
  X(ZdlPvRKSt9nothrow_t, "_ZdlPvRKSt9nothrow_t")                               \
  X(ZdaPvRKSt9nothrow_t, "_ZdaPvRKSt9nothrow_t")                               \
  X(ZdlPvSt11align_val_t, "_ZdlPvSt11align_val_t")                             \
  X(ZdaPvSt11align_val_t, "_ZdaPvSt11align_val_t")                             \
  X(ZdlPvmSt11align_val_t, "_ZdlPvmSt11align_val_t")                           \
  X(ZdaPvmSt11align_val_t, "_ZdaPvmSt11align_val_t")                           \
  X(ZdlPvSt11align_val_tRKSt9nothrow_t, "_ZdlPvSt11align_val_tRKSt9nothrow_t") \
  X(ZdaPvSt11align_val_tRKSt9nothrow_t, "_ZdaPvSt11align_val_tRKSt9nothrow_t")

#ifdef __cplusplus
extern "C" {
#endif

/* Defined by the runtime; referenced by every instrumented module. */
extern const int __massif_abi_version_1;

/* The thread area: the per-thread words instrumented code and the runtime
 * share, at fixed offsets from the thread pointer (%fs) rather than in ELF
 * TLS, so that the program keeps the TLS modules of its native build (a
 * module more would lengthen every thread's DTV, a block in the profile).
 * The area is the 512 bytes of glibc's x86-64 thread control block
 * (tcbhead_t) that glibc no longer uses; the runtime owns the rest of it
 * (runtime/native/state/ThreadArea.h).
 *   counter  unsigned long long: instructions this thread has executed in
 *            instrumented code
 *   probes   unsigned char: non-zero in threads whose stack is profiled */
#define MASSIF_ABI_THREAD_AREA_OFFSET 0x80
#define MASSIF_ABI_THREAD_AREA_SIZE 512
#define MASSIF_ABI_THREAD_INSTRUCTIONS_OFFSET 0x80
#define MASSIF_ABI_STACK_PROBES_FLAG_OFFSET 0x88

/* The calling thread's instruction counter, for tests and tools. */
static inline unsigned long long massif_thread_instructions(void) {
  unsigned long long N;
  __asm__ volatile("movq %%fs:0x80, %0" : "=r"(N));
  return N;
}

/* Defined (link-once, one per image) by every module built with counters. */
#define MASSIF_ABI_COUNTERS_LINKED_SYMBOL "__massif_counters_linked"

/* Defined (link-once, one per image) by every module built with probes. */
#define MASSIF_ABI_STACK_PROBES_LINKED_SYMBOL "__massif_stack_probes_linked"

/* Stack-probe sleds. Each probe is a six-byte no-op listed in the
 * section MASSIF_ABI_STACK_SLEDS_SECTION as two 32-bit offsets, each from
 * its own position: to the sled, and to the image's slot (link-once,
 * hidden) that holds the hook the sled calls once patched. A constructor
 * (link-once, one per image) registers the section's bounds; with
 * --stacks=yes the runtime overwrites each sled with "call *slot(%rip)".
 * (The constructor's name is not the runtime's prefix: a module the pass
 * has run on is not the runtime.)
 * The hooks take no arguments: the probed function's stack pointer is
 * where the call leaves its return address, plus 8; its caller's is its
 * frame pointer plus 16. They preserve every register but R11 and the
 * flags, which the sled declares clobbered. */
#define MASSIF_ABI_STACK_SLEDS_SECTION "__massif_stack_sleds"
#define MASSIF_ABI_STACK_SLED_ENTER_SLOT_SYMBOL "__massif_stack_sled_enter_slot"
#define MASSIF_ABI_STACK_SLED_LEAVE_SLOT_SYMBOL "__massif_stack_sled_leave_slot"
#define MASSIF_ABI_STACK_SLED_ENTER_SYMBOL "__massif_stack_sled_enter"
#define MASSIF_ABI_STACK_SLED_LEAVE_SYMBOL "__massif_stack_sled_leave"
#define MASSIF_ABI_REGISTER_SLEDS_SYMBOL "__massif_register_stack_sleds"
#define MASSIF_ABI_REGISTER_SLEDS_CTOR_SYMBOL "massif.register_stack_sleds"
void __massif_register_stack_sleds(const void *Begin, const void *End);

/* Defined by the runtime, and weakly by the module that defines main:
 * main's frame address once main has started (set by main itself, see
 * above), else null. */
#define MASSIF_ABI_MAIN_FRAME_SYMBOL "__massif_main_frame"
extern void *__massif_main_frame;

/* Stack probes. A function's frame is allocated (enter) or about to go
 * (leave). StackPointer is the function's (below its frame);
 * CallerStackPointer its caller's, the one the caller has after the
 * return (the address of the return address plus 8).
 * Code built before the sleds below calls them (optimised code only while
 * the probes' flag is set); they do nothing while the flag is
 * clear. They preserve every register (preserve_all), so a probe costs
 * its caller no spill. */
#if defined(__clang__) && defined(__x86_64__)
#define MASSIF_ABI_PRESERVE_ALL __attribute__((preserve_all))
#else
#define MASSIF_ABI_PRESERVE_ALL
#endif
MASSIF_ABI_PRESERVE_ALL void __massif_stack_enter(void *StackPointer,
                                                  void *CallerStackPointer);
MASSIF_ABI_PRESERVE_ALL void __massif_stack_leave(void *StackPointer,
                                                  void *CallerStackPointer);

/* A Valgrind client request: Args is valgrind.h's request block (request
 * code, then five arguments); returns the request's result, Default for
 * every request the runtime does not handle. */
unsigned long long __massif_client_request(unsigned long long *Args,
                                           unsigned long long Default);

/* C allocation entry points: same signatures as the functions they stand for. */
void *__massif_malloc(size_t SizeB);
void *__massif_calloc(size_t Count, size_t SizeB);
void *__massif_realloc(void *P, size_t SizeB);
void *__massif_reallocarray(void *P, size_t Count, size_t SizeB);
void __massif_free(void *P);
void *__massif_memalign(size_t AlignB, size_t SizeB);
int __massif_posix_memalign(void **Out, size_t AlignB, size_t SizeB);
void *__massif_aligned_alloc(size_t AlignB, size_t SizeB);
void *__massif_valloc(size_t SizeB);
void *__massif_pvalloc(size_t SizeB);
char *__massif_strdup(const char *S);
char *__massif_strndup(const char *S, size_t MaxB);

/* C++ entry points, named after the mangled operator they replace, with the
 * operator's own signature (align_val_t is a size_t, nothrow_t a pointer).
 * The throwing forms throw std::bad_alloc on failure, as the operators do. */
void *__massif_Znwm(size_t SizeB);
void *__massif_Znam(size_t SizeB);
void *__massif_ZnwmRKSt9nothrow_t(size_t SizeB, const void *NoThrow);
void *__massif_ZnamRKSt9nothrow_t(size_t SizeB, const void *NoThrow);
void *__massif_ZnwmSt11align_val_t(size_t SizeB, size_t AlignB);
void *__massif_ZnamSt11align_val_t(size_t SizeB, size_t AlignB);
void *__massif_ZnwmSt11align_val_tRKSt9nothrow_t(size_t SizeB, size_t AlignB,
                                                const void *NoThrow);
void *__massif_ZnamSt11align_val_tRKSt9nothrow_t(size_t SizeB, size_t AlignB,
                                                const void *NoThrow);
void __massif_ZdlPv(void *P);
void __massif_ZdaPv(void *P);
void __massif_ZdlPvm(void *P, size_t SizeB);
void __massif_ZdaPvm(void *P, size_t SizeB);
void __massif_ZdlPvRKSt9nothrow_t(void *P, const void *NoThrow);
void __massif_ZdaPvRKSt9nothrow_t(void *P, const void *NoThrow);
void __massif_ZdlPvSt11align_val_t(void *P, size_t AlignB);
void __massif_ZdaPvSt11align_val_t(void *P, size_t AlignB);
void __massif_ZdlPvmSt11align_val_t(void *P, size_t SizeB, size_t AlignB);
void __massif_ZdaPvmSt11align_val_t(void *P, size_t SizeB, size_t AlignB);
void __massif_ZdlPvSt11align_val_tRKSt9nothrow_t(void *P, size_t AlignB,
                                                const void *NoThrow);
void __massif_ZdaPvSt11align_val_tRKSt9nothrow_t(void *P, size_t AlignB,
                                                const void *NoThrow);

#ifdef __cplusplus
}
#endif

#endif /* MASSIF_ABI_H */
