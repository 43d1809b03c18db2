//===- InstructionCounters.cpp - Basic-block instruction counters ---------===//
//
// Part of massif-native, under the MIT licence.
//
// For --time-unit=i the runtime needs the number of instructions the program
// has executed. No hardware counters are available, so the code counts for
// itself. Each basic block adds its instruction count to its thread's
// counter, which the runtime sums over threads: a word at a fixed offset
// from the thread pointer (the thread area of massif/abi.h, x86-64 only),
// written with no atomics, since it belongs to the thread.
//
// Optimised code counts in a local that promotion turns into a register:
// each block adds its count to it, and the local goes to the thread's
// counter only where the runtime may read it -- before a call that may
// reach the runtime (not an intrinsic, inline assembly or a C library
// function that neither allocates nor calls back, like strlen or floor),
// and before the function ends:
//
//     loop:                                     ; 6 instructions, no call
//       %acc = phi i64 [ %in, %entry ], [ %acc2, %loop ]
//       %acc2 = add i64 %acc, 6
//       ...
//     done:                                     ; before the return
//       call void asm sideeffect "addq $0, %fs:0x80", "re,..."(i64 %acc2)
//
// A loop without calls thus costs a register add per block, not a
// read-modify-write of memory (whose store-to-load latency would chain
// every block to the one before). -O0 (optnone) code keeps the direct
// form, one `addq $N, %fs:0x80` per block: its register allocator would
// give the local a stack slot and grow the frames stack probes measure.
// Time is unchanged by promotion: every count reaches the thread's counter
// before anything can read it.
//
// What counts as an instruction: every IR instruction of the block as the
// optimiser left it, except those that generate no code (PHIs, debug and
// pseudo-probe intrinsics, lifetime markers). The counter's own instructions
// do not count.
//
// Regions. A block that always runs once each time another runs (the
// other dominates it, it post-dominates the other, and they share their
// innermost loop) has its count added by that other block: a chain, the
// join after a branch, the code after a loop cost one add. A region adds
// its whole count when it starts, so an allocation in the middle of one
// sees the instructions after it too (findCountOwners).
//
// Frame. The pass forces frame pointers, so every function also runs a
// push and a move at entry and a pop before each return that the IR does
// not show: the entry block counts 2 more, each returning block 1 more.
//
// Layout form (-massif-counters-keep-layout, MSCC_COUNTERS=layout). The
// promoted local's phis and flushes change the machine code around them:
// copies on critical edges split them into new blocks, a block that would
// have been empty keeps a copy or an add, two calls that would have been
// one tail no longer end alike. Block placement and tail merging then
// decide otherwise than for the plain build, and a profile names another
// line for a merged call, or orders two equal entries (which Massif orders
// by code address) the other way. The layout form keeps optimised code in
// the direct form, which has no phis, and leaves out of the count what
// usually makes no machine code (unconditional branches, getelementptrs,
// pointer casts), so that a block made only of them stays empty. It costs
// run time; the default stays promoted (docs/DESIGN-pass.md).
//
// A counted module defines the marker MASSIF_ABI_COUNTERS_LINKED_SYMBOL
// (RuntimeSymbols.cpp), which tells the runtime that the instruction clock is
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
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#if LLVM_VERSION_MAJOR >= 16
#include "llvm/TargetParser/Triple.h"
#else
#include "llvm/ADT/Triple.h"
#endif

#include <algorithm>
#include <iterator>

using namespace llvm;

static cl::opt<bool> CountInstructions(
    "massif-count-instructions",
    cl::desc("Count executed instructions per thread, for --time-unit=i"),
    cl::init(false));

bool massif::instructionCountersRequested() { return CountInstructions; }

static cl::opt<bool> KeepLayout(
    "massif-counters-keep-layout",
    cl::desc("Count with one add to the thread's counter per region, "
             "no register, so that code generation lays out and merges "
             "blocks as for the plain build (slower than the default)"),
    cl::init(false));

