//===- LoaderWalk.h - dl_iterate_phdr, safe across fork ---------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// glibc's fork resets the dynamic linker's load lock in the child but not
// the lock dl_iterate_phdr takes (dl_load_write_lock). A fork that comes
// while another thread of the runtime walks the loaded objects leaves that
// lock held for ever in the child, whose first walk (naming addresses when
// it writes its profile) then waits for ever. Every walk of the runtime's
// (unwinding, naming, dlclose's lists, finding glibc's allocator) goes
// through walkLoadedObjects, which holds the runtime's LoaderLock around
// it, and fork holds that lock across (lifecycle/Fork.cpp), so no walk of
// the runtime's is under way at the fork.
//
// A forked child may inherit dl_load_write_lock held all the same: glibc's
// own dlopen and dlclose take it, and a child forked while another thread
// was in one of them waits for ever at its first dl_iterate_phdr, as the
// program itself would at its first dlopen. So the questions the runtime
// asks after start-up of one address (which object maps it: the unwinder's
// and the symbolizer's) go to findLoadedObject, which asks glibc's
// _dl_find_object (glibc 2.35), lock-free and safe in a child and a signal
// handler alike; only dlclose's list of what was unloaded walks.
//
// LoaderLock is the first lock of the one order fork takes the runtime's
// locks in (lifecycle/Fork.h): a walk waits for the dynamic linker's lock,
// whose holder (in dlopen or dlclose) calls malloc and free, which take
// the others. So no thread walks while it holds another lock of the
// runtime's: findLoadedObject asks glibc, without a walk. The callbacks
// take the loaded objects' lock (unwind/Modules.cpp) and the arena's,
// which come later in that order.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_LOADERWALK_H
#define MASSIF_NATIVE_LOADERWALK_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>

namespace massif {
namespace native {

/// dl_iterate_phdr(Callback, Data) with LoaderLock held. The caller holds
/// no lock of the runtime's; Callback may take the loaded objects' lock
/// and the arena's, and no other.
int walkLoadedObjects(int (*Callback)(dl_phdr_info *, size_t, void *),
                      void *Data);

/// The loaded object that maps Addr, as dl_iterate_phdr would report it
/// (its name and program headers), and its PT_GNU_EH_FRAME contents (or
/// null). False when no object maps Addr. Takes no lock: glibc's
/// _dl_find_object answers (an older glibc's list is walked).
bool findLoadedObject(uint64_t Addr, dl_phdr_info &Info,
                      const uint8_t *&EhFrameHdr);

void loaderWalkBeforeFork();
void loaderWalkAfterForkParent();
void loaderWalkAfterForkChild();

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_LOADERWALK_H
