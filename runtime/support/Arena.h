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

#ifndef MASSIF_SUPPORT_ARENA_H
#define MASSIF_SUPPORT_ARENA_H

#include "Base.h"
#include "Memory.h"

namespace massif {

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

/// A growable array in arena memory, for the runtime's own lists.
template <typename T> struct ArenaVector {
  T *Items = nullptr;
  size_t Count = 0, Cap = 0;

  /// False when memory is exhausted (nothing appended).
  bool push(const T &V) {
    if (Count == Cap &&
        !growArray(arenaAllocator(), Items, Count, Cap, Cap ? 2 * Cap : 64))
      return false;
    Items[Count++] = V;
    return true;
  }
  void release() {
    freeArray(arenaAllocator(), Items, Cap);
    *this = ArenaVector();
  }
  /// The first index whose item is not Before the sought one (the items
  /// being sorted so that those that are come first).
  template <typename Fn> size_t partition(Fn Before) const {
    size_t L = 0, H = Count;
    while (L < H) {
      size_t M = (L + H) / 2;
      if (Before(Items[M]))
        L = M + 1;
      else
        H = M;
    }
    return L;
  }
};

/// Bytes currently mapped by the arena (for tests and diagnostics).
size_t arenaMappedBytes();

/// Holds the arena's lock across fork, so that the child inherits whole
/// free lists (the runtime's fork handler, Fork.h, calls these).
void arenaBeforeFork();
void arenaAfterForkParent();
void arenaAfterForkChild();

} // namespace massif

#endif // MASSIF_SUPPORT_ARENA_H
