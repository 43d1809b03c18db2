//===- StackFilter.h - Which frames of a stack Massif shows -----*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Massif keys its tree by the full captured stack but prints only a window
// of it, chosen once per stack (Valgrind's filter_IPs):
//
//   frames:  malloc_wrapper  f  g  main  __libc_start_call_main  _start
//            \_ alloc-fns _/ \_ selected _/ \____ below main, cut ____/
//            [0, Top)         [Top, Top+NumSel), at most --depth frames
//
//  1. strip the contiguous run of alloc-fns at the top (default list plus
//     --alloc-fn, plus the native runtime's __massif_* entry points, which
//     an engine that runs an mscc-built program sees), stopping at the
//     first frame that is not one or has no name;
//  2. with --ignore-fn: the first named frame from Top decides whether the
//     whole stack is ignored (NumSel = 0);
//  3. cut below main (unless --show-below-main=yes): the outermost `main`, or else the innermost
//     "below main" frame, ends the window; if that frame was stripped as an
//     alloc-fn exactly one frame is kept;
//  4. keep at most --depth frames.
//
// Every name is the enclosing real function of the address (the last
// FrameInfo the symbolizer gives), renamed "(below main)" where Massif
// renames it (not with --show-below-main=yes), as Valgrind compares them.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_STACKFILTER_H
#define MASSIF_CORE_STACKFILTER_H

#include "Options.h"
#include "Symbolizer.h"

namespace massif {

struct SnapshotTrace;

/// Massif's -v lines (verbosity 2 and more) at start-up: "alloc-fns:", the
/// built-in ones and each --alloc-fn, "ignore-fns:" and each --ignore-fn
/// with its index (or "<empty>"), one line at a time through T.
void traceAllocFns(const Options &O, const SnapshotTrace &T);

/// True for the raw names Valgrind treats as below main on Linux
/// (VG_(get_fnname_kind): __libc_start_main, __libc_start_call_main,
/// __libc_start_main.*, generic_start_main, generic_start_main.*, _start),
/// compared whole: a symbol-version suffix makes a normal name, so
/// glibc 2.34+'s "__libc_start_main@@GLIBC_2.34" is not one (a global
/// constructor's stack, which does not pass through
/// __libc_start_call_main, ends at _start below it); and for
/// "(below main)" itself (Valgrind's own symbolizer renames them already).
bool isBelowMainName(const char *Raw);

/// The name Massif prints for a raw function name: "(below main)" for the
/// below-main functions, else the name itself (null stays null).
const char *displayName(const char *Raw);

class StackFilter {
public:
  void init(const Options &O, const Symbolizer &Sym);

  /// True when classification needs names at event time (a user
  /// --alloc-fn or any --ignore-fn); otherwise only the default alloc-fns
  /// strip frames, which cannot change the totals, so it can wait until
  /// the profile is written.
  bool needsEagerClassification() const { return Eager; }

  /// The entry_class word (AllocTree.h) of the stack Pcs[0..NumPcs).
  uint32_t classify(const uint64_t *Pcs, uint32_t NumPcs) const;

  /// The frames an xtree report keeps of Pcs[0..NumPcs): all up to the
  /// below-main cut (step 3; none with --show-below-main=yes), none of the
  /// other steps.
  uint32_t belowMainCut(const uint64_t *Pcs, uint32_t NumPcs) const {
    if (!CutBelowMain)
      return NumPcs;
    return NumPcs ? mainOrBelowMain(Pcs, NumPcs) + 1 : 0;
  }

  /// How many frames at the top of Pcs an xtree report leaves out: the C++
  /// library's operator new and delete, which call malloc and free. Under
  /// Valgrind they are replaced, and the replacement's frame is the one
  /// Massif drops; a native stack has them above the interposed malloc.
  uint32_t replacedTop(const uint64_t *Pcs, uint32_t NumPcs) const;

private:
  /// The index of the frame that ends the window (step 3), NumPcs - 1
  /// when there is none.
  uint32_t mainOrBelowMain(const uint64_t *Pcs, uint32_t NumPcs) const;
  /// The real function's name at Pc, below-main renaming applied, or null.
  const char *functionAt(uint64_t Pc) const;
  /// The raw real function's name at Pc (no renaming), or null.
  const char *rawFunctionAt(uint64_t Pc) const;
  bool isAllocFn(const char *Name) const;
  bool isIgnoreFn(const char *Name) const;

  Symbolizer Sym{};
  const StringList *AllocFns = nullptr;
  const StringList *IgnoreFns = nullptr;
  uint32_t Depth = 30;
  bool Eager = false;
  bool CutBelowMain = true;
};

} // namespace massif

#endif // MASSIF_CORE_STACKFILTER_H
