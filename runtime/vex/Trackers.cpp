//===- Trackers.cpp - Pages (--pages-as-heap=yes) and stacks (--stacks) ---===//
//
// Part of massif-native's Valgrind tool, under the GNU GPL, version 2 or
// later (see LICENSE in this folder).
//
// Valgrind's core reports every change of the address space and of every
// thread's stack pointer. With --pages-as-heap=yes each page mapped by the
// start-up, mmap, mremap or brk is a block of the model (Profile::onPages),
// charged to the stack of the thread that asked; the malloc replacement is
// then taken out of LD_PRELOAD, so the program's malloc works on pages as
// glibc's does. With --stacks=yes the model follows the stack sizes once
// the program runs.
//
//===----------------------------------------------------------------------===//

#include "Tool.h"

using namespace massif;
using namespace massif::vex;

namespace {

constexpr Addr PageB = Profile::PageB;

Addr pageDown(Addr A) { return A & ~(PageB - 1); }
Addr pageUp(Addr A) { return (A + PageB - 1) & ~(PageB - 1); }

void mapPages(Addr A, SizeT LenB) {
  State &S = state();
  S.Prof.onPages(A, LenB, captureStack(VG_(get_running_tid)(), false));
}

void unmapPages(Addr A, SizeT LenB) { state().Prof.onUnmapPages(A, LenB); }

void onMmap(Addr A, SizeT LenB, Bool, Bool, Bool, ULong) {
  mapPages(A, LenB);
}

} // namespace

// Valgrind's trampoline, in the tool's own text (m_trampoline.S).
extern "C" char vgPlain_trampoline_stuff_start[], vgPlain_trampoline_stuff_end[];

namespace {

void onStartupMapping(Addr A, SizeT LenB, Bool, Bool, Bool, ULong) {
  // The pages holding the trampoline are a client segment too. Massif's
  // tool keeps the trampoline within one page; ours has it where the
  // tool's code size puts it, across two pages at times. Count the pages
  // the trampoline needs, as under Massif: its segment's size would
  // otherwise follow our code size.
  Addr TStart = (Addr)vgPlain_trampoline_stuff_start;
  Addr TEnd = (Addr)vgPlain_trampoline_stuff_end;
  if (A == pageDown(TStart) && A + LenB == pageUp(TEnd))
    LenB = pageUp(TEnd - TStart);
  // The core gives the trampoline itself its own length.
  mapPages(A, pageUp(LenB));
}

void onRemap(Addr From, Addr To, SizeT LenB) {
  unmapPages(From, LenB);
  mapPages(To, LenB);
}

void onMunmap(Addr A, SizeT LenB) { unmapPages(A, LenB); }

// The break moves by bytes; only the pages it newly reaches or leaves
// count: [A, A + Len) grows from A, the old end.
void onBrkGrow(Addr A, SizeT LenB, ThreadId) {
  Addr OldLastPage = pageDown(A - 1), NewLastPage = pageDown(A + LenB - 1);
  if (OldLastPage != NewLastPage)
    mapPages(pageDown(A), NewLastPage - OldLastPage);
}

void onBrkShrink(Addr A, SizeT LenB) {
  Addr NewLastPage = pageDown(A - 1), OldLastPage = pageDown(A + LenB - 1);
  if (OldLastPage != NewLastPage)
    unmapPages(pageDown(A), OldLastPage - NewLastPage);
}

// The stack trackers count from the start-up snapshot on.
void stackGrows(SizeT LenB) {
  State &S = state();
  if (S.StartedExecuting)
    S.Prof.onStackDelta((int64_t)LenB);
}
void stackShrinks(SizeT LenB) {
  State &S = state();
  if (S.StartedExecuting)
    S.Prof.onStackDelta(-(int64_t)LenB);
}
void onStackNew(Addr, SizeT LenB) { stackGrows(LenB); }
void onStackDie(Addr, SizeT LenB) { stackShrinks(LenB); }
void onSignalStackNew(Addr, SizeT LenB, ThreadId) { stackGrows(LenB); }
void onSignalStackDie(Addr, SizeT LenB) { stackShrinks(LenB); }

/// Takes the preloaded malloc replacement out of LD_PRELOAD (the core has
/// put it there, after its own vgpreload_core), as Massif does.
void unpreloadMallocReplacement() {
  HChar *Value = VG_(getenv)(VG_(LD_PRELOAD_var_name));
  if (!Value)
    return;
  // The tool's own, or the system's vgpreload_massif it was replaced by
  // (Tool.cpp).
  HChar Name[64];
  VG_(snprintf)(Name, sizeof(Name), "vgpreload_%s-", ToolName);
  HChar *Entry = VG_(strstr)(Value, Name);
  if (!Entry)
    Entry = VG_(strstr)(Value, "vgpreload_massif-");
  if (!Entry)
    return;
  HChar *Start = Entry, *End = Entry;
  while (Start > Value && Start[-1] != ':')
    --Start;
  while (*End && *End != ':')
    ++End;
  if (Start > Value)
    --Start; // the ':' before it
  else if (*End == ':')
    ++End; // it was first: drop the ':' after it
  while ((*Start++ = *End++))
    ;
}

} // namespace

void vex::registerTrackers(const Options &O) {
  if (O.Stacks) {
    VG_(track_new_mem_stack)(onStackNew);
    VG_(track_die_mem_stack)(onStackDie);
    VG_(track_new_mem_stack_signal)(onSignalStackNew);
    VG_(track_die_mem_stack_signal)(onSignalStackDie);
  }
  if (O.PagesAsHeap && O.Heap) {
    unpreloadMallocReplacement();
    VG_(track_new_mem_startup)(onStartupMapping);
    VG_(track_new_mem_brk)(onBrkGrow);
    VG_(track_new_mem_mmap)(onMmap);
    VG_(track_copy_mem_remap)(onRemap);
    VG_(track_die_mem_brk)(onBrkShrink);
    VG_(track_die_mem_munmap)(onMunmap);
  }
}
