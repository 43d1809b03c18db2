//===- FramePointers.cpp - Force frame pointers in instrumented code ------===//
//
// Part of massif-native, under the MIT licence.
//
// The runtime captures an allocation's stack by walking the frame-pointer
// chain through instrumented code, which is only sound if every instrumented
// frame, leaf or not, keeps one. -fno-omit-frame-pointer does that for code
// clang generates; setting "frame-pointer"="all" here does it for whatever
// the module holds (code from other front ends, or built with the flag
// missing), and the module flag does it for functions code generation adds
// later. It applies to every defined function, -massif-only-functions or
// not: an uninstrumented frame in the middle of the stack breaks the chain.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CodeGen.h"

using namespace llvm;

static constexpr const char FramePointerAttr[] = "frame-pointer";
static constexpr const char FramePointerAll[] = "all";

bool massif::forceFramePointers(Module &M) {
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() ||
        F.getFnAttribute(FramePointerAttr).getValueAsString() ==
            FramePointerAll)
      continue;
    F.addFnAttr(FramePointerAttr, FramePointerAll);
    Changed = true;
  }
  if (M.getFramePointer() != FramePointerKind::All) {
    // Not Module::setFramePointer: that adds a second flag if there is one.
    M.setModuleFlag(Module::Max, FramePointerAttr,
                    ConstantAsMetadata::get(ConstantInt::get(
                        Type::getInt32Ty(M.getContext()),
                        static_cast<unsigned>(FramePointerKind::All))));
    Changed = true;
  }
  return Changed;
}

PreservedAnalyses massif::FramePointersPass::run(Module &M,
                                                 ModuleAnalysisManager &) {
  return preservedKeepingCfg(!refuseModule(M) && forceFramePointers(M));
}
