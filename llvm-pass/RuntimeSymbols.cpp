//===- RuntimeSymbols.cpp - Thread-locals and markers shared with the runtime -===//
//
// Part of massif-native, under the MIT licence.
//
// Thread-local variables. Counters and probes touch a runtime thread-local
// in every function, so its access must be cheap. The runtime is always
// linked statically into the executable (mscc links libmassif_rt.a), so
// code bound for the executable -- a module built without -fPIC, or with
// -fPIE -- reaches it local-exec: a constant offset from %fs, with no
// register to hold the offset (which would otherwise be pushed in every
// prologue and make the frames a stack probe measures bigger). Code built
// -fPIC may end up in a shared library and uses initial-exec (the offset is
// loaded from the GOT; the variable needs static TLS, which the executable
// has).
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
#include "llvm/Support/CodeGen.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

GlobalVariable *massif::getOrDeclareRuntimeTLS(Module &M, StringRef Name,
                                               Type *Ty, Align Alignment) {
  GlobalValue::ThreadLocalMode Mode =
      M.getPICLevel() == PICLevel::NotPIC || M.getPIELevel() != PIELevel::Default
          ? GlobalValue::LocalExecTLSModel
          : GlobalValue::InitialExecTLSModel;
  GlobalVariable *TLS = M.getGlobalVariable(Name, /*AllowInternal=*/true);
  if (!TLS) {
    TLS = new GlobalVariable(M, Ty, /*isConstant=*/false,
                             GlobalValue::ExternalLinkage, nullptr, Name,
                             nullptr, Mode);
    TLS->setAlignment(Alignment);
    return TLS;
  }
  if (TLS->getValueType() != Ty || !TLS->isThreadLocal())
    return nullptr;
  // A declaration the program made (through massif/abi.h) gets the same
  // model, unless it already has the cheapest.
  if (TLS->getThreadLocalMode() != GlobalValue::LocalExecTLSModel)
    TLS->setThreadLocalMode(Mode);
  return TLS;
}

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
