//===- StackProbes.h - --stacks=yes: each thread's stack --------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The probes' hooks (StackProbes.cpp) keep a shadow stack of frames per
// thread and report its growth and shrinking to the model.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_STACKPROBES_H
#define MASSIF_NATIVE_STACKPROBES_H

#include <stdint.h>

namespace massif {
namespace native {

/// A new thread's stack starts at TopSP (the stack pointer before its start
/// routine's frame): its probes count from there. With --stacks=yes only.
void startThreadStack(uintptr_t TopSP);

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_STACKPROBES_H
