//===- InstructionCounters.cpp - Basic-block instruction counters ---------===//
//
// Part of massif-native, under the MIT licence.
//
// For --time-unit=i the runtime needs the number of instructions the program
// has executed. No hardware counters are available, so the code counts for
// itself. Each basic block adds its instruction count to a thread-local
// counter that the runtime defines and sums over threads
// (MASSIF_ABI_INSTRUCTION_COUNTER_SYMBOL in massif/abi.h):
//
//     bb:                                       ; 7 instructions
//       %c = call ptr @llvm.threadlocal.address.p0(ptr @__massif_thread_instructions)
//       %n = load i64, ptr %c, !nosanitize
//       %m = add i64 %n, 7
//       store i64 %m, ptr %c, !nosanitize
//       ...the block's own 7 instructions...
//
// This is one add per block, with no atomics: the counter belongs to the
// thread. Codegen folds it to `addq $7, %fs:...`.
//
// What counts as an instruction: every IR instruction of the block as the
// optimiser left it, except those that generate no code (PHIs, debug and
// pseudo-probe intrinsics, lifetime markers). The counter's own instructions
// do not count. A block adds its whole count when it starts, so an
// allocation in the middle of a block sees the instructions after it too.
//
// Straight-line chains. A block whose only predecessor ends in an
// unconditional branch to it runs exactly when that predecessor runs. Its
// count is added by the head of the chain, so a chain costs one add.
//
// Frame. The pass forces frame pointers, so every function also runs a
// push and a move at entry and a pop before each return that the IR does
// not show: the entry block counts 2 more, each returning block 1 more.
//
// A counted module defines the marker MASSIF_ABI_COUNTERS_LINKED_SYMBOL
// (Markers.cpp), which tells the runtime that the instruction clock is
// real, and tells this pass that the module has its counters already.
//
// mscc turns the counters on (-mllvm -massif-count-instructions; with
// clang: -fplugin=massif.so -fpass-plugin=massif.so -mllvm
// -massif-count-instructions). The "massif-counters" pass (opt) always
// adds them.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Passes.h"

#include "massif/abi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

static cl::opt<bool> CountInstructions(
    "massif-count-instructions",
    cl::desc("Count executed instructions per thread, for --time-unit=i"),
    cl::init(false));

bool massif::instructionCountersRequested() { return CountInstructions; }

namespace {

/// Machine instructions every function has beyond its IR: the frame
/// pointer's push and move at entry and its pop before each return. The
/// pass forces frame pointers in every function, so these are certain.
constexpr uint64_t FrameSetupCount = 2;
constexpr uint64_t FrameTeardownCount = 1;

/// The instructions of \p BB that stand for machine code, plus the frame
/// set-up and tear-down the block runs.
uint64_t countInstructions(const BasicBlock &BB) {
  uint64_t N = 0;
  for (const Instruction &I : BB.instructionsWithoutDebug())
    if (!isa<PHINode>(I) && !I.isLifetimeStartOrEnd())
      ++N;
  if (BB.isEntryBlock())
    N += FrameSetupCount;
  if (isa<ReturnInst>(BB.getTerminator()))
    N += FrameTeardownCount;
  return N;
}

/// The block that always runs just before \p BB and only leads to it, or
/// null.
BasicBlock *chainPredecessor(BasicBlock &BB) {
  BasicBlock *Pred = BB.getSinglePredecessor();
  if (!Pred || Pred == &BB)
    return nullptr;
  auto *Br = dyn_cast<BranchInst>(Pred->getTerminator());
  return Br && Br->isUnconditional() ? Pred : nullptr;
}

/// For each block of \p F, the block that adds its count: the head of its
/// straight-line chain. A cycle of chain links can only be unreachable
/// code, and each of its blocks is its own head.
DenseMap<BasicBlock *, BasicBlock *> findChainHeads(Function &F) {
  DenseMap<BasicBlock *, BasicBlock *> HeadOf;
  for (BasicBlock &BB : F) {
    if (HeadOf.count(&BB))
      continue;
    SmallVector<BasicBlock *, 8> Path;
    SmallPtrSet<BasicBlock *, 8> OnPath;
    BasicBlock *Cur = &BB;
    BasicBlock *Head = nullptr;
    while (true) {
      auto Known = HeadOf.find(Cur);
      if (Known != HeadOf.end()) {
        Head = Known->second;
        break;
      }
      if (!OnPath.insert(Cur).second) {
        // A cycle: no block of the path has a chain head.
        for (BasicBlock *B : Path)
          HeadOf[B] = B;
        Path.clear();
        break;
      }
      Path.push_back(Cur);
      BasicBlock *Pred = chainPredecessor(*Cur);
      if (!Pred) {
        Head = Cur;
        break;
      }
      Cur = Pred;
    }
    for (BasicBlock *B : Path)
      HeadOf[B] = Head;
  }
  return HeadOf;
}

/// Where a chain head's increment goes: after PHIs and EH pads, and in the
/// entry block after the static allocas.
BasicBlock::iterator insertionPoint(BasicBlock &BB) {
  BasicBlock::iterator IP = BB.getFirstInsertionPt();
  if (BB.isEntryBlock())
    while (IP != BB.end() && isa<AllocaInst>(*IP))
      ++IP;
  return IP;
}

/// abi.h declares the counter unsigned long long.
const Align CounterAlign(8);

/// The runtime's counter, declared initial-exec so each access is a fixed
/// offset from the thread pointer. Null if \p M already has the name for
/// something else.
GlobalVariable *getOrDeclareCounter(Module &M) {
  Type *I64 = Type::getInt64Ty(M.getContext());
  GlobalVariable *Counter =
      M.getGlobalVariable(MASSIF_ABI_INSTRUCTION_COUNTER_SYMBOL, true);
  if (!Counter) {
    Counter = new GlobalVariable(M, I64, /*isConstant=*/false,
                                 GlobalValue::ExternalLinkage, nullptr,
                                 MASSIF_ABI_INSTRUCTION_COUNTER_SYMBOL, nullptr,
                                 GlobalValue::InitialExecTLSModel);
    Counter->setAlignment(CounterAlign);
    return Counter;
  }
  if (Counter->getValueType() != I64 || !Counter->isThreadLocal())
    return nullptr;
  if (Counter->getThreadLocalMode() != GlobalValue::LocalExecTLSModel)
    Counter->setThreadLocalMode(GlobalValue::InitialExecTLSModel);
  return Counter;
}

} // namespace

