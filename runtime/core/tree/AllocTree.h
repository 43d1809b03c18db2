//===- AllocTree.h - Bytes per call stack: the allocation tree --*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Massif's allocation tree is, underneath, a flat list of stack entries
// (one per distinct captured stack, in creation order) with a byte count
// each; the tree shape only appears when a detailed snapshot is printed.
// This class is that list. Entry indices are dense and creation-ordered, so
// a detailed snapshot freezes the tree by keeping Values[0..NumEntries):
// entries created later are naturally excluded. It keeps them in chunks,
// and copies only the chunks whose Dirty flag a change set since
// (SnapshotEngine.h), so every change of a value goes through add/sub.
//
//   EntryOf[StackId] --> entry index     (0: no entry yet)
//   Values[entry]      bytes currently charged
//   Dirty[entry / ValueChunkEntries]  set when one of those values changes
//   Stacks[entry]      its StackId
//   Class[entry]       the filtered frame range, once classified
//   Sites[entry]       its calls, temporary and live blocks (SiteStats.h)
//
// Entry 0 is never used (so 0 can mean "none"); entry 1 stands for blocks
// that are charged to nothing (--heap=no, or a stack that could not be
// captured) and is always ignored.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_ALLOCTREE_H
#define MASSIF_CORE_ALLOCTREE_H

#include "Base.h"
#include "SiteStats.h"
#include "SnapshotEngine.h"

namespace massif {

/// The classification of an entry's stack (StackFilter.h): which frames
/// remain after alloc-fn stripping, --ignore-fn, the below-main cut and
/// --depth. Packed as Classified | Top << 15 | NumSel.
namespace entry_class {
constexpr uint32_t Unclassified = 0;
constexpr uint32_t Classified = 1u << 31;
constexpr uint32_t FieldMask = 0x7FFF;
constexpr uint32_t Ignored = Classified; ///< classified, nothing selected

inline uint32_t make(uint32_t Top, uint32_t NumSel) {
  if (Top > FieldMask)
    Top = FieldMask;
  if (NumSel > FieldMask)
    NumSel = FieldMask;
  return Classified | Top << 15 | NumSel;
}
inline uint32_t top(uint32_t C) { return (C >> 15) & FieldMask; }
inline uint32_t numSel(uint32_t C) { return C & FieldMask; }
/// True for an entry known to be fully filtered.
inline bool isIgnored(uint32_t C) {
  return (C & (Classified | FieldMask)) == Classified;
}
} // namespace entry_class

class AllocTree {
public:
  static constexpr uint32_t NoEntry = 1;

  bool init(const Allocator &A);

  /// The entry of Stack if it has one (NoEntry for stack 0), else 0.
  uint32_t find(StackId Stack) const {
    return Stack < StackCap ? EntryOf[Stack] : 0;
  }

  /// The entry of Stack, created (unclassified) at first sight. Returns 0
  /// when memory is exhausted. Created reports whether it is new.
  uint32_t entryOf(StackId Stack, bool &Created) {
    Created = false;
    if (uint32_t E = find(Stack))
      return E;
    return create(Stack, Created);
  }

  uint32_t numEntries() const { return NumEntries; }

  void add(uint32_t E, uint64_t B) {
    Values[E] += B;
    Dirty[E >> ValueChunkBits] = 1;
  }
  void sub(uint32_t E, uint64_t B) {
    Values[E] -= B;
    Dirty[E >> ValueChunkBits] = 1;
  }
  /// The values as a detailed snapshot takes them.
  LiveValues live() { return LiveValues{Values, Dirty, NumEntries}; }

  uint64_t *Values = nullptr; ///< EntryCap of them, a multiple of a chunk
  uint8_t *Dirty = nullptr;   ///< one flag per chunk of Values
  uint32_t *Class = nullptr;
  StackId *Stacks = nullptr;
  SiteCounts *Sites = nullptr;

private:
  uint32_t create(StackId Stack, bool &Created);
  bool growEntries();

  Allocator A{};
  uint32_t *EntryOf = nullptr;
  size_t StackCap = 0;
  uint32_t NumEntries = 0;
  size_t EntryCap = 0;
};

} // namespace massif

#endif // MASSIF_CORE_ALLOCTREE_H
