//===- Compat.h - LLVM version differences, in one place --------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The plugin's sources build against one LLVM at a time; a plugin built for
// one LLVM major version crashes another's clang, so each supported version
// gets its own build of the same files. Every API use that differs between
// the supported versions (19 today, 14 next) goes through this header, keyed
// on LLVM_VERSION_MAJOR, so the pass files themselves stay version-free.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_LLVM_PASS_COMPAT_H
#define MASSIF_LLVM_PASS_COMPAT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Passes/PassBuilder.h"

#include <utility>

namespace massif {
namespace compat {

/// StringRef::starts_with, spelled startswith before LLVM 16.
inline bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) {
#if LLVM_VERSION_MAJOR >= 16
  return S.starts_with(Prefix);
#else
  return S.startswith(Prefix);
#endif
}

/// Removes from \p Attrs the attributes that make a callee an allocator in
/// the optimiser's eyes (allockind, "alloc-family", builtin, and allocptr on
/// the first \p NumParams parameters): on a __massif_* entry point they would
/// let a later pipeline (LTO) delete or merge the call, which the
/// uninstrumented build would not have done. Facts that stay true (noalias,
/// allocsize, allocalign, ...) stay.
inline llvm::AttributeList stripAllocIdentity(llvm::LLVMContext &Ctx,
                                              llvm::AttributeList Attrs,
                                              unsigned NumParams) {
#if LLVM_VERSION_MAJOR >= 15
  Attrs = Attrs.removeFnAttribute(Ctx, llvm::Attribute::AllocKind);
  for (unsigned I = 0; I != NumParams; ++I)
    Attrs = Attrs.removeParamAttribute(Ctx, I,
                                       llvm::Attribute::AllocatedPointer);
#else
  (void)NumParams;
#endif
  Attrs = Attrs.removeFnAttribute(Ctx, "alloc-family");
  Attrs = Attrs.removeFnAttribute(Ctx, llvm::Attribute::Builtin);
  return Attrs;
}

/// The type of a byte pointer in the default address space: `ptr` with
/// opaque pointers, `i8*` with LLVM 14's typed pointers.
inline llvm::PointerType *bytePtrTy(llvm::LLVMContext &Ctx) {
#if LLVM_VERSION_MAJOR >= 15
  return llvm::PointerType::getUnqual(Ctx);
#else
  return llvm::Type::getInt8PtrTy(Ctx);
#endif
}

/// Registers \p Callback to run at the end of the module optimisation
/// pipeline, at every -O level. LLVM 20 adds an LTO-phase argument.
template <typename CallbackT>
void registerOptimizerLast(llvm::PassBuilder &PB, CallbackT Callback) {
#if LLVM_VERSION_MAJOR >= 20
  PB.registerOptimizerLastEPCallback(
      [Callback](llvm::ModulePassManager &MPM, llvm::OptimizationLevel Level,
                 llvm::ThinOrFullLTOPhase) { Callback(MPM, Level); });
#else
  PB.registerOptimizerLastEPCallback(
      [Callback](llvm::ModulePassManager &MPM, llvm::OptimizationLevel Level) {
        Callback(MPM, Level);
      });
#endif
}

} // namespace compat
} // namespace massif

#endif // MASSIF_LLVM_PASS_COMPAT_H
