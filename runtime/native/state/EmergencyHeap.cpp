//===- EmergencyHeap.cpp - Memory for a write after glibc faulted ---------===//
//
// Part of massif-native, under the MIT licence.
//
// Used by one thread, once, as the process ends (EmergencyHeap.h): no lock.
// Each block has a 16-byte header before it holding its size.
//
//===----------------------------------------------------------------------===//

#include "EmergencyHeap.h"
#include "SystemMemory.h"

#include "Glibc.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

using namespace massif;
using namespace massif::native;

namespace {

constexpr size_t ChunkB = 4 << 20;
constexpr size_t MaxRegions = 64;

struct Region {
  uintptr_t Lo, Hi;
};

Region Regions[MaxRegions];
size_t NumRegions = 0;
uintptr_t Next = 0, End = 0; // the bump pointer in the newest region

struct Header {
  uint64_t SizeB;
  uint64_t Pad;
};

bool owns(const void *P) {
  uintptr_t A = (uintptr_t)P;
  for (size_t I = 0; I < NumRegions; ++I)
    if (A >= Regions[I].Lo && A < Regions[I].Hi)
      return true;
  return false;
}

bool grow(size_t NeedB) {
  size_t SizeB = NeedB > ChunkB ? (NeedB + 4095) & ~size_t(4095) : ChunkB;
  if (NumRegions == MaxRegions)
    return false;
  void *Mem = systemMmap(nullptr, SizeB, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Mem == MAP_FAILED)
    return false;
  Next = (uintptr_t)Mem;
  End = Next + SizeB;
  Regions[NumRegions++] = {Next, End};
  return true;
}

} // namespace

void *native::emergencyAllocate(size_t SizeB, size_t AlignB) {
  if (AlignB < 16)
    AlignB = 16;
  while (AlignB & (AlignB - 1)) // memalign's: up to a power of two
    AlignB += AlignB & -AlignB;
  if (SizeB > (size_t(1) << 40) || AlignB > (size_t(1) << 30))
    return nullptr;
  for (int Try = 0; Try < 2; ++Try) {
    uintptr_t P = (Next + sizeof(Header) + AlignB - 1) & ~(AlignB - 1);
    if (Next && P + SizeB <= End) {
      ((Header *)P - 1)->SizeB = SizeB;
      Next = P + SizeB;
      return (void *)P;
    }
    if (!grow(SizeB + sizeof(Header) + AlignB))
      return nullptr;
  }
  return nullptr;
}

size_t native::emergencyUsableSize(void *P) {
  if (!P)
    return 0;
  return owns(P) ? (size_t)((Header *)P - 1)->SizeB : libcUsableSize(P);
}

void *native::emergencyReallocate(void *P, size_t SizeB) {
  void *New = emergencyAllocate(SizeB);
  if (New && P) {
    size_t OldB = emergencyUsableSize(P);
    memcpy(New, P, OldB < SizeB ? OldB : SizeB);
  }
  return New;
}
