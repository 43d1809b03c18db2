//===- StackDepot.h - Interned call stacks ----------------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Every captured call stack is interned once into a dense StackId (1, 2, ...)
// before any lock is taken: interning is lock-free (a hash table whose bucket
// chains grow by compare-and-swap) and safe from any thread, including signal
// handlers. Traces are stored once and never freed. The model keys its
// allocation tree by StackId; a StackId maps back to its frames at dump time.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_STACKDEPOT_H
#define MASSIF_CORE_STACKDEPOT_H

#include "Base.h"

namespace massif {

class StackDepot {
public:
  /// Must be called once before any other member. Memory comes from A.
  void init(const Allocator &A);

  /// Interns Pcs[0..NumPcs) (innermost first; every frame already a code
  /// address to describe, i.e. return address minus 1). Returns 0 only when
  /// memory is exhausted. Lock-free.
  StackId intern(const uint64_t *Pcs, uint32_t NumPcs);

  /// The frames of Id; NumPcs receives their count. Id must come from
  /// intern().
  const uint64_t *frames(StackId Id, uint32_t &NumPcs) const;

  /// One more than the largest StackId handed out so far.
  StackId end() const;

  struct Impl;

private:
  Impl *P = nullptr;
};

} // namespace massif

#endif // MASSIF_CORE_STACKDEPOT_H
