//===- EntryPoint.cpp - Where entry code goes in a function ---------------===//
//
// Part of massif-native, under the MIT licence.
//
// Instruction counters and stack probes both add code that runs once when
// a function starts. Both put it at the same place, entryCodePoint:
//  - after the entry block's last static alloca;
//  - after the stores that put arguments and constants into their static
//    slots, which -O0 code starts with, and the debug intrinsics among
//    them.
// So no value of the function's start lives across the added code, and
// the frame a probe measures stays the one the function has without it.
// (The probes were once a branch around a call, which
// split the block there: a split before the allocas would have made them
// dynamic, one before the stores would have grown the frame.)
//
//===----------------------------------------------------------------------===//

#include "Passes.h"

#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

/// Whether \p I only stores an argument or a constant into a static alloca.
static bool storesIncomingValue(const Instruction &I) {
  auto *Store = dyn_cast<StoreInst>(&I);
  if (!Store || Store->isVolatile())
    return false;
  auto *Slot = dyn_cast<AllocaInst>(Store->getPointerOperand());
  const Value *V = Store->getValueOperand();
  return Slot && Slot->isStaticAlloca() &&
         (isa<Argument>(V) || isa<Constant>(V));
}

Instruction *massif::entryCodePoint(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  Instruction *IP = &*Entry.getFirstInsertionPt();
  for (Instruction &I : Entry)
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (AI->isStaticAlloca())
        IP = AI->getNextNode();
  while (!IP->isTerminator() &&
         (isa<DbgInfoIntrinsic>(IP) || isa<AllocaInst>(IP) ||
          storesIncomingValue(*IP)))
    IP = IP->getNextNode();
  return IP;
}
