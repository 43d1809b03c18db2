//===- LiveStarts.cpp - Which addresses begin a live heap block -----------===//
//
// Part of massif-native, under the MIT licence.
//
// The map's leaves and its one warning (see LiveStarts.h).
//
//===----------------------------------------------------------------------===//

#include "LiveStarts.h"
#include "Messages.h"
#include "SystemMemory.h"

#include "OutFile.h"

#include <sys/mman.h>

using namespace massif;
using namespace massif::native;

LiveStarts native::TheLiveStarts;

uint64_t *LiveStarts::makeLeaf(uint64_t A) {
  if (A >> AddressBits)
    return nullptr;
  constexpr size_t LeafB = WordsPerLeaf * sizeof(uint64_t);
  void *Mem = systemMmap(nullptr, LeafB, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Mem == MAP_FAILED) {
    __atomic_store_n(&Incomplete, true, __ATOMIC_RELAXED);
    return nullptr;
  }
  uint64_t *Leaf = (uint64_t *)Mem, *Expected = nullptr;
  if (!__atomic_compare_exchange_n(&Leaves[A >> LeafBits], &Expected, Leaf,
                                   false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    systemMunmap(Mem, LeafB); // another thread made it first
    Leaf = Expected;
  }
  return &Leaf[(A >> 9) & (WordsPerLeaf - 1)];
}

Claim LiveStarts::uncovered(uint64_t A) const {
  return (A >> AddressBits) || __atomic_load_n(&Incomplete, __ATOMIC_RELAXED)
             ? Claim::Live
             : Claim::Unknown;
}

void native::warnIgnoredFree(const void *P) {
  static bool Warned = false;
  if (__atomic_exchange_n(&Warned, true, __ATOMIC_RELAXED))
    return;
  // No stdio: the free may come from anywhere, a signal handler included.
  char Addr[2 + 16 + 1];
  uint64_t V = (uint64_t)P;
  int N = 0;
  do
    ++N;
  while (V >> (4 * N) && N < 16);
  Addr[0] = '0';
  Addr[1] = 'x';
  for (int I = 0; I < N; ++I)
    Addr[2 + I] = "0123456789abcdef"[(V >> (4 * (N - 1 - I))) & 15];
  Addr[2 + N] = 0;
  const char *Parts[] = {"massif: warning: ignored a free of ", Addr,
                         ", where no heap block begins (Valgrind's allocator "
                         "would abort); later ones are ignored silently"};
  writeLine(warningFd(), Parts, 3);
}
