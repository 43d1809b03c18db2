//===- InterposeDl.cpp - The runtime's dlclose ----------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// dlclose is interposed so that the objects it unloads keep their names in
// the profile written at exit (see Modules.h). Only this symbol lives here:
// the unit tests link the rest of the module code without it.
//
//===----------------------------------------------------------------------===//

#include "Modules.h"
#include "Runtime.h"

#include <dlfcn.h>

using namespace massif::native;

namespace {

using DlcloseFn = int (*)(void *);

DlcloseFn realDlclose() {
  static DlcloseFn Fn = nullptr;
  DlcloseFn F = __atomic_load_n(&Fn, __ATOMIC_ACQUIRE);
  if (!F) {
    ThreadState &T = TheThread;
    bool Was = T.InRuntime;
    T.InRuntime = true; // dlsym may allocate: keep it out of the profile
    F = (DlcloseFn)dlsym(RTLD_NEXT, "dlclose");
    T.InRuntime = Was;
    __atomic_store_n(&Fn, F, __ATOMIC_RELEASE);
  }
  return F;
}

} // namespace

extern "C" MASSIF_EXPORT int dlclose(void *Handle) {
  DlcloseFn Real = realDlclose();
  return Real ? dlcloseNotingModules(Real, Handle) : -1;
}
