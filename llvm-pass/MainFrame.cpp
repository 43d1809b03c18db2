//===- MainFrame.cpp - Tell the runtime where main's frame is -------------===//
//
// Part of massif-native, under the MIT licence.
//
// Massif shows a stack from the allocation down to main and cuts the
// frames below it (__libc_start_call_main, __libc_start_main, _start). The
// runtime's walk can stop at main too, if it knows main's frame: those
// frames lie in libc, without frame pointers, where every step costs a
// lookup of call-frame rules. So the module that defines main stores
// main's frame address into the runtime's MASSIF_ABI_MAIN_FRAME_SYMBOL as
// main starts:
//
//     define i32 @main(...) {
//       %fp = call ptr @llvm.frameaddress.p0(i32 0)
//       store ptr %fp, ptr @__massif_main_frame
//
// Frame pointers are forced in instrumented code, so the frame address is
// the frame pointer the walk meets in main's frame. It is not cleared when
// main returns: exit then runs in libc frames where main's was, and the
// exit handlers' frames all lie below them, so no instrumented frame can
// have main's old address. (A store before each return would also cost
// main a register, and so 16 bytes of frame, for the slot's address.)
//
//===----------------------------------------------------------------------===//

#include "Compat.h"
#include "Passes.h"

#include "massif/abi.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

bool massif::markMainFrame(Module &M) {
  Function *Main = M.getFunction("main");
  if (!Main || Main->isDeclaration() || Main->hasLocalLinkage() ||
      Main->getFnAttribute("massif-main-frame").isValid())
    return false;
  LLVMContext &Ctx = M.getContext();
  PointerType *PtrTy = massif::compat::bytePtrTy(Ctx);
  // A weak definition: the runtime's own wins at link time, and a program
  // linked without the runtime still links and runs.
  GlobalVariable *Slot = M.getGlobalVariable(MASSIF_ABI_MAIN_FRAME_SYMBOL);
  if (!Slot)
    Slot = new GlobalVariable(M, PtrTy, /*isConstant=*/false,
                              GlobalValue::WeakAnyLinkage,
                              ConstantPointerNull::get(PtrTy),
                              MASSIF_ABI_MAIN_FRAME_SYMBOL);
  else if (Slot->getValueType() != PtrTy)
    return false;

  IRBuilder<> B(entryCodePoint(*Main));
  Function *FrameAddress = Intrinsic::getDeclaration(
      &M, Intrinsic::frameaddress, {PtrTy});
  Value *Fp = B.CreateCall(FrameAddress, {B.getInt32(0)});
  if (Fp->getType() != PtrTy)
    Fp = B.CreatePointerCast(Fp, PtrTy);
  B.CreateStore(Fp, Slot);
  // MassifPass runs once per module, but LTO may run it again on the
  // merged module: mark main as done.
  Main->addFnAttr("massif-main-frame");
  return true;
}

PreservedAnalyses massif::MainFramePass::run(Module &M,
                                             ModuleAnalysisManager &) {
  return preservedKeepingCfg(!refuseModule(M) && markMainFrame(M));
}
