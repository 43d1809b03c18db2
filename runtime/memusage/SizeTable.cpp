//===- SizeTable.cpp - Mapping the size table's levels --------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Both levels are anonymous mappings without swap reserve, made by system
// call (SystemMemory.h): the kernel hands out zeroed pages as they are
// first written. A thread that loses the race
// to publish a level unmaps its own and takes the winner's.
//
//===----------------------------------------------------------------------===//

#include "SizeTable.h"

#include "SystemMemory.h"

using namespace massif::memusage;

namespace {

void *mapPages(size_t SizeB) {
  void *P = massif::systemMmap(nullptr, SizeB, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
                               0);
  if (P == MAP_FAILED)
    return nullptr;
  // Small pages: a transparent huge page would make each slot written
  // resident with 2 MiB around it.
  madvise(P, SizeB, MADV_NOHUGEPAGE);
  return P;
}

/// Publishes Fresh in Entry unless another thread did first; returns the
/// level that is there.
template <typename T> T *publish(T *&Entry, T *Fresh, size_t SizeB) {
  if (!Fresh)
    return nullptr;
  T *Expected = nullptr;
  if (__atomic_compare_exchange_n(&Entry, &Expected, Fresh, false,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return Fresh;
  massif::systemMunmap(Fresh, SizeB);
  return Expected;
}

} // namespace

uint64_t **SizeTable::mapTop() {
  size_t SizeB = NumLeaves * sizeof(uint64_t *);
  return publish(Leaves, (uint64_t **)mapPages(SizeB), SizeB);
}

uint64_t *SizeTable::mapLeaf(uint64_t *&Entry) {
  size_t SizeB = SlotsPerLeaf * sizeof(uint64_t);
  return publish(Entry, (uint64_t *)mapPages(SizeB), SizeB);
}
