//===- StackSleds.cpp - Stack probes patched in for --stacks=yes ----------===//
//
// Part of massif-native, under the MIT licence.
//
// The pass leaves a six-byte no-op where each stack probe goes (after a
// function's prologue, before each of its returns) and lists it in the
// image's section of sleds with the slot it is to call through
// (include/massif/abi.h). Without --stacks=yes the no-ops stay: a probe
// compiled in costs a no-op, where the test of a thread-local flag it
// replaced cost lua 7% of its instructions and time. With --stacks=yes
// each sled becomes "call *slot(%rip)", the slot holding
// __massif_stack_sled_enter or _leave (ProbeHooks.cpp).
//
// Each image registers its section from a constructor; the sleds are
// patched when the main thread's probes are turned on (before main, while
// the process has one thread), or at once for an image registered after
// that (from its constructor, inside dlopen, before any of its code
// runs; each time it is loaded). The code is made writable for the patch and
// given back its protection after. A sled whose bytes are not the expected
// no-op is left alone.
//
//===----------------------------------------------------------------------===//

#include "StackSleds.h"

#include "Messages.h"
#include "OutFile.h"
#include "State.h"

#include "massif/abi.h"

#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace massif;
using namespace massif::native;

namespace {

/// One sled: offsets from each field's own address.
struct SledEntry {
  int32_t SledOff;
  int32_t SlotOff;
};

constexpr uint8_t NoOp[6] = {0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00};
constexpr uint32_t MaxImages = 256; // before main; warnDropped names it

struct Range {
  const SledEntry *Begin, *End;
};
Range Images[MaxImages];
uint32_t NumImages = 0;
bool Dropped = false; ///< an image came after MaxImages
bool Enabled = false;

uintptr_t sledAt(const SledEntry &E) {
  return (uintptr_t)&E.SledOff + (intptr_t)E.SledOff;
}
uintptr_t slotOf(const SledEntry &E) {
  return (uintptr_t)&E.SlotOff + (intptr_t)E.SlotOff;
}

void warnOnce(bool &Warned, const char *Line) {
  if (!Warned)
    writeLine(warningFd(), Line);
  Warned = true;
}

void warnDropped() {
  static bool Warned = false;
  warnOnce(Warned, "massif: warning: --stacks=yes: more than 256 images "
                   "with stack probes before main; the frames of the later "
                   "ones are not counted");
}

/// Overwrites the sleds of R with calls through their slots.
void patch(const Range &R) {
  if (R.Begin >= R.End)
    return;
  uintptr_t Lo = ~uintptr_t(0), Hi = 0;
  for (const SledEntry *E = R.Begin; E < R.End; ++E) {
    uintptr_t S = sledAt(*E);
    Lo = S < Lo ? S : Lo;
    Hi = S + sizeof(NoOp) > Hi ? S + sizeof(NoOp) : Hi;
  }
  uintptr_t PageB = (uintptr_t)getauxval(AT_PAGESZ);
  uintptr_t First = Lo & ~(PageB - 1);
  size_t SpanB = ((Hi + PageB - 1) & ~(PageB - 1)) - First;
  // Writable and executable for the moment of the patch: the patching
  // code itself may share a page with sleds.
  if (mprotect((void *)First, SpanB, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
    static bool Warned = false;
    warnOnce(Warned, "massif: warning: --stacks=yes: the stack probes' code "
                     "could not be made writable to turn them on (mprotect "
                     "refused); the frames of that code are not counted");
    return;
  }
  for (const SledEntry *E = R.Begin; E < R.End; ++E) {
    uint8_t *S = (uint8_t *)sledAt(*E);
    intptr_t Disp = (intptr_t)slotOf(*E) - (intptr_t)(S + sizeof(NoOp));
    if (memcmp(S, NoOp, sizeof(NoOp)) != 0 || Disp != (int32_t)Disp)
      continue;
    int32_t Disp32 = (int32_t)Disp;
    uint8_t Call[6] = {0xff, 0x15};
    memcpy(Call + 2, &Disp32, sizeof(Disp32));
    // No thread runs this code yet: the main thread patches before main,
    // and a library is patched from its own constructor, inside dlopen.
    memcpy(S, Call, sizeof(Call));
  }
  mprotect((void *)First, SpanB, PROT_READ | PROT_EXEC);
  __builtin___clear_cache((char *)First, (char *)(First + SpanB));
}

} // namespace

extern "C" MASSIF_EXPORT void __massif_register_stack_sleds(const void *Begin,
                                                            const void *End) {
  Range R = {(const SledEntry *)Begin, (const SledEntry *)End};
  // Once the probes are on, an image is patched as it registers (patch
  // leaves sleds already patched alone): nothing to keep. An image
  // dlopen'ed, closed and opened again at the same address is new code
  // with its no-ops back, and patched again.
  if (Enabled) {
    patch(R);
    return;
  }
  for (uint32_t I = 0; I < NumImages; ++I)
    if (Images[I].Begin == R.Begin)
      return; // every module of an image registers the same section
  if (NumImages == MaxImages) {
    Dropped = true;
    return;
  }
  Images[NumImages++] = R;
}

void native::enableStackSleds() {
  if (Enabled)
    return;
  Enabled = true;
  for (uint32_t I = 0; I < NumImages; ++I)
    patch(Images[I]);
  if (Dropped)
    warnDropped();
}
