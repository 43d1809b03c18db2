//===- Glibc.cpp - Finding glibc's own allocator --------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// In a statically linked program, libc's functions are linked in under
// their own names (Next.h). Otherwise the first allocation call of the
// process finds libc.so.6 among the loaded objects (the first one after the executable that defines
// __libc_malloc) and looks each function up in its dynamic symbol table
// through the GNU hash table, as the dynamic linker would, default versions
// only. No allocation and no lock but dl_iterate_phdr's, which the
// dynamic linker holds recursively.
//
//===----------------------------------------------------------------------===//

#include "Glibc.h"

#include "LoadedObject.h"
#include "LoaderWalk.h"
#include "Messages.h"
#include "Next.h"
#include "OutFile.h"

#include <elf.h>
#include <malloc.h>
#include <stdlib.h>
#include <link.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace massif;
using namespace massif::native;

namespace {

// The stand-ins TheGlibc starts with (Glibc.h).
void *findMalloc(size_t SizeB) { return findGlibc().Malloc(SizeB); }
void findFree(void *P) { findGlibc().Free(P); }
void *findCalloc(size_t Count, size_t SizeB) {
  return findGlibc().Calloc(Count, SizeB);
}
void *findRealloc(void *P, size_t SizeB) {
  return findGlibc().Realloc(P, SizeB);
}
void *findMemalign(size_t AlignB, size_t SizeB) {
  return findGlibc().Memalign(AlignB, SizeB);
}
void *findValloc(size_t SizeB) { return findGlibc().Valloc(SizeB); }
void *findPvalloc(size_t SizeB) { return findGlibc().Pvalloc(SizeB); }
size_t findUsableSize(void *P) { return findGlibc().UsableSize(P); }

} // namespace

#if MASSIF_STATIC_LINK
// A statically linked program: libc's functions, which --wrap leaves under
// their own names to the runtime alone (Next.h).
MASSIF_DECLARE_NEXT(malloc);
MASSIF_DECLARE_NEXT(free);
MASSIF_DECLARE_NEXT(calloc);
MASSIF_DECLARE_NEXT(realloc);
MASSIF_DECLARE_NEXT(memalign);
MASSIF_DECLARE_NEXT(valloc);
MASSIF_DECLARE_NEXT(pvalloc);
MASSIF_DECLARE_NEXT(malloc_usable_size);
GlibcAllocator native::TheGlibc = {__real_malloc,  __real_free,
                                   __real_calloc,  __real_realloc,
                                   __real_memalign, __real_valloc,
                                   __real_pvalloc, __real_malloc_usable_size};
#else
GlibcAllocator native::TheGlibc = {findMalloc,  findFree,   findCalloc,
                                   findRealloc, findMemalign, findValloc,
                                   findPvalloc, findUsableSize};
#endif

