//===- RuntimeGuard.cpp - Refuse to instrument the massif runtime ---------===//
//
// Part of massif-native, under the MIT licence.
//
// The runtime's __massif_* entry points call the real allocator; were the
// pass to rewrite those calls, __massif_malloc would call itself. So a
// module that defines the ABI version symbol or any __massif_* function is
// refused with an error. The error goes through the LLVMContext's diagnostic
// handler rather than report_fatal_error, so clang prints it as an ordinary
// "error:" against the translation unit and fails the compilation cleanly.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Passes.h"

#include "massif/abi.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

#include <string>

using namespace llvm;

namespace {

/// A plain-text error from the plugin. LLVM 19 has no generic message
/// diagnostic, so plugins allocate their own kind.
class MassifDiagnostic : public DiagnosticInfo {
public:
  explicit MassifDiagnostic(std::string Msg)
      : DiagnosticInfo(kind(), DS_Error), Msg(std::move(Msg)) {}

  void print(DiagnosticPrinter &DP) const override { DP << Msg; }

private:
  static int kind() {
    static const int Kind = getNextAvailablePluginDiagnosticKind();
    return Kind;
  }

  std::string Msg;
};

/// The first thing \p M defines that only the runtime may define, or "".
StringRef findRuntimeDefinition(const Module &M) {
  if (const GlobalVariable *Version =
          M.getGlobalVariable(MASSIF_ABI_VERSION_SYMBOL, /*AllowInternal=*/true))
    if (!Version->isDeclaration())
      return Version->getName();
  for (const Function &F : M)
    if (!F.isDeclaration() &&
        massif::compat::startsWith(F.getName(), MASSIF_ABI_PREFIX))
      return F.getName();
  return "";
}

} // namespace

bool massif::refuseRuntimeModule(Module &M) {
  StringRef Culprit = findRuntimeDefinition(M);
  if (Culprit.empty())
    return false;
  M.getContext().diagnose(MassifDiagnostic(
      ("massif: refusing to instrument the massif runtime (" + Culprit + ")")
          .str()));
  return true;
}
