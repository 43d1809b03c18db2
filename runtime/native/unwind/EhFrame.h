//===- EhFrame.h - The call-frame table row of one address ------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// .eh_frame holds, for every address of a module's code, how to find the
// caller's frame (DWARF call-frame information). readCfiRow finds the entry
// covering an address (through .eh_frame_hdr's binary search table, in the
// loaded module's memory) and runs its instructions up to the address,
// keeping only what the stack walk uses: the CFA rule and the rules of RBP
// and of the return-address column. It reads mapped memory only and never
// allocates.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_EHFRAME_H
#define MASSIF_NATIVE_EHFRAME_H

#include "LoadedObject.h"

#include <link.h>
#include <stdint.h>

namespace massif {
namespace native {

/// DWARF register numbers on x86-64.
constexpr uint32_t CfiRegBp = 6, CfiRegSp = 7;

/// How one register is recovered in a row.
struct CfiRegRule {
  enum Kind : uint8_t {
    Unset,  ///< no rule given (callee-saved: unchanged)
    Same,   ///< DW_CFA_same_value
    Undef,  ///< DW_CFA_undefined
    Offset, ///< saved at CFA + Off
    SpExpr, ///< saved at RSP + Off (a DW_OP_breg7 expression)
    Other,  ///< anything the walk does not follow
  } K;
  int64_t Off;
};

/// A row of the call-frame table, as far as the walk needs it.
struct CfiRow {
  enum CfaKind : uint8_t {
    RegOff,  ///< CFA = CfaReg + CfaOff
    DerefSp, ///< CFA = *(RSP + CfaOff)
    DerefBp, ///< CFA = *(RBP + CfaOff)
    Bad,     ///< a rule the walk does not follow
  } Cfa;
  uint32_t CfaReg;
  int64_t CfaOff;
  CfiRegRule Bp, Ra;
  bool Signal; ///< the entry describes a signal trampoline ('S')
};

/// The row for Addr in the module whose .eh_frame_hdr is at EhFrameHdr;
/// false when no entry covers Addr or its instructions cannot be read.
bool readCfiRow(const uint8_t *EhFrameHdr, uint64_t Addr, CfiRow &Row);

/// What one FDE says of the code it covers, [Begin, End).
struct FdeSummary {
  uint64_t Begin, End;
  /// Some row computes the CFA from RBP: the function sets up a frame
  /// pointer, so that RBP is its frame wherever it calls out.
  bool KeepsFramePointer;
  /// Every row has the CFA at RSP + 8, as on entry: the code never makes
  /// room for a call (a stub or a leaf), so no return address points into
  /// it.
  bool NeverCalls;
};

/// Calls Fn for every readable FDE of the module whose .eh_frame_hdr is at
/// EhFrameHdr, in address order; false when the header cannot be read.
bool forEachFde(const uint8_t *EhFrameHdr,
                void (*Fn)(void *Ctx, const FdeSummary &), void *Ctx);

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_EHFRAME_H
