//===- Threads.h - Per-thread set-up for counters and stack probes -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Instruction counters and stack probes keep per-thread state that the
// runtime must know about even in threads that never allocate. Threads.cpp
// wraps pthread_create so that every new thread runs these hooks before its
// start routine; the main thread runs them from a constructor.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_THREADS_H
#define MASSIF_NATIVE_THREADS_H

#include <stdint.h>

namespace massif {
namespace native {

/// Adds the calling thread's instruction counter to the sum (once per
/// thread; does nothing after the thread's exit hooks ran). Counters.cpp.
void registerThreadCounter();

/// Whether any linked code counts instructions (defines the pass's marker).
bool instructionCountersLinked();

/// With --stacks=yes, turns the stack probes on in the calling thread,
/// whose stack is empty at \p TopSP. StackProbes.cpp.
void startThreadStack(uintptr_t TopSP);

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_THREADS_H
