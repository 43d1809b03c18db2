//===- SystemMemory.h - Mappings for the profiler itself --------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The profiler's own memory comes from the kernel directly, never through
// the program's mmap and munmap: a library preloaded into the program that
// interposes them (memusage -m, ms_memusage -m, any tracer) must see the
// program's calls only. These are the system calls, with libc's answers
// (MAP_FAILED or -1, and errno, on failure).
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SUPPORT_SYSTEMMEMORY_H
#define MASSIF_SUPPORT_SYSTEMMEMORY_H

#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

namespace massif {

inline void *systemMmap(void *Addr, size_t SizeB, int Prot, int Flags, int Fd,
                        off_t Offset) {
  return (void *)syscall(SYS_mmap, Addr, SizeB, Prot, Flags, Fd, Offset);
}

inline int systemMunmap(void *Addr, size_t SizeB) {
  return (int)syscall(SYS_munmap, Addr, SizeB);
}

} // namespace massif

#endif // MASSIF_SUPPORT_SYSTEMMEMORY_H
