//===- Passes.h - The passes of the massif plugin ---------------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The plugin is a few small module passes, each in its own file, plus one
// pass (MassifPass, "massif") that runs them all in the right order; that is
// the one clang runs for -fpass-plugin. Each pass is a thin PassInfoMixin
// over a worker function, so MassifPass can check the module once and then
// call the workers directly. Every pass is required: it runs at -O0 too and
// on optnone functions, because a profile must not depend on -O level.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_LLVM_PASS_PASSES_H
#define MASSIF_LLVM_PASS_PASSES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Alignment.h"

namespace llvm {
class CallInst;
class Function;
class GlobalVariable;
class Instruction;
class Module;
class ReturnInst;
class Type;
} // namespace llvm

namespace massif {

/// The functions -massif-only-functions lets the pass instrument (by IR,
/// i.e. mangled, name); all of them when the option is empty.
class FunctionFilter {
public:
  /// The filter given on the command line (-massif-only-functions=f,g).
  static FunctionFilter fromCommandLine();
  /// A filter from a comma-separated list; empty means every function.
  static FunctionFilter fromList(llvm::StringRef List);

  /// Whether \p F may be instrumented.
  bool allows(const llvm::Function &F) const;

private:
  llvm::StringSet<> Names;
};

/// If \p M must not be instrumented -- it is (part of) the massif runtime
/// (it defines the ABI version symbol or a function with the __massif_
/// prefix), or it was built with a sanitizer that replaces malloc --
/// reports an error through \p M's LLVMContext and returns true; the caller
/// must then leave \p M alone. Otherwise returns false.
bool refuseModule(llvm::Module &M);

/// What a pass that only adds or replaces instructions, never blocks,
/// preserves: everything when it changed nothing, the CFG otherwise.
inline llvm::PreservedAnalyses preservedKeepingCfg(bool Changed) {
  if (!Changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses PA;
  PA.preserveSet<llvm::CFGAnalyses>();
  return PA;
}

/// Redirects direct calls to allocation functions to the runtime's
/// __massif_* entry points. Returns whether \p M changed.
bool rewriteAllocCalls(llvm::Module &M, const FunctionFilter &Filter);

/// Replaces valgrind.h's amd64 client-request inline assembly in the
/// functions \p Filter allows with calls to __massif_client_request.
/// Returns whether \p M changed.
bool lowerClientRequests(llvm::Module &M, const FunctionFilter &Filter);

/// Forces frame pointers in every function defined in \p M.
bool forceFramePointers(llvm::Module &M);

/// If \p M defines main, makes main store its frame address into the
/// runtime's MASSIF_ABI_MAIN_FRAME_SYMBOL as it starts, so stack walks can
/// stop there. Returns whether \p M changed.
bool markMainFrame(llvm::Module &M);

/// Makes \p M reference the runtime's ABI version symbol, so that linking it
/// against a missing or mismatched runtime fails. Returns whether \p M
/// changed (it does not if \p M defines no function, or already has the
/// reference).
bool addVersionReference(llvm::Module &M);

/// Makes every basic block of the functions \p Filter allows add its
/// instruction count to the runtime's thread-local instruction counter.
/// Returns whether \p M changed; a flush on an edge splits it, so the CFG
/// may have changed too.
bool addInstructionCounters(llvm::Module &M, const FunctionFilter &Filter);

/// Whether -massif-count-instructions asks MassifPass for counters.
bool instructionCountersRequested();

/// Gives every function of \p M that \p Filter allows a sled after its
/// prologue and before each return, which the runtime patches into a call
/// reporting the stack pointer when --stacks=yes asks (x86-64 only).
/// Returns whether \p M changed.
bool addStackProbes(llvm::Module &M, const FunctionFilter &Filter);

/// Whether -massif-stack-probes asks MassifPass for stack probes.
bool stackProbesRequested();

/// Copies each return block of \p F that holds nothing but its return
/// into the predecessors that end in a call code generation will turn into
/// a jump, as CodeGenPrepare would (TailCalls.cpp): once the passes add
/// code before the return, code generation no longer can. Returns whether
/// \p F changed (its CFG did).
bool copyReturnsForTailCalls(llvm::Function &F);

/// The call before \p Ret that code generation will emit as a jump (a
/// sibling or musttail call whose result, or nothing, is returned), or
/// null. Code the passes add at the return goes before that call.
llvm::CallInst *tailPositionCall(llvm::ReturnInst &Ret);

/// Where code that must run once at function entry goes in \p F: after the
/// entry block's static allocas (splitting the block there keeps them
/// static) and after the -O0 stores of the arguments into their slots (so
/// at -O0 no value lives across a split made there).
llvm::Instruction *entryCodePoint(llvm::Function &F);


/// Defines the link-once marker \p Name (see RuntimeSymbols.cpp), through which
/// the runtime learns that code built with some feature is linked. Returns
/// false if \p M already has something by that name.
bool defineLinkedMarker(llvm::Module &M, llvm::StringRef Name);

/// "massif-alloc": rewriteAllocCalls.
struct AllocRewritePass : llvm::PassInfoMixin<AllocRewritePass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "massif-client-requests": lowerClientRequests.
struct ClientRequestsPass : llvm::PassInfoMixin<ClientRequestsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "massif-frame-pointers": forceFramePointers.
struct FramePointersPass : llvm::PassInfoMixin<FramePointersPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "massif-main-frame": markMainFrame.
struct MainFramePass : llvm::PassInfoMixin<MainFramePass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "massif-version": addVersionReference.
struct VersionCheckPass : llvm::PassInfoMixin<VersionCheckPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "massif-counters": addInstructionCounters, whatever the option says.
struct InstructionCountersPass : llvm::PassInfoMixin<InstructionCountersPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "massif-stack-probes": addStackProbes, whatever the option says.
struct StackProbesPass : llvm::PassInfoMixin<StackProbesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// "massif": every pass above (counters and probes only if requested),
/// after checking once that the module is not the runtime. This is what
/// -fpass-plugin runs.
struct MassifPass : llvm::PassInfoMixin<MassifPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace massif

#endif // MASSIF_LLVM_PASS_PASSES_H
