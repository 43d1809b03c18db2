//===- FrameRules.h - How to step from a frame to its caller ----*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Code built without frame pointers (glibc, libstdc++, any -O2 library)
// describes its frames only in .eh_frame, the DWARF call-frame information
// every x86-64 object carries for exceptions. For one code address, the row
// of that table reduces to three facts the stack walk needs: where the
// caller's stack pointer (the CFA) is, where the return address is saved,
// and where the caller's frame pointer is. FrameRule holds those facts;
// lookupFrameRule finds them through a lock-free cache keyed by address,
// reading .eh_frame (through .eh_frame_hdr's search table, in memory, via
// dl_iterate_phdr) only the first time an address is seen. Nothing here
// calls malloc.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_FRAMERULES_H
#define MASSIF_NATIVE_FRAMERULES_H

#include <stdint.h>

namespace massif {
namespace native {

/// The step from one frame to its caller, for one code address.
struct FrameRule {
  enum CfaKind : uint8_t {
    CfaSp,      ///< CFA = SP + CfaOff
    CfaBp,      ///< CFA = BP + CfaOff
    CfaDerefSp, ///< CFA = *(SP + CfaOff) (signal trampolines)
    CfaDerefBp, ///< CFA = *(BP + CfaOff) (realigned stacks)
  };
  enum SlotKind : uint8_t {
    Same,      ///< unchanged (frame pointer only)
    AtCfa,     ///< saved at CFA + Off
    AtSp,      ///< saved at SP + Off (signal trampolines)
    Undefined, ///< none: for the return address, the outermost frame
  };
  CfaKind Cfa;
  SlotKind Ra;
  SlotKind Bp;
  /// The frame is a signal trampoline: its caller's address is the
  /// interrupted instruction, not a return address.
  bool Signal;
  /// The frame is glibc's clone3 thread start; Valgrind, under which glibc
  /// falls back to clone, shows clone's instead (see threadStartPc).
  bool Clone3Start;
  int32_t CfaOff;
  int16_t RaOff;
  int16_t BpOff;
};

/// Finds the rule for the code at Addr (a return address minus 1, or an
/// interrupted instruction), from the cache or from .eh_frame. Returns false
/// when none is known: no module maps Addr, the module has no entry for it,
/// or its CFI uses a form the walk does not follow (the walk then ends).
/// Computed says whether it had to be read from .eh_frame (the first time
/// the walk meets Addr).
bool lookupFrameRule(uint64_t Addr, FrameRule &R, bool &Computed);

/// Computes the rule for Addr from .eh_frame, bypassing the cache.
bool computeFrameRule(uint64_t Addr, FrameRule &R);

/// Forgets every cached rule for addresses in [Lo, Hi) (code unmapped
/// there; another object may be mapped at the same addresses later), and
/// starts a new rule generation.
void forgetFrameRules(uint64_t Lo, uint64_t Hi);

/// Changes whenever cached rules are forgotten: what was derived from rules
/// of an older generation may be stale.
extern uint32_t RuleGeneration;
inline uint32_t ruleGeneration() {
  return __atomic_load_n(&RuleGeneration, __ATOMIC_ACQUIRE);
}

/// The address Valgrind shows for the outermost frame of a thread: the
/// return address of clone's call of the thread function, minus 1; 0 when
/// it cannot be found.
uint64_t threadStartPc();

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_FRAMERULES_H
