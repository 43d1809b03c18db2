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
  ThreadState &T = thisThread();
  bool Was = T.InRuntime;
  T.InRuntime = true; // dlsym may allocate: keep it out of the profile
  void *F = dlsym(RTLD_NEXT, Name);
  T.InRuntime = Was;
  return F;
}