namespace {

/// Machine instructions every function has beyond its IR: the frame
/// pointer's push and move at entry and its pop before each return. The
/// pass forces frame pointers in every function, so these are certain.
constexpr uint64_t FrameSetupCount = 2;
constexpr uint64_t FrameTeardownCount = 1;

/// Whether \p I usually makes no machine code: an unconditional branch
/// (a fall-through once blocks are placed, or gone with its block), a
/// getelementptr (folded into an address) or a pointer cast. Left out of
/// the count of optimised code in the layout form only, where a block made
/// of nothing else must stay empty (KeepLayout).
bool usuallyFree(const Instruction &I) {
  if (const auto *Br = dyn_cast<BranchInst>(&I))
    return Br->isUnconditional();
  return isa<GetElementPtrInst>(I) || isa<BitCastInst>(I) ||
         isa<PtrToIntInst>(I) || isa<IntToPtrInst>(I) ||
         isa<AddrSpaceCastInst>(I);
}

/// The instructions of \p BB that stand for machine code, plus the frame
/// set-up and tear-down the block runs.
uint64_t countInstructions(const BasicBlock &BB) {
  bool SkipFree = KeepLayout && !BB.getParent()->hasOptNone();
  uint64_t N = 0;
  for (const Instruction &I : BB.instructionsWithoutDebug())
    if (!isa<PHINode>(I) && !I.isLifetimeStartOrEnd() &&
        !(SkipFree && usuallyFree(I)))
      ++N;
  if (BB.isEntryBlock())
    N += FrameSetupCount;
  if (isa<ReturnInst>(BB.getTerminator()))
    N += FrameTeardownCount;
  return N;
}

/// Whether \p BB can hold the increment of a region (a catchswitch block
/// has no room for code).
bool canHoldIncrement(BasicBlock &BB) {
  return BB.getFirstInsertionPt() != BB.end();
}

/// For each block of \p F, the block that adds its count: the first block
/// of its control-equivalence region. Block A owns block B when A
/// dominates B, B post-dominates A and both lie in the same innermost
/// loop: then B runs once every time A runs (a cycle holding one and not
/// the other would be a loop holding one and not the other), so A can add
/// B's count when it starts, as a block adds its own instructions before
/// they run. Straight-line chains, the code after an if/else or after a
/// loop, and a loop body's unconditional code thus cost one add. With
/// irreducible cycles, which loops do not describe, each block owns itself.
DenseMap<BasicBlock *, BasicBlock *> findCountOwners(Function &F) {
  DenseMap<BasicBlock *, BasicBlock *> OwnerOf;
  for (BasicBlock &BB : F)
    OwnerOf[&BB] = &BB;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  ReversePostOrderTraversal<Function *> RPOT(&F);
  if (containsIrreducibleCFG<const BasicBlock *>(RPOT, LI))
    return OwnerOf;
  PostDominatorTree PDT(F);
  for (BasicBlock &BB : F) {
    DomTreeNode *Node = DT.getNode(&BB);
    if (!Node) // unreachable
      continue;
    const Loop *L = LI.getLoopFor(&BB);
    // Up the dominators, past the loops nested in BB's, until the walk
    // leaves BB's loop (at its header, which dominates the rest of it).
    for (DomTreeNode *Up = Node->getIDom(); Up; Up = Up->getIDom()) {
      BasicBlock *A = Up->getBlock();
      if (L && !L->contains(A))
        break;
      if (LI.getLoopFor(A) == L && PDT.dominates(&BB, A) &&
          canHoldIncrement(*A))
        OwnerOf[&BB] = A;
    }
  }
  return OwnerOf;
}

/// Where a region owner's increment goes: after PHIs and EH pads, and in the
/// entry block where all entry code goes (entryCodePoint).
BasicBlock::iterator insertionPoint(BasicBlock &BB) {
  if (BB.isEntryBlock())
    return massif::entryCodePoint(*BB.getParent())->getIterator();
  return BB.getFirstInsertionPt();
}

/// The add of \p N to the thread's counter, at its fixed offset from the
/// thread pointer (abi.h's thread area): one `addq %reg, %fs:0x80`, in
/// an executable or a shared library alike. Inline assembly, because the
/// selector no longer sees a read-modify-write once it has reassociated
/// old + (count + N) into (old + count) + N, and the load, add and store
/// are then four instructions.
InlineAsm *counterAdd(LLVMContext &Ctx) {
  static_assert(MASSIF_ABI_THREAD_INSTRUCTIONS_OFFSET == 0x80,
                "the add's operand");
  Type *Void = Type::getVoidTy(Ctx);
  return InlineAsm::get(
      FunctionType::get(Void, {Type::getInt64Ty(Ctx)}, false),
      "addq $0, %fs:0x80", "re,~{flags},~{dirflag},~{fpsr}",
      /*hasSideEffects=*/true);
}

/// The thread area is glibc's on x86-64 (abi.h).
bool targetHasThreadArea(const Module &M) {
  return Triple(M.getTargetTriple()).getArch() == Triple::x86_64;
}

} // namespace

