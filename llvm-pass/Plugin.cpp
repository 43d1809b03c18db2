//===- Plugin.cpp - The massif pass plugin's entry point ------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Registers the passes with the new pass manager, two ways:
//  - for `clang -fpass-plugin=massif.so`: MassifPass at the end of the
//    module optimisation pipeline, at every -O level. Running last means the
//    allocation calls it rewrites are exactly those the uninstrumented build
//    at the same -O level makes (heap-to-stack, malloc/free pair removal and
//    the like have already happened), so the profile is that build's.
//  - for `opt -load-pass-plugin=massif.so -passes=...` (tests, debugging):
//    each pass by name: massif, massif-alloc, massif-client-requests,
//    massif-frame-pointers, massif-version, massif-counters,
//    massif-stack-probes.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Passes.h"

#include "massif/abi.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

PreservedAnalyses massif::MassifPass::run(Module &M, ModuleAnalysisManager &) {
  if (refuseModule(M))
    return PreservedAnalyses::all();
  FunctionFilter Filter = FunctionFilter::fromCommandLine();
  bool Changed = rewriteAllocCalls(M, Filter);
  // Before the counters: a request is then a call the counts are flushed
  // before, so its time is exact.
  Changed |= lowerClientRequests(M, Filter);
  // Counters before probes, so the probes' code is not counted.
  if (instructionCountersRequested())
    Changed |= addInstructionCounters(M, Filter);
  if (stackProbesRequested())
    Changed |= addStackProbes(M, Filter);
  Changed |= forceFramePointers(M);
  Changed |= markMainFrame(M);
  Changed |= addVersionReference(M);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

static bool parseMassifPipeline(StringRef Name, ModulePassManager &MPM,
                                ArrayRef<PassBuilder::PipelineElement>) {
  if (Name == "massif")
    MPM.addPass(massif::MassifPass());
  else if (Name == "massif-alloc")
    MPM.addPass(massif::AllocRewritePass());
  else if (Name == "massif-client-requests")
    MPM.addPass(massif::ClientRequestsPass());
  else if (Name == "massif-frame-pointers")
    MPM.addPass(massif::FramePointersPass());
  else if (Name == "massif-main-frame")
    MPM.addPass(massif::MainFramePass());
  else if (Name == "massif-version")
    MPM.addPass(massif::VersionCheckPass());
  else if (Name == "massif-counters")
    MPM.addPass(massif::InstructionCountersPass());
  else if (Name == "massif-stack-probes")
    MPM.addPass(massif::StackProbesPass());
  else
    return false;
  return true;
}

static void registerMassifPasses(PassBuilder &PB) {
  massif::compat::registerOptimizerLast(
      PB, [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(massif::MassifPass());
      });
  PB.registerPipelineParsingCallback(parseMassifPipeline);
}

#define MASSIF_STRINGIFY_(X) #X
#define MASSIF_STRINGIFY(X) MASSIF_STRINGIFY_(X)

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "massif",
          "abi-" MASSIF_STRINGIFY(MASSIF_ABI_VERSION), registerMassifPasses};
}
