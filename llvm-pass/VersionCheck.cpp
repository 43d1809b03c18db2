//===- VersionCheck.cpp - Make a mismatched runtime fail at link time -----===//
//
// Part of massif-native, under the MIT licence.
//
// Each instrumented module gets a hidden, link-once constant that holds the
// address of the runtime's MASSIF_ABI_VERSION_SYMBOL, kept alive by
// @llvm.used:
//
//     $__massif_abi_version_1_ref = comdat any
//     @__massif_abi_version_1_ref = linkonce_odr hidden constant
//         ptr @__massif_abi_version_1, comdat
//     @llvm.used = appending global [1 x ptr] [ptr @__massif_abi_version_1_ref]
//
// Nothing reads it; it exists so that the object file carries an undefined
// reference to the version symbol, which only a runtime built from the same
// abi.h defines. Linking without the runtime, or with one built for another
// ABI version, then fails naming the version:
//
//     undefined reference to `__massif_abi_version_1'
//
// The comdat makes the linker keep a single copy however many modules carry
// one; being hidden, it never leaves the executable or shared object.
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "massif/abi.h"

#include "llvm/IR/Comdat.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Type.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

static constexpr const char VersionRefName[] = MASSIF_ABI_VERSION_SYMBOL "_ref";

bool massif::addVersionReference(Module &M) {
  if (M.getNamedValue(VersionRefName))
    return false;
  bool DefinesCode = false;
  for (const Function &F : M)
    DefinesCode |= !F.isDeclaration();
  if (!DefinesCode)
    return false;

  // abi.h: extern const int MASSIF_ABI_VERSION_SYMBOL.
  Type *IntTy = Type::getInt32Ty(M.getContext());
  auto *Version = dyn_cast<GlobalVariable>(
      M.getOrInsertGlobal(MASSIF_ABI_VERSION_SYMBOL, IntTy));
  if (!Version)
    return false;
  Version->setConstant(true);

  auto *Ref = new GlobalVariable(M, Version->getType(), /*isConstant=*/true,
                                 GlobalValue::LinkOnceODRLinkage, Version,
                                 VersionRefName);
  Ref->setVisibility(GlobalValue::HiddenVisibility);
  // The runtime is ELF-only, and ELF has comdats.
  Ref->setComdat(M.getOrInsertComdat(VersionRefName));
  appendToUsed(M, {Ref});
  return true;
}

PreservedAnalyses massif::VersionCheckPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  if (refuseModule(M) || !addVersionReference(M))
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}
