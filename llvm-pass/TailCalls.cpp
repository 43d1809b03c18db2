//===- TailCalls.cpp - Keeping the tail calls of the plain build ----------===//
//
// Part of massif-native, under the MIT licence.
//
// A call in tail position becomes a jump only if, when code generation
// starts on the block, the call is followed by nothing but the `ret`. The
// optimiser often leaves the return in a block of its own that several
// paths share, the call's result arriving through a PHI:
//
//     rec:                                  rec:
//       %r = tail call i64 @step(...)         %r = tail call i64 @step(...)
//       br label %exit              ==>       ret i64 %r
//     exit:                                 exit:
//       %v = phi i64 [ %r, %rec ], ...        %v = phi i64 ...
//       ret i64 %v                            ret i64 %v
//
// and CodeGenPrepare, the first step of code generation, copies the return
// into each such predecessor (its dupRetToEnableTailCallOpts), but only
// while the return block holds nothing else. The counters' flush and the
// stack probes' exit sled go before every return, so in the shared block
// they would stop that copy: the call stays a call, a recursion that runs
// in constant stack natively overflows, and every stack under it gains a
// frame that Massif's profile of the plain build does not have.
//
// So the instrumenting passes first make the copies themselves, by
// CodeGenPrepare's rules for x86-64, and put their own code before the
// call (tailPositionCall tells them where): the plain build and the mscc
// build then emit the same jumps, and the block's instructions are counted
// before it leaves.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#if LLVM_VERSION_MAJOR >= 16
#include "llvm/TargetParser/Triple.h"
#else
#include "llvm/ADT/Triple.h"
#endif

using namespace llvm;

namespace {

/// The calling conventions x86-64 may emit a tail call with (the X86
/// lowering's mayTailCallThisCC).
bool mayTailCallConvention(CallingConv::ID CC) {
  switch (CC) {
  case CallingConv::C:
  case CallingConv::Fast:
  case CallingConv::GHC:
  case CallingConv::HiPE:
  case CallingConv::Tail:
  case CallingConv::SwiftTail:
  case CallingConv::Swift:
  case CallingConv::Win64:
  case CallingConv::X86_64_SysV:
  case CallingConv::X86_RegCall:
  case CallingConv::X86_ThisCall:
  case CallingConv::X86_StdCall:
  case CallingConv::X86_VectorCall:
  case CallingConv::X86_FastCall:
    return true;
  default:
    return false;
  }
}

/// Whether code generation may emit \p Call as a jump: marked tail (or
/// musttail) by the optimiser, in a convention that allows it.
bool mayBeTailCall(const CallInst &Call) {
  return Call.isTailCall() && mayTailCallConvention(Call.getCallingConv());
}

/// Whether the return attributes of \p F and \p Call agree as a tail call
/// needs (code generation's attributesPermitTailCall): the same extension
/// of the result, once the attributes that do not touch the calling
/// convention are set aside.
bool attributesPermitTailCall(const Function &F, const CallInst &Call) {
  LLVMContext &Ctx = F.getContext();
  AttributeSet CallerSet = F.getAttributes().getRetAttrs();
  AttributeSet CalleeSet = Call.getAttributes().getRetAttrs();
  for (Attribute::AttrKind Benign :
       {Attribute::Alignment, Attribute::Dereferenceable,
        Attribute::DereferenceableOrNull, Attribute::NoAlias,
        Attribute::NonNull, Attribute::NoUndef
#if LLVM_VERSION_MAJOR >= 19
        ,
        Attribute::Range
#endif
       }) {
    CallerSet = CallerSet.removeAttribute(Ctx, Benign);
    CalleeSet = CalleeSet.removeAttribute(Ctx, Benign);
  }
  for (Attribute::AttrKind Ext : {Attribute::ZExt, Attribute::SExt}) {
    if (CallerSet.hasAttribute(Ext)) {
      if (!CalleeSet.hasAttribute(Ext))
        return false;
      CallerSet = CallerSet.removeAttribute(Ctx, Ext);
      CalleeSet = CalleeSet.removeAttribute(Ctx, Ext);
      break;
    }
  }
  if (Call.use_empty()) {
    CalleeSet = CalleeSet.removeAttribute(Ctx, Attribute::ZExt);
    CalleeSet = CalleeSet.removeAttribute(Ctx, Attribute::SExt);
  }
  return CallerSet == CalleeSet;
}

/// Intrinsics and C library functions that return their first argument,
/// which code generation tail-calls when that argument is returned.
bool returnsFirstArgument(const CallInst &Call) {
  if (const auto *II = dyn_cast<IntrinsicInst>(&Call)) {
    Intrinsic::ID ID = II->getIntrinsicID();
    return ID == Intrinsic::memset || ID == Intrinsic::memcpy ||
           ID == Intrinsic::memmove;
  }
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration())
    return false;
  StringRef Name = Callee->getName();
  return Name == "strcpy" || Name == "strncpy" || Name == "strcat" ||
         Name == "strncat";
}

