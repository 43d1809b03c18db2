//===- UnderValgrind.h - Whether the program runs on Valgrind ---*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// A program built with mscc may still be run on Valgrind (msrun
// --engine=vex, or valgrind itself). Then Valgrind's tool profiles it, and
// the native runtime stays out of the way: it never starts (no options, no
// model, no file; every allocation goes straight to the allocator, which
// Valgrind has replaced), and the client requests the pass lowered to
// __massif_client_request go to Valgrind as the program wrote them.
//
// The question is itself a client request (RUNNING_ON_VALGRIND): the
// amd64 magic sequence below is a no-op on the CPU, which leaves the
// default in %rdx, while Valgrind's core recognises it and answers.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_UNDERVALGRIND_H
#define MASSIF_NATIVE_UNDERVALGRIND_H

namespace massif {
namespace native {

/// Issues the client request Args (code, then five arguments) to
/// Valgrind; natively the answer is Default.
inline unsigned long long valgrindRequest(unsigned long long *Args,
                                          unsigned long long Default) {
#if defined(__x86_64__)
  unsigned long long Result = Default;
  __asm__ volatile("rolq $3, %%rdi\n\t"
                   "rolq $13, %%rdi\n\t"
                   "rolq $61, %%rdi\n\t"
                   "rolq $51, %%rdi\n\t"
                   "xchgq %%rbx, %%rbx"
                   : "+d"(Result)
                   : "a"(Args)
                   : "cc", "memory");
  return Result;
#else
  (void)Args;
  return Default;
#endif
}

/// 0 until asked, then 1 (native) or 2 (on Valgrind). The answer cannot
/// change during the process.
inline int UnderValgrindAnswer = 0;

inline bool underValgrind() {
  int A = __atomic_load_n(&UnderValgrindAnswer, __ATOMIC_RELAXED);
  if (__builtin_expect(A == 0, 0)) {
    unsigned long long Args[6] = {0x1001 /* RUNNING_ON_VALGRIND */};
    A = valgrindRequest(Args, 0) ? 2 : 1;
    __atomic_store_n(&UnderValgrindAnswer, A, __ATOMIC_RELAXED);
  }
  return A == 2;
}

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_UNDERVALGRIND_H
