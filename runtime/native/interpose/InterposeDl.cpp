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
#include "Memusage.h"
#include "Next.h"
#include "State.h"


using namespace massif::native;

MASSIF_DECLARE_NEXT(dlclose);

namespace {

using DlcloseFn = int (*)(void *);

DlcloseFn realDlclose() {
  static DlcloseFn Fn = nullptr;
  MASSIF_RESOLVE_NEXT(Fn, dlclose);
  return Fn;
}

} // namespace

extern "C" MASSIF_EXPORT int MASSIF_STANDS_IN_FOR(dlclose)(void *Handle) {
  DlcloseFn Real = realDlclose();
  if (Real && countingForMemusage()) {
    // The loader frees in here, as in the plain build's call.
    MemusageShiftScope Shift(__builtin_frame_address(0));
    return Real(Handle);
  }
  return Real ? dlcloseNotingModules(Real, Handle) : -1;
}
