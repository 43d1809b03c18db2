//===- StackProbes.cpp - Stack-pointer probes for --stacks=yes ------------===//
//
// Part of massif-native, under the MIT licence.
//
// Massif with --stacks=yes counts every change of the stack pointer. Native
// code changes it with every push, which only a binary translator sees; the
// pass sees functions. So each instrumented function reports to the
// runtime after its prologue (the frame is allocated) and just before it
// returns (the frame is about to go). The runtime turns the reports into
// growth and shrink events of the thread's stack.
//
//     entry:                               ; after the static allocas
//       %on = load i8, ptr @__massif_stack_probes_on   (thread-local)
//       %p = icmp ne i8 %on, 0
//       br i1 %p, label %probe, label %rest, !prof !unlikely
//     probe:
//       %sp = call ptr @llvm.stacksave.p0()
//       %ra = call ptr @llvm.addressofreturnaddress.p0()
//       %caller = getelementptr i8, ptr %ra, i64 8    ; the caller's SP
//       call preserve_allcc void @__massif_stack_enter(ptr %sp, ptr %caller)
//       br label %rest
//     ...
//     ; before each return: the same, with @__massif_stack_leave
//
// The runtime keeps a shadow stack of the entries, so a leave finds the
// stack pointer its function's caller had, even when the function was
// inlined after the pass ran (LTO, where the return address is its host's)
// or when frames were left without their leave (longjmp, exceptions):
// see runtime/native/StackProbes.cpp.
//
// The flag is thread-local (in an executable, one `cmpb $0, %fs:OFFSET`;
// see RuntimeSymbols.cpp) and set by the runtime only in threads whose stack is
// profiled, so a program built with probes and run without --stacks=yes
// pays one test and a not-taken branch per call and per return.
//
// Probes must not change the frames they measure. The hook uses the
// preserve_all calling convention, so no value has to be moved to a
// callee-saved register (and no register pushed in the prologue) to
// survive the probe's call; and the probes are placed where -O0 code has
// no value live across them (entryCodePoint: after the arguments' stores;
// before the return value's load), since the fast register allocator
// spills every such value to a stack slot.
//
// -O0 (optnone) code is different: its register allocator gives every
// value that lives from one block into another a stack slot, so the branch
// around the call would make frames bigger (the value a function returns
// lives across the exit probe's branch). There the probe is an
// unconditional call to the hook, which tests the flag itself: a call and
// a return per probe while off, and no change to the frame.
//
// The exit probe goes before a sibling call that precedes the return (a
// musttail call, which must stay next to its return, or a tail call whose
// result is returned, so it can still become a sibling call).
//
// A small leaf is not probed: a function that calls nothing (intrinsics
// aside) and whose static frame is at most SmallLeafFrameB bytes. No other
// event can happen on its thread while it runs, so all its probes would do
// is add its frame for an instant; skipping them saves most of the probes
// of code made of small helpers (lua: a third) at the price of that
// instant. A leaf with a bigger frame, or a dynamic one, keeps its probes.
//
// Only x86-64 is probed: the caller's stack pointer is the address of the
// return address plus 8 there. Naked functions have no room for code.
// -massif-only-functions limits the probes as it limits the rest.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Passes.h"

#include "massif/abi.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#if LLVM_VERSION_MAJOR >= 16
#include "llvm/TargetParser/Triple.h"
#else
#include "llvm/ADT/Triple.h"
#endif

using namespace llvm;

static cl::opt<bool> StackProbes(
    "massif-stack-probes",
    cl::desc("Report the stack pointer at function entry and exit, for "
             "--stacks=yes"),
    cl::init(false));

bool massif::stackProbesRequested() { return StackProbes; }

namespace {

/// The runtime's per-thread flag, or null if \p M has the name for
/// something else.
GlobalVariable *getOrDeclareFlag(Module &M) {
  return massif::getOrDeclareRuntimeTLS(M, MASSIF_ABI_STACK_PROBES_FLAG_SYMBOL,
                                        Type::getInt8Ty(M.getContext()),
                                        Align(1));
}

/// Where the exit probe for \p Ret goes: before a tail call that ends the
/// block (and the bitcast of its result, if any), else before \p Ret.
Instruction *exitProbePoint(ReturnInst *Ret) {
  Instruction *Prev = Ret->getPrevNode();
  while (Prev && isa<DbgInfoIntrinsic>(Prev))
    Prev = Prev->getPrevNode();
  if (Prev && isa<BitCastInst>(Prev) && Ret->getReturnValue() == Prev) {
    Instruction *Cast = Prev;
    Prev = Prev->getPrevNode();
    while (Prev && isa<DbgInfoIntrinsic>(Prev))
      Prev = Prev->getPrevNode();
    if (!Prev || Cast->getOperand(0) != Prev)
      return Ret;
  }
  // A sibling call: the call's result (or nothing) is what is returned.
  auto *Call = dyn_cast_or_null<CallInst>(Prev);
  Value *Returned = Ret->getReturnValue();
  if (Returned && Returned != Call && isa<BitCastInst>(Returned))
    Returned = cast<BitCastInst>(Returned)->getOperand(0);
  if (Call && (Call->isMustTailCall() ||
               (Call->isTailCall() && (!Returned || Returned == Call))))
    return Call;
  // -O0 returns a value loaded from its slot: probe before the load, so
  // that the value does not live across the split (see entryProbePoint).
  auto *Load = dyn_cast_or_null<LoadInst>(Prev);
  if (Load && Ret->getReturnValue() == Load && !Load->isVolatile() &&
      isa<AllocaInst>(Load->getPointerOperand()))
    return Load;
  return Ret;
}

class Prober {
public:
  Prober(Module &M, GlobalVariable *Flag) : M(M), Flag(Flag) {
    LLVMContext &Ctx = M.getContext();
    PtrTy = massif::compat::bytePtrTy(Ctx);
    Type *Void = Type::getVoidTy(Ctx);
    Enter = hook("__massif_stack_enter",
                 FunctionType::get(Void, {PtrTy, PtrTy}, false));
    Leave = hook("__massif_stack_leave",
                 FunctionType::get(Void, {PtrTy, PtrTy}, false));
    Unlikely = MDBuilder(Ctx).createBranchWeights(1, 1 << 20);
  }

