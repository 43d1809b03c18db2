//===- RuntimeGuard.cpp - Refuse modules the pass must not instrument -----===//
//
// Part of massif-native, under the MIT licence.
//
// The runtime's __massif_* entry points call the real allocator; were the
// pass to rewrite those calls, __massif_malloc would call itself. So a
// module that defines the ABI version symbol or any __massif_* function is
// refused with an error.
//
// Code built with a sanitizer that replaces malloc and free (address,
// hwaddress, memory, thread) is refused too: the sanitizer's runtime and
// massif's would both interpose the allocator, and the program would crash
// at its first allocation. Such modules carry the sanitizer's function
// attribute (sanitize_address, ...) on their functions.
//
// The error goes through the LLVMContext's diagnostic handler rather than
// report_fatal_error, so clang prints it as an ordinary "error:" against
// the translation unit and fails the compilation cleanly.
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

/// The -fsanitize= name of a malloc-replacing sanitizer \p M was built
/// with, or "".
StringRef findSanitizer(const Module &M) {
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    if (F.hasFnAttribute(Attribute::SanitizeAddress))
      return "address";
    if (F.hasFnAttribute(Attribute::SanitizeHWAddress))
      return "hwaddress";
    if (F.hasFnAttribute(Attribute::SanitizeMemory))
      return "memory";
    if (F.hasFnAttribute(Attribute::SanitizeThread))
      return "thread";
  }
  return "";
}

} // namespace

bool massif::refuseModule(Module &M) {
  StringRef Culprit = findRuntimeDefinition(M);
  if (!Culprit.empty()) {
    M.getContext().diagnose(MassifDiagnostic(
        ("massif: refusing to instrument the massif runtime (" + Culprit + ")")
            .str()));
    return true;
  }
  StringRef Sanitizer = findSanitizer(M);
  if (!Sanitizer.empty()) {
    M.getContext().diagnose(MassifDiagnostic(
        ("massif: cannot profile code built with -fsanitize=" + Sanitizer +
         ": the sanitizer replaces malloc and free, and so does massif")
            .str()));
    return true;
  }
  return false;
}
