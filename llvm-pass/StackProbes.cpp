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
// Each report is a sled: a six-byte no-op, listed with the image's slot
// for the runtime's hook in the section __massif_stack_sleds.
//
//     entry:                               ; after the static allocas
//       %fa = call ptr @llvm.frameaddress.p0(i32 0)
//       call void asm sideeffect "1: <six-byte nop>
//           .pushsection __massif_stack_sleds ...
//           .long 1b - .
//           .long __massif_stack_sled_enter_slot - .
//           .popsection", "r,~{r11},~{dirflag},~{fpsr},~{flags}"(ptr %fa)
//     ...
//     ; before each return: the same, with the leave slot
//
// Without --stacks=yes the no-ops stay; with it, the runtime patches each
// into "call *slot(%rip)" before main (runtime/native/stacks/StackSleds.cpp).
// A constructor per image registers the section (registerSleds). The runtime
// keeps a shadow stack of the entries, so a leave finds the stack pointer
// its function's caller had, even when the function was inlined after the
// pass ran (LTO) or when frames were left without their leave (longjmp,
// exceptions): see runtime/native/stacks/StackProbes.cpp.
//
// Probes must not change the frames they measure. The sled clobbers only
// R11 and the flags, as a preserve_all call does, so no value has to move
// to a callee-saved register; its frame-address operand keeps it inside
// the frame (shrink-wrapping may not move the prologue or epilogue across
// it); and a probed function gets noredzone, since a patched sled is a
// call. Sleds go where -O0 code has no value live across them
// (entryCodePoint: after the arguments' stores; before the return value's
// load). docs/DESIGN-pass.md, "Stack probes", has the details.
//
// The exit probe goes before a call in tail position (a musttail call,
// which must stay next to its return, or a tail call whose result is
// returned, so it still becomes a jump). A return that such calls share
// with other paths is first copied next to each of them, as code
// generation would have (TailCalls.cpp).
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
#include "llvm/IR/Comdat.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

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

/// Where the exit probe for \p Ret goes: before a call in tail position
/// (which must stay next to its return to remain a jump), else before
/// \p Ret.
Instruction *exitProbePoint(ReturnInst *Ret) {
  if (CallInst *Call = massif::tailPositionCall(*Ret))
    return Call;
  // -O0 returns a value loaded from its slot: the sled goes before the
  // load, so that no value is held across it (see entryCodePoint).
  Instruction *Prev = Ret->getPrevNode();
  while (Prev && isa<DbgInfoIntrinsic>(Prev))
    Prev = Prev->getPrevNode();
  auto *Load = dyn_cast_or_null<LoadInst>(Prev);
  if (Load && Ret->getReturnValue() == Load && !Load->isVolatile() &&
      isa<AllocaInst>(Load->getPointerOperand()))
    return Load;
  return Ret;
}

/// The bytes of a sled: a six-byte no-op, which the runtime overwrites with
/// "call *slot(%rip)" (ff 15 and a 32-bit displacement) when --stacks=yes
/// asks for the probes.
constexpr char SledBytes[] = ".byte 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00";

class Prober {
public:
  explicit Prober(Module &M) : M(M) {
    LLVMContext &Ctx = M.getContext();
    PtrTy = massif::compat::bytePtrTy(Ctx);
    FrameAddress =
        Intrinsic::getDeclaration(&M, Intrinsic::frameaddress, {PtrTy});
    defineSlot(MASSIF_ABI_STACK_SLED_ENTER_SLOT_SYMBOL,
               MASSIF_ABI_STACK_SLED_ENTER_SYMBOL);
    defineSlot(MASSIF_ABI_STACK_SLED_LEAVE_SLOT_SYMBOL,
               MASSIF_ABI_STACK_SLED_LEAVE_SYMBOL);
  }

  /// Inserts a sled before \p IP, listed in the sleds' section with the
  /// slot it calls through once patched. The frame address it takes keeps
  /// it inside the frame: shrink-wrapping may not move the prologue below
  /// it nor the epilogue above it. Like the probe's call it stands for, it
  /// may clobber R11 (preserve_all's scratch) and the flags.
  void probe(Instruction *IP, bool AtExit) {
    IRBuilder<> B(IP);
    Value *Frame = B.CreateCall(FrameAddress, {B.getInt32(0)});
    std::string Asm = std::string("1: ") + SledBytes +
                      "\n\t.pushsection " MASSIF_ABI_STACK_SLEDS_SECTION +
                      sectionFlags(*IP->getFunction()) +
                      "\n\t.p2align 2\n\t.long 1b - .\n\t.long " +
                      (AtExit ? MASSIF_ABI_STACK_SLED_LEAVE_SLOT_SYMBOL
                              : MASSIF_ABI_STACK_SLED_ENTER_SLOT_SYMBOL) +
                      " - .\n\t.popsection";
    InlineAsm *Sled = InlineAsm::get(
        FunctionType::get(B.getVoidTy(), {PtrTy}, false), Asm,
        "r,~{r11},~{dirflag},~{fpsr},~{flags}", /*hasSideEffects=*/true);
    B.CreateCall(Sled, {Frame});
  }

