//===- StackSleds.h - Stack probes patched in for --stacks=yes --*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The sleds the pass leaves for stack probes, registered per image and
// turned into calls only when --stacks=yes asks for them (StackSleds.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_STACKSLEDS_H
#define MASSIF_NATIVE_STACKSLEDS_H

namespace massif {
namespace native {

/// Patches every sled registered so far, and every one registered later.
/// Call once the process is known to profile its stacks, before other
/// threads run.
void enableStackSleds();

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_STACKSLEDS_H
