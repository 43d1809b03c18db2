//===- Frames.h - Where memusage reads the stack pointer --------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// memusage's stack peak is measured from inside its own functions: the
// stack pointer it reads lies below the program's call by the frames of
// libmemusage.so's interposer and of the helper that reads it. Those bytes
// are part of the number it prints, so the counters here take the stack
// pointer a call would have had there: the interposer's entry (the stack
// pointer just after the program's call instruction) less the depth below.
// The depths are those of glibc 2.36's libmemusage.so on x86-64 as Debian
// 12 builds it (read from its machine code: each interposer's pushes and
// frame, the call, and the helper's one push).
//
// A process's start position is read the same way: in memusage's
// constructor, or, when an allocator call comes first, inside the
// initialisation that call runs.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_MEMUSAGE_FRAMES_H
#define MASSIF_MEMUSAGE_FRAMES_H

#include "Tally.h"

#include <stdint.h>

namespace massif {
namespace memusage {

/// Bytes from each interposer's entry down to where memusage reads the
/// stack pointer when it counts the call, by the row the call counts in.
constexpr uintptr_t CountDepth[NumCalls] = {
    /*malloc*/ 40,  /*realloc*/ 72,  /*calloc*/ 56,
    /*free*/ 24,    /*mmap(r)*/ 72,  /*mmap(w)*/ 72,
    /*mmap(a)*/ 72, /*mremap*/ 136, /*munmap*/ 40};

/// Bytes from each interposer's entry down to where memusage's
/// initialisation reads the start position, when that call is the
/// process's first.
constexpr uintptr_t FirstCallDepth[NumCalls] = {
    /*malloc*/ 264,  /*realloc*/ 296, /*calloc*/ 280,
    /*free*/ 248,    /*mmap(r)*/ 296, /*mmap(w)*/ 296,
    /*mmap(a)*/ 296, /*mremap*/ 360, /*munmap*/ 264};

/// Bytes from the constructor's entry down to where it reads the start.
constexpr uintptr_t ConstructorDepth = 8;

/// Bytes from the SIGPROF handler's entry down to its reading.
constexpr uintptr_t TimerDepth = 8;

/// The stack pointer just after the call into the function whose frame
/// pointer is Frame (every function here keeps one).
inline uintptr_t entryOf(const void *Frame) { return (uintptr_t)Frame + 8; }

} // namespace memusage
} // namespace massif

#endif // MASSIF_MEMUSAGE_FRAMES_H