  /// Registers the module's sleds with the runtime from a constructor,
  /// one per image (a comdat); the runtime ignores a range seen before.
  void registerSleds() {
    if (M.getFunction(MASSIF_ABI_REGISTER_SLEDS_CTOR_SYMBOL))
      return;
    LLVMContext &Ctx = M.getContext();
    Type *I8 = Type::getInt8Ty(Ctx);
    auto Bound = [&](StringRef Name) {
      auto *G = dyn_cast_or_null<GlobalVariable>(M.getNamedValue(Name));
      if (!G) {
        G = new GlobalVariable(M, I8, /*isConstant=*/true,
                               GlobalValue::ExternalLinkage, nullptr, Name);
        G->setVisibility(GlobalValue::HiddenVisibility);
      }
      return G;
    };
    GlobalVariable *Begin = Bound("__start_" MASSIF_ABI_STACK_SLEDS_SECTION);
    GlobalVariable *End = Bound("__stop_" MASSIF_ABI_STACK_SLEDS_SECTION);
    FunctionCallee Register = M.getOrInsertFunction(
        MASSIF_ABI_REGISTER_SLEDS_SYMBOL,
        FunctionType::get(Type::getVoidTy(Ctx), {PtrTy, PtrTy}, false));
    Function *Ctor = Function::Create(
        FunctionType::get(Type::getVoidTy(Ctx), false),
        GlobalValue::LinkOnceODRLinkage, MASSIF_ABI_REGISTER_SLEDS_CTOR_SYMBOL,
        M);
    Ctor->setVisibility(GlobalValue::HiddenVisibility);
    Ctor->setComdat(M.getOrInsertComdat(Ctor->getName()));
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Ctor));
    B.CreateCall(Register, {Begin, End});
    B.CreateRetVoid();
    // Before the runtime's start-up constructor (priority 101) turns the
    // probes on: it patches what is registered by then, and registering
    // later patches at once.
    appendToGlobalCtors(M, Ctor, 100, Ctor);
  }

private:
  /// The flags of the sleds' section for F's entries. An inline function
  /// or a template instance lives in a comdat group, of which the linker
  /// keeps one copy: its entries join the group, so that they go with the
  /// copies the linker discards (an entry pointing into a discarded
  /// section fails the link).
  static std::string sectionFlags(const Function &F) {
    const Comdat *C = F.getComdat();
    if (!C)
      return ",\"a\",@progbits";
    std::string Group;
    for (char Ch : C->getName()) {
      if (Ch == '"' || Ch == '\\')
        Group += '\\';
      Group += Ch == '$' ? std::string("$$") : std::string(1, Ch);
    }
    return ",\"aG\",@progbits,\"" + Group + "\",comdat";
  }

  /// The image's slot holding the runtime's hook, one per image.
  void defineSlot(StringRef Name, StringRef Hook) {
    if (M.getNamedValue(Name))
      return;
    FunctionCallee HookFn = M.getOrInsertFunction(
        Hook, FunctionType::get(Type::getVoidTy(M.getContext()), false));
    auto *G = new GlobalVariable(M, PtrTy, /*isConstant=*/false,
                                 GlobalValue::LinkOnceODRLinkage,
                                 ConstantExpr::getPointerCast(
                                     cast<Constant>(HookFn.getCallee()), PtrTy),
                                 Name);
    G->setVisibility(GlobalValue::HiddenVisibility);
    G->setComdat(M.getOrInsertComdat(Name));
    // The sleds' section refers to it from assembly only.
    appendToCompilerUsed(M, {G});
  }

  Module &M;
  PointerType *PtrTy;
  Function *FrameAddress;
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
  Prober P(M);
  for (Function *F : Targets) {
    copyReturnsForTailCalls(*F);
    // Collect first: the exit points are found before any sled is added.
    SmallVector<Instruction *, 4> Exits;
    for (BasicBlock &BB : *F)
      if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
        Exits.push_back(exitProbePoint(Ret));
    P.probe(entryCodePoint(*F), /*AtExit=*/false);
    for (Instruction *IP : Exits)
      P.probe(IP, /*AtExit=*/true);
    // A patched sled is a call: nothing may live below the stack pointer.
    F->addFnAttr(Attribute::NoRedZone);
  }
  P.registerSleds();
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
