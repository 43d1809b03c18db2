//===- ClientRequests.cpp - Valgrind client requests, natively ------------===//
//
// Part of massif-native, under the MIT licence.
//
// Custom allocators tell Valgrind about their blocks with valgrind.h's
// client requests (VALGRIND_MALLOCLIKE_BLOCK, VALGRIND_FREELIKE_BLOCK,
// VALGRIND_RESIZEINPLACE_BLOCK, ...). On amd64 each request is a magic
// instruction sequence, a no-op on a real CPU, that Valgrind's translator
// recognises: the request block's address in %rax, the default result in
// %rdx, and the result back in %rdx:
//
//     %r = call i64 asm sideeffect "rolq $$3,  %rdi ; rolq $$13, %rdi\0A\09
//              rolq $$61, %rdi ; rolq $$51, %rdi\0A\09xchgq %rbx,%rbx",
//              "={dx},{ax},0,~{cc},~{memory},..."(ptr %args, i64 %default)
//
// The pass replaces that inline assembly with a call to the runtime, with
// the same operands and result, so the requests reach it natively:
//
//     %r = call i64 @__massif_client_request(ptr %args, i64 %default)
//
// The runtime handles the requests Massif handles and returns the default
// for every other one, which is what the program sees natively (so
// RUNNING_ON_VALGRIND stays 0). The call keeps the asm's debug location:
// the innermost frame of a block's stack is the line of the request, as
// under Valgrind.
//
// Recognition is by the asm text, compared instruction by instruction with
// whitespace removed, and by the constraints: output in %rdx, input in
// %rax, default tied to the output. Valgrind's other magic sequences (the
// same preamble with another xchg) are left alone. Only amd64's form is
// recognised. -massif-only-functions limits the lowering as it limits
// allocation rewriting.
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Passes.h"

#include "massif/abi.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <string>

using namespace llvm;

namespace {

/// \p Asm without blanks, with statement separators (newlines, `;`) as
/// `;` and LLVM's escaped `$$` as `$`.
std::string normalise(StringRef Asm) {
  std::string Out;
  for (size_t I = 0; I < Asm.size(); ++I) {
    char C = Asm[I];
    if (C == ' ' || C == '\t')
      continue;
    if (C == '\n' || C == ';') {
      if (!Out.empty() && Out.back() != ';')
        Out += ';';
      continue;
    }
    if (C == '$' && I + 1 < Asm.size() && Asm[I + 1] == '$')
      ++I;
    Out += C;
  }
  while (!Out.empty() && Out.back() == ';')
    Out.pop_back();
  return Out;
}

/// Whether \p Call is valgrind.h's amd64 client request.
bool isClientRequest(const CallInst &Call) {
  const auto *Asm = dyn_cast<InlineAsm>(Call.getCalledOperand());
  if (!Asm || Call.arg_size() != 2 || !Call.getType()->isIntegerTy(64) ||
      !Call.getArgOperand(0)->getType()->isPointerTy() ||
      !Call.getArgOperand(1)->getType()->isIntegerTy(64))
    return false;
  static const std::string Expected =
      "rolq$3,%rdi;rolq$13,%rdi;rolq$61,%rdi;rolq$51,%rdi;xchgq%rbx,%rbx";
  return normalise(Asm->getAsmString()) == Expected &&
         massif::compat::startsWith(Asm->getConstraintString(),
                                    "={dx},{ax},0");
}

} // namespace

bool massif::lowerClientRequests(Module &M, const FunctionFilter &Filter) {
  SmallVector<CallInst *, 8> Requests;
  for (Function &F : M) {
    if (F.isDeclaration() || !Filter.allows(F))
      continue;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *Call = dyn_cast<CallInst>(&I))
          if (isClientRequest(*Call))
            Requests.push_back(Call);
  }
  if (Requests.empty())
    return false;

  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  PointerType *PtrTy = compat::bytePtrTy(Ctx);
  FunctionCallee Hook =
      M.getOrInsertFunction("__massif_client_request",
                            FunctionType::get(I64, {PtrTy, I64}, false));
  for (CallInst *Request : Requests) {
    IRBuilder<> B(Request);
    Value *Args = Request->getArgOperand(0);
    if (Args->getType() != PtrTy)
      Args = B.CreatePointerCast(Args, PtrTy);
    CallInst *Call = B.CreateCall(Hook, {Args, Request->getArgOperand(1)});
    Call->setDebugLoc(Request->getDebugLoc());
    Call->takeName(Request);
    Request->replaceAllUsesWith(Call);
    Request->eraseFromParent();
  }
  return true;
}

PreservedAnalyses massif::ClientRequestsPass::run(Module &M,
                                                  ModuleAnalysisManager &) {
  if (refuseModule(M) ||
      !lowerClientRequests(M, FunctionFilter::fromCommandLine()))
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}