namespace {

/// C library functions that neither allocate nor call back into the
/// program, so the runtime cannot run while they do (sorted).
const char *const QuietLibraryFunctions[] = {
    "__ctype_b_loc", "__ctype_tolower_loc", "__ctype_toupper_loc",
    "__errno_location", "abs", "acos", "asin", "atan", "atan2", "bcmp",
    "ceil", "cos", "cosh", "exp", "exp2", "fabs", "floor", "fmod", "frexp",
    "isalnum", "isalpha", "iscntrl", "isdigit", "isgraph", "islower",
    "isprint", "ispunct", "isspace", "isupper", "isxdigit", "labs", "ldexp",
    "llabs", "log", "log10", "log2", "memchr", "memcmp", "memcpy", "memmove",
    "memrchr", "memset", "modf", "pow", "rawmemchr", "sin", "sinh", "sqrt",
    "stpcpy", "strcat", "strchr", "strcmp", "strcpy", "strcspn", "strlen",
    "strncat", "strncmp", "strncpy", "strnlen", "strpbrk", "strrchr",
    "strspn", "strstr", "tan", "tanh", "tolower", "toupper", "wcslen",
    "wmemchr", "wmemcmp", "wmemcpy", "wmemmove", "wmemset"};

bool isQuietLibraryCall(const CallBase &Call) {
  const Function *F = Call.getCalledFunction();
  if (!F || !F->isDeclaration())
    return false;
  StringRef Name = F->getName();
  const char *const *End = std::end(QuietLibraryFunctions);
  const char *const *It = std::lower_bound(
      std::begin(QuietLibraryFunctions), End, Name,
      [](const char *L, StringRef R) { return StringRef(L) < R; });
  return It != End && Name == *It;
}

/// Whether a call may reach the runtime, which reads the counter: any call
/// but an intrinsic, inline assembly, or a quiet C library function (the
/// string, character and math functions, which run often in loops).
bool mayReadCounter(const Instruction &I) {
  const auto *Call = dyn_cast<CallBase>(&I);
  return Call && !isa<IntrinsicInst>(Call) && !Call->isInlineAsm() &&
         !isQuietLibraryCall(*Call);
}

/// Where the promoted local is flushed: before instructions, and on edges
/// (a block of its own, split into the edge).
struct FlushPlan {
  SmallVector<Instruction *, 16> Before;
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 8> OnEdges;
};

/// Whether the edges from \p From to \p To can have a block split into
/// them: a branch or a switch (whose edges to one block split together),
/// into a block that is no exception-handling pad.
bool canSplitEdges(BasicBlock *From, BasicBlock *To) {
  const Instruction *T = From->getTerminator();
  return (isa<BranchInst>(T) || isa<SwitchInst>(T)) && !To->isEHPad();
}

/// The first instruction of \p BB before which the local must be flushed
/// (a call that may reach the runtime, or a terminator that leaves the
/// function), or null. A return's flush goes before the call in tail
/// position, if there is one, so that the call stays a jump.
Instruction *firstFlushPoint(BasicBlock &BB) {
  CallInst *TailCall = nullptr;
  if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
    TailCall = massif::tailPositionCall(*Ret);
  for (Instruction &I : BB)
    if (mayReadCounter(I) || &I == TailCall || isa<ReturnInst>(I) ||
        isa<ResumeInst>(I) || isa<UnreachableInst>(I))
      return &I;
  return nullptr;
}

/// Adds the increments of one function.
class FunctionCounter {
public:
  explicit FunctionCounter(Function &F)
      : F(F), I64(Type::getInt64Ty(F.getContext())),
        Add(counterAdd(F.getContext())) {}

  /// Each block of \p Increments adds its count to the thread's counter
  /// directly: one read-modify-write of the counter per block.
  void addDirect(ArrayRef<std::pair<BasicBlock *, uint64_t>> Increments) {
    for (auto [BB, Count] : Increments) {
      BasicBlock::iterator IP = insertionPoint(*BB);
      if (IP == BB->end()) // A catchswitch block has no room for code.
        continue;
      IRBuilder<> B(&*IP);
      addToCounter(B, B.getInt64(Count));
    }
  }

