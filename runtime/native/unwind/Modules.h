//===- Modules.h - The loaded objects, as stacks and names need them -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Two facts about the objects mapped in the process matter beyond the
// dynamic linker's own list:
//
// * which code keeps frame pointers: the executable (mscc compiles it and
//   links the runtime into it) and every shared object built with mscc (it
//   names __massif_abi_version_1 in its dynamic symbols). The stack walk
//   follows saved frame pointers there and .eh_frame rules elsewhere;
// * which objects were unloaded with dlclose: the profile is written at
//   exit, after they are gone, yet their addresses are in its stacks. The
//   runtime's dlclose notes every object the real dlclose unmapped (path,
//   load address) and reserves its address range (PROT_NONE, no memory) so
//   that no later mapping reuses it: every recorded address keeps meaning
//   the object it was captured in, and the symbolizer reads that object
//   from its file.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_MODULES_H
#define MASSIF_NATIVE_MODULES_H

#include <link.h>
#include <stdint.h>

namespace massif {
namespace native {

/// Code address ranges known to keep frame pointers.
struct CodeRange {
  uint64_t Lo;
  uint64_t SizeB; ///< 0 for a range withdrawn after dlclose
};

constexpr uint32_t MaxFramePointerRanges = 64;
extern CodeRange FramePointerRanges[MaxFramePointerRanges];
extern uint32_t NumFramePointerRanges;

/// Whether Pc lies in code that keeps frame pointers (instrumented code).
/// Before initModules has run, nothing does.
inline bool inFramePointerCode(uint64_t Pc) {
  uint32_t N = __atomic_load_n(&NumFramePointerRanges, __ATOMIC_ACQUIRE);
  for (uint32_t I = 0; I < N; ++I)
    if (Pc - FramePointerRanges[I].Lo < FramePointerRanges[I].SizeB)
      return true;
  return false;
}

/// Finds the executable's code (the object holding the runtime) and every
/// instrumented shared object loaded so far. Idempotent; no allocation.
void initModules();

/// Classifies one loaded object (called by the unwinder when it meets an
/// object's code for the first time): an instrumented object's code joins
/// the frame-pointer ranges. Cheap after the first call for an object.
void noteModule(const dl_phdr_info &Info);

/// noteModule for the object that maps Addr, if any.
void noteModuleAt(uint64_t Addr);

/// Whether the executable's file has a symbol table (.symtab), so that
/// its main will be named "main" and Massif's cut below main applies.
/// Reads the file's section headers; no allocation.
bool executableHasSymbolTable();

/// Opens the process's maps file through the calling thread
/// (/proc/thread-self/maps): once the main thread has left with
/// pthread_exit, the thread-group leader is a zombie and /proc/self/maps
/// reads empty. /proc/self/maps on kernels without thread-self; -1 when
/// neither opens.
int openProcessMaps();

/// The main thread's stack as glibc's pthread_getattr_np gives it: from
/// the end of the page holding StackEnd (__libc_stack_end) down by the
/// stack's resource limit, but not below the mapping before it. Reads the
/// maps file as the dlclose handling does, into arena memory with plain
/// reads (pthread_getattr_np reads it through stdio and sscanf, whose code
/// would be paged in for us alone). False when the file cannot be read or
/// no mapping holds StackEnd.
bool mainStackFromMaps(uintptr_t StackEnd, uintptr_t &Lo, uintptr_t &Hi);

/// An object unloaded by dlclose before the profile was written.
struct ClosedModule {
  const char *Path; ///< as /proc/self/maps named it
  uint64_t Base;    ///< where its first loadable segment was mapped
  uint64_t Lo, Hi;  ///< the address range it occupied
};

/// The objects unloaded so far, oldest first; Count receives their number.
/// The array only grows; entries never change once listed.
const ClosedModule *closedModules(uint32_t &Count);

/// The runtime's dlclose: calls Real (glibc's) and notes, and reserves, the
/// objects it unloaded.
int dlcloseNotingModules(int (*Real)(void *), void *Handle);

/// Across fork (Fork.h): no thread is classifying an object.
void modulesBeforeFork();
void modulesAfterForkParent();
void modulesAfterForkChild();

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_MODULES_H
