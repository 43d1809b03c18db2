//===- LibcDebugFile.h - Where libc6-dbg keeps the loaded libc's DWARF -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The tests that read glibc's separate debug file (compressed DWARF 5 from
// gcc) find it by the build id of the libc.so.6 this process loaded.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_TEST_LIBCDEBUGFILE_H
#define MASSIF_TEST_LIBCDEBUGFILE_H

#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include <string>

/// The build-id path of the debug file of the loaded libc.so.6, or "".
inline std::string libcDebugFile() {
  std::string Path;
  dl_iterate_phdr(
      [](dl_phdr_info *Info, size_t, void *Out) {
        if (!strstr(Info->dlpi_name, "/libc.so.6"))
          return 0;
        for (int I = 0; I < Info->dlpi_phnum; ++I) {
          const ElfW(Phdr) &Ph = Info->dlpi_phdr[I];
          if (Ph.p_type != PT_NOTE)
            continue;
          auto *P = (const uint8_t *)(Info->dlpi_addr + Ph.p_vaddr);
          const uint8_t *End = P + Ph.p_memsz;
          while (P + sizeof(ElfW(Nhdr)) <= End) {
            auto *N = (const ElfW(Nhdr) *)P;
            const uint8_t *Desc = P + sizeof(*N) + ((N->n_namesz + 3) & ~3u);
            if (N->n_type == NT_GNU_BUILD_ID && N->n_descsz > 1) {
              char Hex[3];
              std::string S = "/usr/lib/debug/.build-id/";
              for (uint32_t B = 0; B < N->n_descsz; ++B) {
                snprintf(Hex, sizeof(Hex), "%02x", Desc[B]);
                S += Hex;
                if (B == 0)
                  S += "/";
              }
              *(std::string *)Out = S + ".debug";
              return 1;
            }
            P = Desc + ((N->n_descsz + 3) & ~3u);
          }
        }
        return 0;
      },
      &Path);
  return Path;
}

#endif // MASSIF_TEST_LIBCDEBUGFILE_H