  /// Where to flush. Per block, whether the local is known to be zero at
  /// its end: a block that flushes ends at zero; one that neither flushes
  /// nor adds ends as it began. A block flushes at its first flush point
  /// unless the local is known zero there. Where paths merge with a zero
  /// local arriving from a loop exit and maybe not on another side (other
  /// than a loop's back edge), the non-zero side flushes on its way in:
  /// the merged value is then the constant 0, which would otherwise be a
  /// register kept alive across the loop's calls (a callee-saved register,
  /// pushed in the prologue, making the frame bigger). A side whose block
  /// goes only there flushes at its end; one that branches elsewhere too
  /// flushes on the edge, so that a loop's latch or header exiting there
  /// does not flush on every iteration.
  FlushPlan planFlushes(ArrayRef<std::pair<BasicBlock *, uint64_t>> Increments) {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    SmallPtrSet<BasicBlock *, 16> Adds, EndFlush;
    DenseSet<std::pair<BasicBlock *, BasicBlock *>> EdgeFlush;
    DenseMap<BasicBlock *, Instruction *> FlushAt;
    for (auto [BB, Count] : Increments)
      Adds.insert(BB);
    for (BasicBlock &BB : F)
      FlushAt[&BB] = firstFlushPoint(BB);
    DenseMap<BasicBlock *, bool> ZeroAtEnd, ZeroAtStart;
    auto zeroOnEdge = [&](BasicBlock *From, BasicBlock *To) {
      return ZeroAtEnd.lookup(From) || EdgeFlush.count({From, To});
    };
    auto zeroAtStart = [&](BasicBlock &BB) {
      if (BB.isEntryBlock())
        return true;
      for (BasicBlock *Pred : predecessors(&BB))
        if (!zeroOnEdge(Pred, &BB))
          return false;
      return true;
    };
    for (bool Changed = true; Changed;) {
      Changed = false;
      // Optimistic start (every block ends at zero), refined downwards.
      for (BasicBlock &BB : F)
        ZeroAtEnd[&BB] = true;
      for (bool Moved = true; Moved;) {
        Moved = false;
        for (BasicBlock &BB : F) {
          bool Zero = FlushAt[&BB] || EndFlush.count(&BB) ||
                      (!Adds.count(&BB) && zeroAtStart(BB));
          if (Zero != ZeroAtEnd[&BB]) {
            ZeroAtEnd[&BB] = Zero;
            Moved = true;
          }
        }
      }
      for (BasicBlock &BB : F) {
        // Only a zero arriving over a loop's exit edge is at risk: the
        // copy of the constant into the merged value is the loop's only
        // definition of it, which machine LICM hoists out of the loop, so
        // the register would live across the loop's calls. Inside a loop
        // (an interpreter's dispatch) other definitions keep it in place.
        bool ZeroLeavesLoop = false;
        for (BasicBlock *Pred : predecessors(&BB)) {
          const Loop *L = LI.getLoopFor(Pred);
          ZeroLeavesLoop |= zeroOnEdge(Pred, &BB) && L && !L->contains(&BB);
        }
        if (!ZeroLeavesLoop)
          continue;
        for (BasicBlock *Pred : predecessors(&BB)) {
          if (zeroOnEdge(Pred, &BB) || DT.dominates(&BB, Pred))
            continue;
          bool OnEdge =
              !Pred->getUniqueSuccessor() && canSplitEdges(Pred, &BB);
          if (OnEdge ? EdgeFlush.insert({Pred, &BB}).second
                     : EndFlush.insert(Pred).second)
            Changed = true;
        }
      }
    }
    FlushPlan Plan;
    for (BasicBlock &BB : F) {
      if (Instruction *I = FlushAt[&BB]) {
        if (Adds.count(&BB) || !zeroAtStart(BB))
          Plan.Before.push_back(I);
      } else if (EndFlush.count(&BB)) {
        Plan.Before.push_back(BB.getTerminator());
      }
    }
    // In function order, so the output is deterministic; a switch's
    // edges to one block are one entry (they split together).
    for (BasicBlock &BB : F)
      for (BasicBlock *Succ : successors(&BB))
        if (EdgeFlush.erase({&BB, Succ}))
          Plan.OnEdges.push_back({&BB, Succ});
    return Plan;
  }