  /// Inserts, before \p IP, "if (flag) enter(sp, caller's sp)" or, AtExit,
  /// the same with leave; in an optnone (-O0) function, an unconditional
  /// call to the hook, which tests the flag itself.
  void probe(Instruction *IP, bool AtExit) {
    IRBuilder<> B(IP);
    if (!IP->getFunction()->hasOptNone()) {
      Value *On = B.CreateLoad(B.getInt8Ty(),
                               massif::compat::threadLocalAddress(B, Flag));
      Value *Cond = B.CreateICmpNE(On, B.getInt8(0));
      Instruction *Then =
          SplitBlockAndInsertIfThen(Cond, IP, /*Unreachable=*/false, Unlikely);
      B.SetInsertPoint(Then);
    }
    Value *SP = massif::compat::stackSave(B);
    if (SP->getType() != PtrTy)
      SP = B.CreatePointerCast(SP, PtrTy);
    Function *RA = Intrinsic::getDeclaration(
        &M, Intrinsic::addressofreturnaddress, {PtrTy});
    Value *CallerSP = B.CreateConstGEP1_64(B.getInt8Ty(), B.CreateCall(RA), 8);
    B.CreateCall(AtExit ? Leave : Enter, {SP, CallerSP})
        ->setCallingConv(CallingConv::PreserveAll);
  }

private:
  FunctionCallee hook(StringRef Name, FunctionType *Ty) {
    FunctionCallee Callee = M.getOrInsertFunction(Name, Ty);
    if (auto *Fn = dyn_cast<Function>(Callee.getCallee()))
      Fn->setCallingConv(CallingConv::PreserveAll);
    return Callee;
  }

  Module &M;
  GlobalVariable *Flag;
  PointerType *PtrTy;
  FunctionCallee Enter, Leave;
  MDNode *Unlikely;
};

/// The largest static frame of a leaf that goes unprobed.
constexpr uint64_t SmallLeafFrameB = 256;

/// Whether F calls nothing but intrinsics and inline assembly (the
/// counters' flushes are inline assembly; like the counters, the probes
/// take it that assembly calls nothing) and has a static frame of at most
/// SmallLeafFrameB bytes (its allocas).
bool isSmallLeaf(const Function &F) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  uint64_t FrameB = 0;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (const auto *Call = dyn_cast<CallBase>(&I)) {
        const Function *Callee = Call->getCalledFunction();
        if (!Call->isInlineAsm() && (!Callee || !Callee->isIntrinsic()))
          return false;
      } else if (const auto *AI = dyn_cast<AllocaInst>(&I)) {
        if (!AI->isStaticAlloca())
          return false;
        if (auto Size = AI->getAllocationSizeInBits(DL))
          FrameB += *Size / 8;
        else
          return false;
      }
    }
  return FrameB <= SmallLeafFrameB;
}

} // namespace

bool massif::addStackProbes(Module &M, const FunctionFilter &Filter) {
  // The marker says this module has its probes already.
  if (M.getNamedValue(MASSIF_ABI_STACK_PROBES_LINKED_SYMBOL))
    return false;
  if (Triple(M.getTargetTriple()).getArch() != Triple::x86_64)
    return false;
  SmallVector<Function *, 32> Targets;
  for (Function &F : M)
    if (!F.isDeclaration() && !F.hasFnAttribute(Attribute::Naked) &&
        Filter.allows(F) && !isSmallLeaf(F))
      Targets.push_back(&F);
  if (Targets.empty())
    return false;
  GlobalVariable *Flag = getOrDeclareFlag(M);
  if (!Flag)
    return false;

  Prober P(M, Flag);
  for (Function *F : Targets) {
    // Collect first: probing splits blocks.
    SmallVector<Instruction *, 4> Exits;
    for (BasicBlock &BB : *F)
      if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
        Exits.push_back(exitProbePoint(Ret));
    P.probe(entryCodePoint(*F), /*AtExit=*/false);
    for (Instruction *IP : Exits)
      P.probe(IP, /*AtExit=*/true);
  }
  defineLinkedMarker(M, MASSIF_ABI_STACK_PROBES_LINKED_SYMBOL);
  return true;
}

PreservedAnalyses massif::StackProbesPass::run(Module &M,
                                               ModuleAnalysisManager &) {
  if (refuseModule(M) ||
      !addStackProbes(M, FunctionFilter::fromCommandLine()))
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}