bool massif::addInstructionCounters(Module &M, const FunctionFilter &Filter) {
  // The marker says this module has its counters already.
  if (M.getNamedValue(MASSIF_ABI_COUNTERS_LINKED_SYMBOL))
    return false;
  // Collect first: the counts must not include the counters' own code.
  SmallVector<std::pair<BasicBlock *, uint64_t>, 64> Increments;
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasFnAttribute(Attribute::Naked) ||
        !Filter.allows(F))
      continue;
    DenseMap<BasicBlock *, BasicBlock *> HeadOf = findChainHeads(F);
    DenseMap<BasicBlock *, uint64_t> Totals;
    for (BasicBlock &BB : F)
      Totals[HeadOf[&BB]] += countInstructions(BB);
    // In function order, so the output is deterministic.
    for (BasicBlock &BB : F) {
      auto It = Totals.find(&BB);
      if (It != Totals.end() && It->second != 0)
        Increments.push_back({&BB, It->second});
    }
  }
  if (Increments.empty())
    return false;

  GlobalVariable *Counter = getOrDeclareCounter(M);
  if (!Counter)
    return false;
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  MDNode *NoSanitize = MDNode::get(Ctx, {});
  unsigned NoSanitizeKind = Ctx.getMDKindID("nosanitize");
  bool Changed = false;
  for (auto [BB, Count] : Increments) {
    BasicBlock::iterator IP = insertionPoint(*BB);
    if (IP == BB->end()) // A catchswitch block has no room for code.
      continue;
    IRBuilder<> B(&*IP);
    Value *Addr = compat::threadLocalAddress(B, Counter);
    LoadInst *Old = B.CreateAlignedLoad(I64, Addr, CounterAlign);
    StoreInst *New = B.CreateAlignedStore(
        B.CreateAdd(Old, B.getInt64(Count)), Addr, CounterAlign);
    Old->setMetadata(NoSanitizeKind, NoSanitize);
    New->setMetadata(NoSanitizeKind, NoSanitize);
    Changed = true;
  }
  if (Changed)
    defineLinkedMarker(M, MASSIF_ABI_COUNTERS_LINKED_SYMBOL);
  return Changed;
}

PreservedAnalyses massif::InstructionCountersPass::run(Module &M,
                                                       ModuleAnalysisManager &) {
  if (refuseRuntimeModule(M) ||
      !addInstructionCounters(M, FunctionFilter::fromCommandLine()))
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}
