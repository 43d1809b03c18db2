//===- TreeWriter.h - Prints a detailed snapshot's heap tree ----*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Massif stores no tree: a detailed snapshot is a list of stack entries
// with frozen byte counts. The tree is built while printing (Valgrind's
// XT_massif_print), level by level:
//
//   entries, sorted by their selected frames:   groups at depth 0:
//     [A B main]   300                            A   (300+100)
//     [A C main]   100                            D   (40)   <- below sig:
//     [D main]      40                                          aggregated
//
//   groups(d, E): consecutive entries of E with the same frame at position d
//   (entries with at most d frames only count towards their parent); groups
//   below the significance size merge into ONE aggregate placed where the
//   first of them was; then sort by total descending, address ascending
//   (the aggregate counts as address 0).
//
// Significance size = (heap + extra + stacks) * threshold / 100 (1 when the
// heap total is 0 and the threshold is not). The entry order is computed
// once per write; each snapshot only filters it by the entries it froze.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_TREEWRITER_H
#define MASSIF_CORE_TREEWRITER_H

#include "AllocTree.h"
#include "Options.h"
#include "SnapshotEngine.h"
#include "StackDepot.h"
#include "Symbolizer.h"
#include "TextWriter.h"

namespace massif {

class TreeWriter {
public:
  TreeWriter(const Allocator &A, const Symbolizer &Sym, double Threshold,
             const char *RootDescription)
      : A(A), Sym(Sym), Threshold(Threshold), RootDescription(RootDescription) {
  }
  ~TreeWriter();
  TreeWriter(const TreeWriter &) = delete;
  TreeWriter &operator=(const TreeWriter &) = delete;

  /// Sorts the classified, non-ignored entries of Tree. Returns false when
  /// memory is exhausted.
  bool init(const AllocTree &Tree, const StackDepot &Depot);

  /// The same for N rows of another list (an xtree's): row K is the
  /// frames Frames[K][0..NumSel[K]) (rows with none are left out). Select
  /// their values with selectValues.
  bool initRows(const uint64_t *const *Frames, const uint32_t *NumSel,
                uint32_t N);

  /// Selects every row, with Values[row], and returns their total.
  uint64_t selectValues(const uint64_t *Values);

  /// --fullpath-after: the prefixes after which a file's directory is
  /// printed (Valgrind's describe_IP).
  void setFullpathAfter(const StringList *L) { FullpathAfter = L; }

  void setRootDescription(const char *D) { RootDescription = D; }

  /// Selects the entries S froze and returns their total: the snapshot's
  /// mem_heap_B.
  uint64_t select(const Snapshot &S);

  /// Prints the tree of the selected entries.
  void emit(TextWriter &W, uint64_t ExtraB, uint64_t StacksB);

  /// The entries init sorted by their selected frames, in that order.
  uint32_t numSorted() const { return NumOrder; }
  uint32_t sortedEntry(uint32_t I) const { return Order[I].Entry; }
  const uint64_t *sortedFrames(uint32_t I, uint32_t &N) const {
    N = Order[I].NumIps;
    return Order[I].Ips;
  }

  /// Prints the frame at Pc as a tree line describes it, each line of its
  /// inline chain (innermost first) after Indent spaces.
  void emitFrame(TextWriter &W, uint64_t Pc, uint32_t Indent);

  /// Valgrind's --show-below-main=yes: frames below main keep their own
  /// names instead of "(below main)".
  bool ShowBelowMain = false;
  /// Valgrind's --read-inline-info=no: an address prints as one line, the
  /// enclosing real function with the innermost source line.
  bool ReadInlineInfo = true;

private:
  struct Ec {
    const uint64_t *Ips;
    uint32_t NumIps;
    uint64_t Value;
  };
  struct Group {
    uint64_t Total;
    uint64_t Addr;
    uint32_t First; ///< index in Ecs; unused for an aggregate
    uint32_t Count; ///< entries in the group, or groups merged
    bool Aggregate;
  };

  /// Builds the groups of Ecs[First, First+Count) at Depth on top of the
  /// group stack; returns how many.
  uint32_t makeGroups(uint32_t Depth, uint32_t First, uint32_t Count);
  void emitGroup(TextWriter &W, uint32_t Depth, uint32_t Indent,
                 const Group &G);
  /// One frame's line; Outer says it is the out-of-line function of its
  /// chain, the one level Valgrind may rename "(below main)".
  void putIp(TextWriter &W, uint64_t Pc, const FrameInfo &F, bool Outer);
  void putDirectory(TextWriter &W, const char *Dir) const;
  /// Gives the symbolizer every address the trees may print.
  void prepareSymbolizer();
  /// Allocates the arrays for N rows.
  bool allocate(uint32_t N);
  /// Sorts Order and prepares the symbolizer.
  void sortOrder();

  Allocator A;
  Symbolizer Sym;
  double Threshold;
  const char *RootDescription;
  const StringList *FullpathAfter = nullptr;
  char ThresholdText[32] = {};

  // Entries sorted by selected frames, as (frames, count, entry index).
  struct Sorted {
    const uint64_t *Ips;
    uint32_t NumIps;
    uint32_t Entry;
  };
  Sorted *Order = nullptr;
  uint32_t NumOrder = 0;

  Ec *Ecs = nullptr; // the current snapshot's entries, in Order's order
  uint32_t NumEcs = 0;
  uint64_t TopTotal = 0;
  uint64_t SigB = 0;

  Group *Groups = nullptr; // a stack: one run of groups per open level
  uint32_t GroupsCap = 0;
  uint32_t GroupsTop = 0;
};

} // namespace massif

#endif // MASSIF_CORE_TREEWRITER_H