/// The last instruction before \p I that is not debug information.
Instruction *previousReal(Instruction *I) {
  for (I = I->getPrevNode(); I && isa<DbgInfoIntrinsic>(I);
       I = I->getPrevNode())
    ;
  return I;
}

/// Whether \p I generates no code at a return: debug information, or the
/// end of a lifetime (with the cast of its pointer, if any).
bool vanishesAtReturn(const Instruction *I) {
  if (isa<DbgInfoIntrinsic>(I))
    return true;
  if (isa<BitCastInst>(I) && I->hasOneUse())
    I = I->user_back();
  const auto *II = dyn_cast<IntrinsicInst>(I);
  return II && II->getIntrinsicID() == Intrinsic::lifetime_end;
}

/// Whether the return block \p BB holds nothing but PHIs, debug
/// information, lifetime ends, a cast of the returned value and the
/// return: what CodeGenPrepare copies into predecessors. The returned
/// value, looked through the cast, goes to \p Returned.
bool isBareReturnBlock(BasicBlock &BB, ReturnInst &Ret, Value *&Returned) {
  Returned = Ret.getReturnValue();
  Instruction *Cast = nullptr;
  if (Returned && (isa<BitCastInst>(Returned) ||
                   isa<ExtractValueInst>(Returned))) {
    auto *I = cast<Instruction>(Returned);
    if (auto *EV = dyn_cast<ExtractValueInst>(I))
      for (unsigned Idx : EV->indices())
        if (Idx != 0)
          return false;
    Cast = I;
    Returned = I->getOperand(0);
  }
  if (auto *PN = dyn_cast_or_null<PHINode>(Returned))
    if (PN->getParent() != &BB)
      return false;
  for (Instruction *I = BB.getFirstNonPHI(); I != &Ret; I = I->getNextNode())
    if (I != Cast && !vanishesAtReturn(I))
      return false;
  return true;
}

/// Merges the return block \p BB into its one predecessor when that ends
/// in a branch to it and holds nothing else that generates code, so that
/// the merged block is a bare return block again (CodeGenPrepare merges
/// such pairs, then copies the return on).
bool mergeIntoBarePredecessor(BasicBlock &BB) {
  BasicBlock *Pred = BB.getSinglePredecessor();
  if (!Pred || Pred == &BB || Pred->getSingleSuccessor() != &BB ||
      BB.hasAddressTaken())
    return false;
  for (Instruction *I = Pred->getFirstNonPHI(); I != Pred->getTerminator();
       I = I->getNextNode())
    if (!vanishesAtReturn(I))
      return false;
  return MergeBlockIntoPredecessor(&BB);
}

