//===- AllocRewrite.cpp - Redirect allocation calls to the runtime --------===//
//
// Part of massif-native, under the MIT licence.
//
// Overview. Every direct call or invoke of a *declared* allocation function
// listed in massif/abi.h (malloc ... strndup, every operator new/delete) is
// redirected, in place, to the runtime entry point __massif_<name>:
//
//     %p = call noalias ptr @malloc(i64 %n)
//       ==> %p = call noalias ptr @__massif_malloc(i64 %n)
//
// The runtime then knows the call comes from instrumented code, whose frames
// all have frame pointers (see FramePointers.cpp), and walks the stack cheaply.
//
// Only the callee changes: the arguments, the result, invoke vs call and its
// unwind edge, the debug location, metadata, operand bundles and the tail
// call marker all stay (the prototype and calling convention are identical,
// so even musttail stays valid, and a tail call that drops its caller's frame
// does so natively too). Call and declaration attributes stay except those
// that name the callee an allocator to the optimiser (see
// compat::stripAllocIdentity).
//
// What is left alone, on purpose:
//  - calls through pointers, and uses of malloc as a value (stored, passed):
//    the runtime's interposed malloc/new catch those at run time;
//  - a function the module *defines* (a custom malloc is not libc's);
//  - a declaration whose type does not match the contract's prototype (the
//    shape is taken from abi.h's own declarations, so the two cannot drift);
//  - with -massif-only-functions, calls inside functions not named there.
//    (The runtime's own __massif_* functions never get here: RuntimeGuard
//    refuses any module that defines one.)
//
// The pass runs last in the optimisation pipeline (see Plugin.cpp), so the
// calls it sees are exactly those an uninstrumented build makes: the ones
// the optimiser removed or turned into stack memory are gone already.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Passes.h"

#include "massif/abi.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

using namespace llvm;

