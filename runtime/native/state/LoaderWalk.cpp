//===- LoaderWalk.cpp - dl_iterate_phdr, safe across fork ----------------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "LoaderWalk.h"

#include "Lock.h"

using namespace massif;
using namespace massif::native;

namespace {
Mutex LoaderLock;
} // namespace

int native::walkLoadedObjects(int (*Callback)(dl_phdr_info *, size_t, void *),
                              void *Data) {
  MutexLock L(LoaderLock);
  return dl_iterate_phdr(Callback, Data);
}

void native::loaderWalkBeforeFork() { LoaderLock.lock(); }

void native::loaderWalkAfterForkParent() { LoaderLock.unlock(); }

void native::loaderWalkAfterForkChild() { LoaderLock.reset(); }