/// Copies the bare return of \p BB into each predecessor that ends in a
/// call code generation will make a tail call of, then an unconditional
/// branch to \p BB (CodeGenPrepare's rules). Returns whether it did.
bool copyReturnIntoTailCallers(BasicBlock &BB) {
  auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator());
  Value *Returned = nullptr;
  if (!Ret || !isBareReturnBlock(BB, *Ret, Returned))
    return false;
  const Function &F = *BB.getParent();
  SmallVector<BasicBlock *, 4> Callers;
  auto ok = [&](const CallInst *Call) {
    return Call && mayBeTailCall(*Call) && attributesPermitTailCall(F, *Call);
  };
  if (auto *PN = dyn_cast_or_null<PHINode>(Returned)) {
    for (unsigned I = 0, E = PN->getNumIncomingValues(); I != E; ++I) {
      Value *In = PN->getIncomingValue(I)->stripPointerCasts();
      BasicBlock *Pred = PN->getIncomingBlock(I);
      auto *Call = dyn_cast<CallInst>(In);
      if (Call && Call->hasOneUse() && Call->getParent() == Pred && ok(Call)) {
        Callers.push_back(Pred);
        continue;
      }
      // memcpy and the like, whose result is their first argument.
      if (Pred->getSingleSuccessor() == &BB)
        Call = dyn_cast_or_null<CallInst>(previousReal(Pred->getTerminator()));
      else
        Call = nullptr;
      if (Call && Call->use_empty() && returnsFirstArgument(*Call) &&
          In == Call->getArgOperand(0) && ok(Call))
        Callers.push_back(Pred);
    }
  } else {
    SmallPtrSet<BasicBlock *, 4> Seen;
    for (BasicBlock *Pred : predecessors(&BB)) {
      if (!Seen.insert(Pred).second)
        continue;
      auto *Call = dyn_cast_or_null<CallInst>(previousReal(Pred->getTerminator()));
      if (!Call || !Call->use_empty() || !ok(Call))
        continue;
      if (!Returned || isa<UndefValue>(Returned) ||
          (returnsFirstArgument(*Call) && Returned == Call->getArgOperand(0)))
        Callers.push_back(Pred);
    }
  }
  bool Changed = false;
  for (BasicBlock *Pred : Callers) {
    auto *Br = dyn_cast<BranchInst>(Pred->getTerminator());
    if (!Br || !Br->isUnconditional() || Br->getSuccessor(0) != &BB)
      continue;
    FoldReturnIntoUncondBranch(Ret, &BB, Pred);
    Changed = true;
  }
  if (Changed && !BB.hasAddressTaken() && pred_empty(&BB))
    BB.eraseFromParent();
  return Changed;
}

} // namespace

bool massif::copyReturnsForTailCalls(Function &F) {
  // At -O0 nothing is marked tail (musttail calls are next to their return
  // already), and code generation copies nothing.
  if (F.hasOptNone() ||
      Triple(F.getParent()->getTargetTriple()).getArch() != Triple::x86_64)
    return false;
  // To a fixed point: a return copied into a block that held only the
  // end of a lifetime makes that block a bare return block in its turn.
  bool Changed = false;
  for (bool Again = true; Again;) {
    Again = false;
    SmallVector<BasicBlock *, 4> Returns;
    for (BasicBlock &BB : F)
      if (isa<ReturnInst>(BB.getTerminator()))
        Returns.push_back(&BB);
    for (BasicBlock *BB : Returns)
      Again |= copyReturnIntoTailCallers(*BB) || mergeIntoBarePredecessor(*BB);
    Changed |= Again;
  }
  return Changed;
}

CallInst *massif::tailPositionCall(ReturnInst &Ret) {
  // Code generation lets through what cannot be observed between the call
  // and the return: a cast or truncation of the result, the end of a
  // lifetime, an assumption.
  auto passes = [](const Instruction *I) {
    if (vanishesAtReturn(I))
      return true;
    if (const auto *II = dyn_cast<IntrinsicInst>(I))
      return II->getIntrinsicID() == Intrinsic::assume ||
             II->getIntrinsicID() == Intrinsic::experimental_noalias_scope_decl;
    return !isa<CallBase>(I) && !I->mayHaveSideEffects() &&
           !I->mayReadFromMemory() && isSafeToSpeculativelyExecute(I);
  };
  Instruction *Prev = previousReal(&Ret);
  while (Prev && passes(Prev))
    Prev = previousReal(Prev);
  auto *Call = dyn_cast_or_null<CallInst>(Prev);
  if (!Call)
    return nullptr;
  if (Call->isMustTailCall())
    return Call;
  if (!mayBeTailCall(*Call))
    return nullptr;
  // What is returned: the result, maybe cast or truncated.
  Value *Returned = Ret.getReturnValue();
  while (Returned && Returned != Call) {
    auto *I = dyn_cast<Instruction>(Returned);
    if (!I || I->getParent() != Ret.getParent() ||
        !(isa<CastInst>(I) || isa<ExtractValueInst>(I)))
      break;
    Returned = I->getOperand(0);
  }
  if (!Returned || Returned == Call || isa<UndefValue>(Returned) ||
      (returnsFirstArgument(*Call) && Returned == Call->getArgOperand(0)))
    return Call;
  return nullptr;
}
