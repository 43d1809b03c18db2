//===- EmergencyHeap.h - Memory for a write after glibc faulted -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// When glibc's allocator faults or aborts (its checks found the heap
// corrupted: an overrun smashed a block's header), its heap is unusable
// and its lock may be held by the thread that must write the profile. The
// runtime's own records are whole, so the profile is still written
// (lifecycle/Write.cpp); what the write allocates (libdw, the dynamic linker,
// the demangler) comes from here instead, on that one thread: bump
// allocation in fresh mappings, nothing ever given back, glibc's blocks
// never touched. The process dies right after the write.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_EMERGENCYHEAP_H
#define MASSIF_NATIVE_EMERGENCYHEAP_H

#include <stddef.h>

namespace massif {
namespace native {

/// SizeB zeroed bytes aligned to AlignB (a power of two, at least 16), or
/// null.
void *emergencyAllocate(size_t SizeB, size_t AlignB = 16);

/// The bytes usable at P: an emergency block's size, else glibc's usable
/// size (read from its header, without its lock).
size_t emergencyUsableSize(void *P);

/// realloc for the emergency heap: a new block holding P's bytes; P, from
/// either heap, is left as it is.
void *emergencyReallocate(void *P, size_t SizeB);

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_EMERGENCYHEAP_H
