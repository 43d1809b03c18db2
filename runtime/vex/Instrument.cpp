//===- Instrument.cpp - --time-unit=i: counting guest instructions --------===//
//
// Part of massif-native's Valgrind tool, under the GNU GPL, version 2 or
// later (see LICENSE in this folder).
//
// Massif's instruction time is the number of guest instructions executed
// by the whole process, counted per superblock: each instruction mark
// (IMark) adds one, and the sum so far is added to the counter before
// every side exit and at the end. The same rule here gives the same time.
//
//===----------------------------------------------------------------------===//

#include "Tool.h"

using namespace massif;
using namespace massif::vex;

namespace {

uint64_t GuestInstructions = 0;

/// Appends GuestInstructions += N to Out: load, add, store.
void addToCounter(IRSB *Out, uint64_t N) {
  IRExpr *Counter = mkIRExpr_HWord((HWord)&GuestInstructions);
  IRTemp Old = newIRTemp(Out->tyenv, Ity_I64);
  IRTemp New = newIRTemp(Out->tyenv, Ity_I64);
  addStmtToIRSB(Out, IRStmt_WrTmp(Old, IRExpr_Load(Iend_LE, Ity_I64, Counter)));
  addStmtToIRSB(Out, IRStmt_WrTmp(New, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(Old),
                                                    IRExpr_Const(IRConst_U64(N)))));
  addStmtToIRSB(Out, IRStmt_Store(Iend_LE, Counter, IRExpr_RdTmp(New)));
}

} // namespace

uint64_t vex::guestInstructions() { return GuestInstructions; }

IRSB *vex::instrument(VgCallbackClosure *, IRSB *In, const VexGuestLayout *,
                      const VexGuestExtents *, const VexArchInfo *, IRType,
                      IRType) {
  IRSB *Out = deepCopyIRSBExceptStmts(In);
  uint64_t Pending = 0;
  for (Int I = 0; I < In->stmts_used; ++I) {
    IRStmt *St = In->stmts[I];
    if (!St || St->tag == Ist_NoOp)
      continue;
    if (St->tag == Ist_IMark) {
      ++Pending;
    } else if (St->tag == Ist_Exit && Pending) {
      addToCounter(Out, Pending);
      Pending = 0;
    }
    addStmtToIRSB(Out, St);
  }
  if (Pending)
    addToCounter(Out, Pending);
  return Out;
}
