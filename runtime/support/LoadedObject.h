//===- LoadedObject.h - Reading a loaded object's program headers -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Questions asked of an object the dynamic linker reports
// (dl_iterate_phdr): does it map an address, where are its dynamic section
// and its .eh_frame_hdr. Asked by the unwinder, the glibc lookup and the symbolizer's
// client alike; reads only the program headers, so it is safe anywhere.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SUPPORT_LOADEDOBJECT_H
#define MASSIF_SUPPORT_LOADEDOBJECT_H

#include <link.h>
#include <stdint.h>

namespace massif {

/// Whether Addr lies in one of Info's loadable segments.
inline bool containsAddress(const dl_phdr_info &Info, uint64_t Addr) {
  for (int I = 0; I < Info.dlpi_phnum; ++I) {
    const ElfW(Phdr) &Ph = Info.dlpi_phdr[I];
    uint64_t Lo = Info.dlpi_addr + Ph.p_vaddr;
    if (Ph.p_type == PT_LOAD && Addr >= Lo && Addr < Lo + Ph.p_memsz)
      return true;
  }
  return false;
}

/// Info's dynamic section, or null.
inline const ElfW(Dyn) *dynamicSection(const dl_phdr_info &Info) {
  for (int I = 0; I < Info.dlpi_phnum; ++I)
    if (Info.dlpi_phdr[I].p_type == PT_DYNAMIC)
      return (const ElfW(Dyn) *)(Info.dlpi_addr + Info.dlpi_phdr[I].p_vaddr);
  return nullptr;
}

/// Info's PT_GNU_EH_FRAME contents (.eh_frame_hdr), or null.
inline const uint8_t *ehFrameHdrOf(const dl_phdr_info &Info) {
  for (int I = 0; I < Info.dlpi_phnum; ++I)
    if (Info.dlpi_phdr[I].p_type == PT_GNU_EH_FRAME)
      return (const uint8_t *)(uintptr_t)(Info.dlpi_addr +
                                          Info.dlpi_phdr[I].p_vaddr);
  return nullptr;
}

} // namespace massif

#endif // MASSIF_SUPPORT_LOADEDOBJECT_H
