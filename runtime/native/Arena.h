//===- Arena.h - The runtime's own memory, straight from mmap ---*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Everything the runtime keeps (the model, interned stacks, symbol names,
// the output buffer) lives in memory mapped here, never in the program's
// heap: the runtime's own memory must not show up in the profile, and the
// interposed malloc must not recurse into itself.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_ARENA_H
#define MASSIF_NATIVE_ARENA_H

#include "Base.h"

namespace massif {
namespace native {

/// Returns SizeB zeroed bytes aligned to 16, or nullptr when the system is
/// out of memory. Thread-safe; never calls malloc.
void *arenaAllocate(size_t SizeB);

/// Gives back a block from arenaAllocate; SizeB must be the size asked for.
void arenaDeallocate(void *P, size_t SizeB);

/// Grows a large block from arenaAllocate (OldB asked for then) to NewB by
/// moving its pages (mremap), the new bytes zero. Null, the block
/// unchanged, for a small block or when the kernel refuses.
void *arenaReallocate(void *P, size_t OldB, size_t NewB);

/// Copies the NUL-terminated S (or its first MaxB bytes) into the arena.
char *arenaStrdup(const char *S, size_t MaxB = (size_t)-1);

/// The arena as the model's Allocator.
const Allocator &arenaAllocator();

/// Bytes currently mapped by the arena (for tests and diagnostics).
size_t arenaMappedBytes();

/// Makes the arena usable in a forked child (its lock may have been held by
/// a thread that does not exist there). Call only in the child.
void arenaResetAfterFork();

/// Holds the arena lock across fork() so the child inherits a consistent
/// free list; pair with arenaAfterForkParent/arenaResetAfterFork.
void arenaBeforeFork();
void arenaAfterForkParent();

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_ARENA_H