namespace {

/// One object's dynamic symbol table.
struct SymbolTable {
  const ElfW(Sym) *Symbols = nullptr;
  const char *Strings = nullptr;
  const uint32_t *GnuHash = nullptr;
  const ElfW(Half) *Versions = nullptr; ///< DT_VERSYM, may be absent
  uint64_t Base = 0;
};

bool sameName(const char *A, const char *B) {
  while (*A && *A == *B)
    ++A, ++B;
  return *A == *B;
}

uint32_t gnuHash(const char *Name) {
  uint32_t H = 5381;
  for (const unsigned char *C = (const unsigned char *)Name; *C; ++C)
    H = H * 33 + *C;
  return H;
}

/// The address of Name's default definition in T, or null.
void *lookup(const SymbolTable &T, const char *Name) {
  const uint32_t *H = T.GnuHash;
  uint32_t NumBuckets = H[0], SymOffset = H[1], BloomWords = H[2];
  const uint32_t *Buckets =
      (const uint32_t *)((const ElfW(Addr) *)(H + 4) + BloomWords);
  const uint32_t *Chain = Buckets + NumBuckets;
  uint32_t Hash = gnuHash(Name);
  uint32_t I = Buckets[Hash % NumBuckets];
  if (I < SymOffset)
    return nullptr;
  for (;; ++I) {
    uint32_t Link = Chain[I - SymOffset];
    const ElfW(Sym) &S = T.Symbols[I];
    if ((Hash | 1) == (Link | 1) && S.st_shndx != SHN_UNDEF &&
        S.st_value != 0 && (!T.Versions || !(T.Versions[I] & 0x8000)) &&
        sameName(T.Strings + S.st_name, Name))
      return (void *)(T.Base + S.st_value);
    if (Link & 1)
      return nullptr;
  }
}

/// T from an object's dynamic section; false without a GNU hash table.
bool readTable(const dl_phdr_info &Info, SymbolTable &T) {
  const ElfW(Dyn) *Dyn = dynamicSection(Info);
  if (!Dyn)
    return false;
  // The dynamic linker has relocated these entries in place, except for
  // objects it did not load itself (the vDSO).
  auto At = [&](ElfW(Addr) V) {
    return (const void *)(V < Info.dlpi_addr ? V + Info.dlpi_addr : V);
  };
  for (; Dyn->d_tag != DT_NULL; ++Dyn) {
    switch (Dyn->d_tag) {
    case DT_SYMTAB:
      T.Symbols = (const ElfW(Sym) *)At(Dyn->d_un.d_ptr);
      break;
    case DT_STRTAB:
      T.Strings = (const char *)At(Dyn->d_un.d_ptr);
      break;
    case DT_GNU_HASH:
      T.GnuHash = (const uint32_t *)At(Dyn->d_un.d_ptr);
      break;
    case DT_VERSYM:
      T.Versions = (const ElfW(Half) *)At(Dyn->d_un.d_ptr);
      break;
    }
  }
  T.Base = Info.dlpi_addr;
  return T.Symbols && T.Strings && T.GnuHash;
}

int findInObject(dl_phdr_info *Info, size_t, void *Out) {
  // The runtime's own object defines these names too.
  if (containsAddress(*Info, (uint64_t)(uintptr_t)&findGlibc))
    return 0;
  SymbolTable T;
  if (!readTable(*Info, T) || !lookup(T, "__libc_malloc"))
    return 0;
  GlibcAllocator &G = *(GlibcAllocator *)Out;
  G.Malloc = (void *(*)(size_t))lookup(T, "__libc_malloc");
  G.Calloc = (void *(*)(size_t, size_t))lookup(T, "__libc_calloc");
  G.Realloc = (void *(*)(void *, size_t))lookup(T, "__libc_realloc");
  G.Memalign = (void *(*)(size_t, size_t))lookup(T, "__libc_memalign");
  G.Valloc = (void *(*)(size_t))lookup(T, "__libc_valloc");
  G.Pvalloc = (void *(*)(size_t))lookup(T, "__libc_pvalloc");
  G.UsableSize = (size_t(*)(void *))lookup(T, "malloc_usable_size");
  G.Free = (void (*)(void *))lookup(T, "__libc_free");
  return 1;
}

} // namespace

const GlibcAllocator &native::findGlibc() {
  GlibcAllocator G = {};
  if (__atomic_load_n(&TheGlibc.Free, __ATOMIC_RELAXED) != findFree)
    return TheGlibc; // found already
  walkLoadedObjects(findInObject, &G);
  if (!G.Malloc || !G.Calloc || !G.Realloc || !G.Memalign || !G.Valloc ||
      !G.Pvalloc || !G.UsableSize || !G.Free) {
    writeLine(messageFd(), "massif: error: glibc's allocator (__libc_malloc and its "
                 "relatives in libc.so.6) was not found in the process");
    syscall(SYS_exit_group, 1); // not the runtime's _exit: nothing to write
  }
  // Each member is replaced whole; a thread may see some replaced and not
  // others, and the stand-ins it calls find the same functions again.
  __atomic_store_n(&TheGlibc.Malloc, G.Malloc, __ATOMIC_RELAXED);
  __atomic_store_n(&TheGlibc.Free, G.Free, __ATOMIC_RELAXED);
  __atomic_store_n(&TheGlibc.Calloc, G.Calloc, __ATOMIC_RELAXED);
  __atomic_store_n(&TheGlibc.Realloc, G.Realloc, __ATOMIC_RELAXED);
  __atomic_store_n(&TheGlibc.Memalign, G.Memalign, __ATOMIC_RELAXED);
  __atomic_store_n(&TheGlibc.Valloc, G.Valloc, __ATOMIC_RELAXED);
  __atomic_store_n(&TheGlibc.Pvalloc, G.Pvalloc, __ATOMIC_RELAXED);
  __atomic_store_n(&TheGlibc.UsableSize, G.UsableSize, __ATOMIC_RELAXED);
  return TheGlibc;
}
