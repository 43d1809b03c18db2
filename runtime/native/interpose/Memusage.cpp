//===- Memusage.cpp - The runtime's side of ms_memusage -------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The count itself (Memusage.h) and what libmsmemusage.so asks of it
// (RuntimeCount.h): the count, each thread's start position, and a start
// with the runtime's own SIGPROF handler.
//
//===----------------------------------------------------------------------===//

#include "Memusage.h"

#include "RuntimeCount.h"

#include <errno.h>

using namespace massif;
using namespace massif::native;

memusage::ProcessCount native::TheMemusageCount = {};

namespace {

// glibc's functions, as the count calls them.
void *realMalloc(size_t SizeB) { return libcMalloc(SizeB); }
void realFree(void *P) { libcFree(P); }
void *realCalloc(size_t Count, size_t SizeB) {
  return libcCalloc(Count, SizeB);
}
void *realRealloc(void *P, size_t SizeB) { return libcRealloc(P, SizeB); }

void onTimer(int) {
  int SavedErrno = errno;
  uintptr_t Sp =
      memusage::entryOf(__builtin_frame_address(0)) - memusage::TimerDepth;
  TheMemusageCount.Counts.update(memusage::Tally::singleThreaded(), 0, 0, Sp,
                                 thisThread().MemusageStart);
  errno = SavedErrno;
}

uintptr_t *threadStart() { return &thisThread().MemusageStart; }

bool ensureStarted(uintptr_t Sp) { return startMemusageCount(Sp); }

memusage::RuntimeCount Shared = {memusage::RuntimeCountVersion,
                                 sizeof(memusage::ProcessCount),
                                 &TheMemusageCount, threadStart,
                                 ensureStarted};

} // namespace

const memusage::RealAllocator native::MemusageGlibc = {
    realMalloc, realFree, realCalloc, realRealloc};

bool native::startMemusageCount(uintptr_t Sp) {
  // The runtime's own calls meanwhile (getenv, the data file) go to glibc.
  InsideRuntime Guard;
  return TheMemusageCount.ensureStarted(Sp, thisThread().MemusageStart,
                                        program_invocation_short_name,
                                        onTimer);
}

extern "C" MASSIF_EXPORT memusage::RuntimeCount *__massif_memusage_count() {
  return &Shared;
}
