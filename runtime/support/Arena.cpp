//===- Arena.cpp - Size-classed blocks carved from mmap'd chunks ----------===//
//
// Part of massif-native, under the MIT licence.
//
// Small blocks (up to MaxSmallB) are rounded up to a power of two and served
// from one free list per size class, refilled by bumping through 1 MiB
// chunks obtained from mmap. Freed small blocks go back to their list and
// are zeroed when handed out again (fresh mmap memory is already zero).
// Large blocks get their own mapping, grow by mremap (the model's arrays
// move by their pages instead of being copied) and are unmapped on
// release; callers pass the size back, so no block carries a header.
//
//   chunk: [ block | block | block | ......... unused ......... ]
//                                   ^ Bump                      ^ End
//
// One Mutex guards it all: the arena is used at model growth and at start-up
// and exit, not per event in the common case.
//
//===----------------------------------------------------------------------===//

#include "Arena.h"
#include "SystemMemory.h"

#include "Lock.h"

#include <string.h>
#include <sys/mman.h>

using namespace massif;

namespace {

constexpr size_t MinSmallB = 16;
constexpr unsigned NumClasses = 13; // 16 B .. 64 KiB
constexpr size_t MaxSmallB = MinSmallB << (NumClasses - 1);
constexpr size_t ChunkB = 1 << 20;
constexpr size_t PageB = 4096;

struct FreeBlock {
  FreeBlock *Next;
};

struct ArenaState {
  Mutex Lock;
  FreeBlock *FreeLists[NumClasses] = {};
  char *Bump = nullptr;
  char *End = nullptr;
  size_t MappedB = 0;
};

// Constant-initialised: usable from the first malloc, before any constructor.
ArenaState State;

unsigned classOf(size_t SizeB) {
  if (SizeB <= MinSmallB)
    return 0;
  unsigned Log2 = 64 - __builtin_clzll((unsigned long long)(SizeB - 1));
  return Log2 - 4; // 2^4 = MinSmallB
}

size_t roundToPages(size_t SizeB) { return (SizeB + PageB - 1) & ~(PageB - 1); }

void *mapPages(size_t SizeB) {
  void *P = systemMmap(nullptr, SizeB, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return P == MAP_FAILED ? nullptr : P;
}

// Carves a block of ClassB bytes from the current chunk, mapping a new chunk
// when it is used up (the tail of the old one is left unused). Lock held.
void *bumpAllocate(size_t ClassB) {
  if ((size_t)(State.End - State.Bump) < ClassB) {
    char *Chunk = (char *)mapPages(ChunkB);
    if (!Chunk)
      return nullptr;
    State.MappedB += ChunkB;
    State.Bump = Chunk;
    State.End = Chunk + ChunkB;
  }
  void *P = State.Bump;
  State.Bump += ClassB;
  return P;
}

void *allocateThunk(void *, size_t SizeB) { return arenaAllocate(SizeB); }
void deallocateThunk(void *, void *P, size_t SizeB) {
  arenaDeallocate(P, SizeB);
}

void *reallocateThunk(void *, void *P, size_t OldB, size_t NewB) {
  return arenaReallocate(P, OldB, NewB);
}

const Allocator TheAllocator = {allocateThunk, deallocateThunk, nullptr,
                                reallocateThunk};

} // namespace

void *massif::arenaAllocate(size_t SizeB) {
  if (SizeB > MaxSmallB) {
    size_t MapB = roundToPages(SizeB);
    if (MapB < SizeB)
      return nullptr; // overflow
    void *P = mapPages(MapB);
    if (P)
      __atomic_fetch_add(&State.MappedB, MapB, __ATOMIC_RELAXED);
    return P;
  }
  unsigned Class = classOf(SizeB);
  size_t ClassB = MinSmallB << Class;
  void *P;
  {
    MutexLock L(State.Lock);
    FreeBlock *B = State.FreeLists[Class];
    if (B) {
      State.FreeLists[Class] = B->Next;
      P = B;
    } else {
      return bumpAllocate(ClassB);
    }
  }
  memset(P, 0, ClassB);
  return P;
}

void *massif::arenaReallocate(void *P, size_t OldB, size_t NewB) {
  // Only a block with a mapping of its own can move by its pages.
  if (!P || OldB <= MaxSmallB || NewB < OldB)
    return nullptr;
  size_t OldMapB = roundToPages(OldB), NewMapB = roundToPages(NewB);
  if (NewMapB < NewB)
    return nullptr; // overflow
  void *N = mremap(P, OldMapB, NewMapB, MREMAP_MAYMOVE);
  if (N == MAP_FAILED)
    return nullptr;
  __atomic_fetch_add(&State.MappedB, NewMapB - OldMapB, __ATOMIC_RELAXED);
  return N;
}

void massif::arenaDeallocate(void *P, size_t SizeB) {
  if (!P)
    return;
  if (SizeB > MaxSmallB) {
    size_t MapB = roundToPages(SizeB);
    systemMunmap(P, MapB);
    __atomic_fetch_sub(&State.MappedB, MapB, __ATOMIC_RELAXED);
    return;
  }
  unsigned Class = classOf(SizeB);
  MutexLock L(State.Lock);
  FreeBlock *B = (FreeBlock *)P;
  B->Next = State.FreeLists[Class];
  State.FreeLists[Class] = B;
}

char *massif::arenaStrdup(const char *S, size_t MaxB) {
  size_t Len = strnlen(S, MaxB);
  char *Copy = (char *)arenaAllocate(Len + 1);
  if (Copy)
    memcpy(Copy, S, Len); // the arena zeroed the terminator
  return Copy;
}

const Allocator &massif::arenaAllocator() { return TheAllocator; }

size_t massif::arenaMappedBytes() {
  return __atomic_load_n(&State.MappedB, __ATOMIC_RELAXED);
}

void massif::arenaBeforeFork() { State.Lock.lock(); }
void massif::arenaAfterForkParent() { State.Lock.unlock(); }
void massif::arenaAfterForkChild() { State.Lock.reset(); }
