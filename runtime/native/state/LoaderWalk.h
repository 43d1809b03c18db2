//===- LoaderWalk.h - dl_iterate_phdr, safe across fork ---------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// glibc's fork resets the dynamic linker's load lock in the child but not
// the lock dl_iterate_phdr takes (dl_load_write_lock). A fork that comes
// while another thread of the runtime walks the loaded objects leaves that
// lock held for ever in the child, whose first walk (naming addresses when
// it writes its profile) then waits for ever. Every walk of the runtime's
// that can run beside a fork (unwinding, naming) goes through
// walkLoadedObjects, which holds the runtime's LoaderLock around it, and
// fork holds that lock across (lifecycle/Fork.cpp), so no walk of the
// runtime's is under way at the fork. The walks under ModulesLock, which
// fork holds too, need not.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_LOADERWALK_H
#define MASSIF_NATIVE_LOADERWALK_H

#include <link.h>
#include <stddef.h>

namespace massif {
namespace native {

/// dl_iterate_phdr(Callback, Data) with LoaderLock held. Callback may
/// allocate from the arena (whose lock fork takes after LoaderLock) but
/// take no other lock of the runtime's.
int walkLoadedObjects(int (*Callback)(dl_phdr_info *, size_t, void *),
                      void *Data);

void loaderWalkBeforeFork();
void loaderWalkAfterForkParent();
void loaderWalkAfterForkChild();

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_LOADERWALK_H
