//===- LoaderWalk.cpp - dl_iterate_phdr, safe across fork ----------------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "LoaderWalk.h"

#include "LoadedObject.h"
#include "Lock.h"

#include <dlfcn.h>
#include <elf.h>
#include <string.h>

using namespace massif;
using namespace massif::native;

// glibc 2.35's lock-free lookup, weak so that an older glibc walks instead.
// A static program walks too: glibc's malloc calls reach the runtime from
// inside the lookup's own set-up there, before it can answer.
#ifdef MASSIF_STATIC_LINK
static int (*const FindObject)(void *, dl_find_object *) = nullptr;
#else
extern "C" int _dl_find_object(void *Pc, dl_find_object *Result)
    __attribute__((weak));
static int (*const FindObject)(void *, dl_find_object *) = &_dl_find_object;
#endif

namespace {

Mutex LoaderLock;

struct Search {
  uint64_t Addr;
  dl_phdr_info *Info;
  bool Found;
};

int findByWalk(dl_phdr_info *Info, size_t, void *P) {
  auto &S = *(Search *)P;
  if (!containsAddress(*Info, S.Addr))
    return 0;
  *S.Info = *Info;
  S.Found = true;
  return 1;
}

/// The object's program headers from its ELF header, which the start of
/// its mapping holds (its first segment maps the file from offset 0).
bool fromFoundObject(const dl_find_object &F, dl_phdr_info &Info) {
  const char *Start = (const char *)F.dlfo_map_start;
  size_t MapB = (size_t)((const char *)F.dlfo_map_end - Start);
  const auto *E = (const ElfW(Ehdr) *)Start;
  if (MapB < sizeof(*E) || memcmp(E->e_ident, ELFMAG, SELFMAG) != 0 ||
      E->e_phentsize != sizeof(ElfW(Phdr)) ||
      E->e_phoff + (uint64_t)E->e_phnum * sizeof(ElfW(Phdr)) > MapB)
    return false;
  memset(&Info, 0, sizeof(Info));
  Info.dlpi_addr = F.dlfo_link_map->l_addr;
  Info.dlpi_name = F.dlfo_link_map->l_name;
  Info.dlpi_phdr = (const ElfW(Phdr) *)(Start + E->e_phoff);
  Info.dlpi_phnum = E->e_phnum;
  return true;
}

} // namespace

bool native::findLoadedObject(uint64_t Addr, dl_phdr_info &Info,
                              const uint8_t *&EhFrameHdr) {
  if (FindObject) {
    dl_find_object F;
    if (FindObject((void *)(uintptr_t)Addr, &F) != 0 ||
        !fromFoundObject(F, Info) || !containsAddress(Info, Addr))
      return false;
    EhFrameHdr = (const uint8_t *)F.dlfo_eh_frame;
    return true;
  }
  // A glibc before 2.35, or a static program (one object; no dlopen, no
  // fork hazard): a walk, without LoaderLock, as the caller may hold the
  // model's (the order of Fork.h).
  Search S = {Addr, &Info, false};
  dl_iterate_phdr(findByWalk, &S);
  EhFrameHdr = S.Found ? ehFrameHdrOf(Info) : nullptr;
  return S.Found;
}

int native::walkLoadedObjects(int (*Callback)(dl_phdr_info *, size_t, void *),
                              void *Data) {
  MutexLock L(LoaderLock);
  return dl_iterate_phdr(Callback, Data);
}

void native::loaderWalkBeforeFork() { LoaderLock.lock(); }

void native::loaderWalkAfterForkParent() { LoaderLock.unlock(); }

void native::loaderWalkAfterForkChild() { LoaderLock.reset(); }
