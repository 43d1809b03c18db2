//===- RuntimeSymbols.cpp - Markers the runtime looks for ----------------===//
//
// Part of massif-native, under the MIT licence.
//
// Markers. Some runtime features depend on how the program's code was
// built: the instruction clock needs counted code, stack profiling needs
// probed code. The runtime cannot see compiler options, so each module
// built with a feature defines a marker the runtime references weakly:
//
//     $__massif_counters_linked = comdat any
//     @__massif_counters_linked = linkonce_odr constant i8 1, comdat
//     @llvm.used = appending global [1 x ptr] [ptr @__massif_counters_linked]
//
// The comdat leaves one copy per linked image. The marker keeps default
// visibility, so a runtime in the executable also finds the marker of an
// instrumented shared library it depends on. @llvm.used keeps it through
// the optimiser and LTO, which would otherwise drop an unreferenced
// link-once constant.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "llvm/IR/Comdat.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

bool massif::defineLinkedMarker(Module &M, StringRef Name) {
  if (M.getNamedValue(Name))
    return false;
  Type *I8 = Type::getInt8Ty(M.getContext());
  auto *Marker =
      new GlobalVariable(M, I8, /*isConstant=*/true,
                         GlobalValue::LinkOnceODRLinkage,
                         ConstantInt::get(I8, 1), Name);
  Marker->setComdat(M.getOrInsertComdat(Name));
  appendToUsed(M, {Marker});
  return true;
}
