//===- State.cpp - The native runtime's state -----------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The definitions of State.h's globals: constant-initialised, no
// constructors.
//
//===----------------------------------------------------------------------===//

#include "State.h"

using namespace massif;
using namespace massif::native;

alignas(64) uint32_t native::TheState = StateUninitialised;

Model native::TheModel = {};
