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

__thread ThreadState native::TheThread __attribute__((tls_model(
    "initial-exec"))) = {false, false, false, false, 0, 0, nullptr};

uint32_t native::TheState = StateUninitialised;

Model native::TheModel = {};