namespace {

/// The C types abi.h's prototypes are made of, as seen in IR.
enum class ArgKind : uint8_t { Void, Ptr, Size, Int };

template <typename T> constexpr ArgKind kindOf() {
  if constexpr (std::is_void_v<T>)
    return ArgKind::Void;
  else if constexpr (std::is_pointer_v<T>)
    return ArgKind::Ptr;
  else if constexpr (std::is_same_v<T, size_t>)
    return ArgKind::Size;
  else {
    static_assert(std::is_same_v<T, int>, "abi.h uses a type the pass "
                                          "does not know how to match");
    return ArgKind::Int;
  }
}

constexpr unsigned MaxParams = 3;

/// A prototype from abi.h, reduced to what IR can check.
struct Shape {
  ArgKind Result;
  unsigned NumParams;
  ArgKind Params[MaxParams];
};

template <typename R, typename... A> constexpr Shape shapeOf(R (*)(A...)) {
  static_assert(sizeof...(A) <= MaxParams, "raise MaxParams");
  return Shape{kindOf<R>(), sizeof...(A), {kindOf<A>()...}};
}

/// One row of abi.h's allocation-function lists.
struct AllocFunction {
  const char *LibName;   ///< What the program calls: "malloc", "_Znwm".
  const char *EntryName; ///< What the pass calls instead: "__massif_malloc".
  Shape Sig;             ///< The prototype both share.
};

// The table is generated from abi.h: the names from its X-macro lists, the
// shapes from its declarations of the entry points themselves.
#define MASSIF_ALLOC_ROW(Name, LibName)                                        \
  {LibName, MASSIF_ABI_PREFIX #Name,                                           \
   shapeOf(static_cast<decltype(&__massif_##Name)>(nullptr))},
constexpr AllocFunction AllocFunctions[] = {
    MASSIF_ABI_C_ALLOC_FUNCTIONS(MASSIF_ALLOC_ROW)
        MASSIF_ABI_CXX_ALLOC_FUNCTIONS(MASSIF_ALLOC_ROW)};
#undef MASSIF_ALLOC_ROW

const AllocFunction *findAllocFunction(StringRef Name) {
  for (const AllocFunction &AF : AllocFunctions)
    if (Name == AF.LibName)
      return &AF;
  return nullptr;
}

bool matchesKind(Type *Ty, ArgKind Kind, const DataLayout &DL) {
  switch (Kind) {
  case ArgKind::Void:
    return Ty->isVoidTy();
  case ArgKind::Ptr:
    return Ty->isPointerTy() && Ty->getPointerAddressSpace() == 0;
  case ArgKind::Size:
    // size_t is pointer-sized on every target the runtime supports.
    return Ty->isIntegerTy(DL.getPointerSizeInBits(0));
  case ArgKind::Int:
    // C int is 32 bits on every target the runtime supports.
    return Ty->isIntegerTy(32);
  }
  return false;
}

bool matchesShape(FunctionType *FTy, const Shape &Sig, const DataLayout &DL) {
  if (FTy->isVarArg() || FTy->getNumParams() != Sig.NumParams ||
      !matchesKind(FTy->getReturnType(), Sig.Result, DL))
    return false;
  for (unsigned I = 0; I != Sig.NumParams; ++I)
    if (!matchesKind(FTy->getParamType(I), Sig.Params[I], DL))
      return false;
  return true;
}

/// The entry point standing for \p Lib, declared with \p Lib's prototype,
/// attributes and calling convention; null if \p M already declares that
/// name with another type (then the calls are left alone).
Function *getOrDeclareEntry(Module &M, Function &Lib, StringRef EntryName) {
  if (Function *Existing = M.getFunction(EntryName))
    return Existing->getFunctionType() == Lib.getFunctionType() ? Existing
                                                                : nullptr;
  Function *Entry = Function::Create(Lib.getFunctionType(),
                                     GlobalValue::ExternalLinkage, EntryName, M);
  Entry->setCallingConv(Lib.getCallingConv());
  Entry->setAttributes(massif::compat::stripAllocIdentity(
      M.getContext(), Lib.getAttributes(), Lib.arg_size()));
  Entry->setDSOLocal(Lib.isDSOLocal());
  return Entry;
}

/// The direct calls and invokes of \p Lib that may be redirected.
SmallVector<CallBase *, 16> collectCalls(Function &Lib,
                                         const massif::FunctionFilter &Filter) {
  SmallVector<CallBase *, 16> Calls;
  for (Use &U : Lib.uses()) {
    auto *CB = dyn_cast<CallBase>(U.getUser());
    // Any other use (stored, passed, compared, inside a constant) makes
    // Lib's address escape: interposition handles those calls.
    if (!CB || !CB->isCallee(&U) || !(isa<CallInst>(CB) || isa<InvokeInst>(CB)))
      continue;
    // The call must use the callee's own prototype, not reinterpret it.
    if (CB->getFunctionType() != Lib.getFunctionType())
      continue;
    if (!Filter.allows(*CB->getFunction()))
      continue;
    Calls.push_back(CB);
  }
  return Calls;
}

} // namespace

bool massif::rewriteAllocCalls(Module &M, const FunctionFilter &Filter) {
  const DataLayout &DL = M.getDataLayout();
  LLVMContext &Ctx = M.getContext();

  // Collect first: declaring an entry point adds to M's function list.
  SmallVector<std::pair<Function *, const AllocFunction *>, 8> Libs;
  for (Function &F : M) {
    if (!F.isDeclaration() || F.use_empty())
      continue;
    const AllocFunction *AF = findAllocFunction(F.getName());
    if (AF && matchesShape(F.getFunctionType(), AF->Sig, DL))
      Libs.push_back({&F, AF});
  }

  bool Changed = false;
  for (auto [Lib, AF] : Libs) {
    SmallVector<CallBase *, 16> Calls = collectCalls(*Lib, Filter);
    if (Calls.empty())
      continue;
    Function *Entry = getOrDeclareEntry(M, *Lib, AF->EntryName);
    if (!Entry)
      continue;
    for (CallBase *CB : Calls) {
      CB->setCalledFunction(Entry);
      CB->setAttributes(compat::stripAllocIdentity(Ctx, CB->getAttributes(),
                                                   CB->arg_size()));
    }
    Changed = true;
  }
  return Changed;
}

PreservedAnalyses massif::AllocRewritePass::run(Module &M,
                                                ModuleAnalysisManager &) {
  return preservedKeepingCfg(
      !refuseModule(M) &&
      rewriteAllocCalls(M, FunctionFilter::fromCommandLine()));
}
