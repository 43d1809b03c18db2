//===- Heap.cpp - The malloc replacement and the client requests ----------===//
//
// Part of massif-native's Valgrind tool, under the GNU GPL, version 2 or
// later (see LICENSE in this folder).
//
// Valgrind's preloaded replacement (vgpreload_msvex-amd64-linux.so, built
// from the valgrind package's own archive) sends every malloc, new,
// delete, ... of the program here. Blocks come from Valgrind's client
// allocator, as under Massif, so the slop is the allocator's real one and
// the model is told it (Profile::onAlloc). realloc follows Massif's
// realloc_block: a block that fits its old size plus slop stays in place.
//
//===----------------------------------------------------------------------===//

#include "Tool.h"

using namespace massif;
using namespace massif::vex;

namespace {

void *allocateBlock(ThreadId Tid, SizeT ReqB, SizeT AlignB, bool Zeroed) {
  if ((SSizeT)ReqB < 0)
    return nullptr;
  void *P = VG_(cli_malloc)(AlignB, ReqB);
  if (!P)
    return nullptr;
  if (Zeroed)
    VG_(memset)(P, 0, ReqB);
  SizeT SlopB = VG_(cli_malloc_usable_size)(P) - ReqB;
  State &S = state();
  S.Prof.onAlloc((Addr)P, ReqB, SlopB,
                 captureStack(Tid, /*ExcludeFirst=*/true));
  return P;
}

void freeBlock(ThreadId Tid, void *P) {
  State &S = state();
  // With --xtree-memory=full the freed bytes go to the free's stack.
  StackId FreeStack = S.Opts.XtreeMemory == XtreeMode::Full
                          ? captureStack(Tid, /*ExcludeFirst=*/true)
                          : 0;
  S.Prof.onFree((Addr)P, FreeStack);
  VG_(cli_free)(P);
}

void *replaceMalloc(ThreadId Tid, SizeT ReqB) {
  return allocateBlock(Tid, ReqB, VG_(clo_alignment), false);
}
void *replaceAlignedNew(ThreadId Tid, SizeT ReqB, SizeT AlignB) {
  return allocateBlock(Tid, ReqB, AlignB, false);
}
void *replaceMemalign(ThreadId Tid, SizeT AlignB, SizeT ReqB) {
  return allocateBlock(Tid, ReqB, AlignB, false);
}
void *replaceCalloc(ThreadId Tid, SizeT Count, SizeT SizeB) {
  // The preloaded calloc has rejected an overflowing product.
  return allocateBlock(Tid, Count * SizeB, VG_(clo_alignment), true);
}
void replaceFree(ThreadId Tid, void *P) { freeBlock(Tid, P); }
void replaceAlignedDelete(ThreadId Tid, void *P, SizeT) { freeBlock(Tid, P); }

void *replaceRealloc(ThreadId Tid, void *Old, SizeT NewReqB) {
  State &S = state();
  uint64_t OldReqB, OldSlopB;
  if (!S.Prof.findBlock((Addr)Old, OldReqB, OldSlopB))
    return nullptr; // Massif ignores a realloc of what it did not allocate
  void *New = Old;
  uint64_t NewSlopB = 0;
  if (NewReqB > OldReqB + OldSlopB) {
    New = VG_(cli_malloc)(VG_(clo_alignment), NewReqB);
    if (!New)
      return nullptr; // the old block stays
    VG_(memcpy)(New, Old, OldReqB + OldSlopB);
    VG_(cli_free)(Old);
    NewSlopB = VG_(cli_malloc_usable_size)(New) - NewReqB;
  }
  S.Prof.onRealloc((Addr)Old, (Addr)New, NewReqB, NewSlopB,
                   captureStack(Tid, /*ExcludeFirst=*/true));
  return New;
}

SizeT replaceUsableSize(ThreadId, void *P) {
  uint64_t ReqB, SlopB;
  return state().Prof.findBlock((Addr)P, ReqB, SlopB) ? ReqB + SlopB : 0;
}

/// Massif's client requests: a custom allocator's blocks, with the stack
/// of the request itself (nothing to exclude) and no slop.
Bool handleClientRequest(ThreadId Tid, UWord *Args, UWord *Ret) {
  State &S = state();
  switch (Args[0]) {
  case VG_USERREQ__MALLOCLIKE_BLOCK:
    S.Prof.onAlloc(Args[1], Args[2], 0, captureStack(Tid, false));
    *Ret = 0;
    return True;
  case VG_USERREQ__RESIZEINPLACE_BLOCK:
    S.Prof.onFree(Args[1]);
    S.Prof.onAlloc(Args[1], Args[3], 0, captureStack(Tid, false));
    return True;
  case VG_USERREQ__FREELIKE_BLOCK:
    S.Prof.onFree(Args[1]);
    *Ret = 0;
    return True;
  case VG_USERREQ__GDB_MONITOR_COMMAND:
    // Valgrind's core hands the tool every monitor command it gets from
    // vgdb or gdb this way, and the client's own (VALGRIND_MONITOR_COMMAND).
    if (handleMonitorCommand((const HChar *)Args[1])) {
      *Ret = 1;
      return True;
    }
    *Ret = 0;
    return False;
  default:
    *Ret = 0;
    return False;
  }
}

} // namespace

void vex::registerHeapEvents() {
  VG_(needs_client_requests)(handleClientRequest);
  VG_(needs_malloc_replacement)(
      replaceMalloc, /*__builtin_new*/ replaceMalloc,
      /*__builtin_new_aligned*/ replaceAlignedNew,
      /*__builtin_vec_new*/ replaceMalloc,
      /*__builtin_vec_new_aligned*/ replaceAlignedNew, replaceMemalign,
      replaceCalloc, replaceFree, /*__builtin_delete*/ replaceFree,
      /*__builtin_delete_aligned*/ replaceAlignedDelete,
      /*__builtin_vec_delete*/ replaceFree,
      /*__builtin_vec_delete_aligned*/ replaceAlignedDelete, replaceRealloc,
      replaceUsableSize, /*client_malloc_redzone_szB*/ 0);
}