  /// The blocks add their counts to a local (a register, after
  /// promotion), which is added to the thread's counter only where the
  /// runtime may read it: before the first call of a block that may reach
  /// the runtime, and before the function ends. A loop without such calls
  /// thus costs one register add per block.
  void addPromoted(ArrayRef<std::pair<BasicBlock *, uint64_t>> Increments) {
    FlushPlan Plan = planFlushes(Increments);
    BasicBlock &Entry = F.getEntryBlock();
    IRBuilder<> B(&*Entry.getFirstInsertionPt());
    AllocaInst *Local = B.CreateAlloca(I64, nullptr, "massif.count");
    B.CreateStore(B.getInt64(0), Local);
    for (auto [BB, Count] : Increments) {
      BasicBlock::iterator IP = insertionPoint(*BB);
      if (IP == BB->end())
        continue;
      B.SetInsertPoint(&*IP);
      B.CreateStore(B.CreateAdd(B.CreateLoad(I64, Local), B.getInt64(Count)),
                    Local);
    }
    auto flushBefore = [&](Instruction *I) {
      B.SetInsertPoint(I);
      addToCounter(B, B.CreateLoad(I64, Local));
      B.CreateStore(B.getInt64(0), Local);
    };
    for (Instruction *I : Plan.Before)
      flushBefore(I);
    for (auto [From, To] : Plan.OnEdges) {
      BasicBlock *Edge = SplitCriticalEdge(
          From, To, CriticalEdgeSplittingOptions().setMergeIdenticalEdges());
      // Splitting cannot fail on a branch or a switch; if it did, the
      // block's end is the edge's start.
      flushBefore(Edge ? Edge->getTerminator() : From->getTerminator());
    }
    // Of the CFG as the edges left it.
    DominatorTree DT(F);
    PromoteMemToReg({Local}, DT);
  }

private:
  void addToCounter(IRBuilder<> &B, Value *N) { B.CreateCall(Add, {N}); }

  Function &F;
  Type *I64;
  InlineAsm *Add;
};

} // namespace

bool massif::addInstructionCounters(Module &M, const FunctionFilter &Filter) {
  // The marker says this module has its counters already.
  if (M.getNamedValue(MASSIF_ABI_COUNTERS_LINKED_SYMBOL) ||
      !targetHasThreadArea(M))
    return false;
  // Collect first: the counts must not include the counters' own code.
  using IncrementList = SmallVector<std::pair<BasicBlock *, uint64_t>, 16>;
  SmallVector<std::pair<Function *, IncrementList>, 32> Work;
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasFnAttribute(Attribute::Naked) ||
        !Filter.allows(F))
      continue;
    // The returns the flushes would keep from their tail calls are copied
    // first, as code generation copies them; then counted where they are.
    copyReturnsForTailCalls(F);
    DenseMap<BasicBlock *, BasicBlock *> OwnerOf = findCountOwners(F);
    DenseMap<BasicBlock *, uint64_t> Totals;
    for (BasicBlock &BB : F)
      Totals[OwnerOf[&BB]] += countInstructions(BB);
    // In function order, so the output is deterministic.
    IncrementList Increments;
    for (BasicBlock &BB : F) {
      auto It = Totals.find(&BB);
      if (It != Totals.end() && It->second != 0)
        Increments.push_back({&BB, It->second});
    }
    if (!Increments.empty())
      Work.push_back({&F, std::move(Increments)});
  }
  if (Work.empty())
    return false;

  for (auto &[F, Increments] : Work) {
    FunctionCounter FC(*F);
    // -O0 code keeps one update per block: its register allocator would
    // give the promoted local a stack slot, growing frames that stack
    // probes measure, and -O0 code is not about speed. The layout form
    // keeps it everywhere: it has no phis to change the machine code.
    if (F->hasOptNone() || KeepLayout)
      FC.addDirect(Increments);
    else
      FC.addPromoted(Increments);
  }
  defineLinkedMarker(M, MASSIF_ABI_COUNTERS_LINKED_SYMBOL);
  return true;
}

PreservedAnalyses massif::InstructionCountersPass::run(Module &M,
                                                       ModuleAnalysisManager &) {
  // A flush on an edge splits it: the CFG may have changed.
  if (refuseModule(M) ||
      !addInstructionCounters(M, FunctionFilter::fromCommandLine()))
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}
