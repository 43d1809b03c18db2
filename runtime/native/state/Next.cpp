//===- Next.cpp - The libc functions the runtime stands in for ------------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "Next.h"

#include "State.h"

#include <dlfcn.h>

using namespace massif;
using namespace massif::native;

void *native::nextDefinition(const char *Name) {
  InsideRuntime Inside; // dlsym may allocate: keep it out of the profile
  return dlsym(RTLD_NEXT, Name);
}
