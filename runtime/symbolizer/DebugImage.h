//===- DebugImage.h - Compressed DWARF, inflated unit by unit ---*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// libdw inflates every compressed debug section of a file when it opens it:
// for glibc's separate debug file, about 10 MB of DWARF and 50 ms, for the
// one or two of its 4,000 compile units a profile prints. A DebugImage
// instead gives libdw an ELF image in memory that holds only the units
// asked for so far:
//
//   * .debug_info holds the loaded units one after another (libdw walks the
//     units of .debug_info in sequence, so it must not see gaps); references
//     inside a unit are relative to it, so a unit reads the same anywhere;
//   * the sections units point into (.debug_abbrev, .debug_line, .debug_str,
//     .debug_line_str, .debug_ranges, .debug_rnglists) keep their offsets and
//     are filled only where a loaded unit points (DwarfScan.h finds where);
//     the rest of them is never touched, and untouched anonymous memory
//     takes none;
//   * .debug_aranges, read whole, finds the unit of an address.
//
// Each section is read forward through one stream (SectionReader.h), and the
// addresses of a profile are described in increasing order, so loading the
// units of a profile costs about one pass over the sections, and memory
// about the units themselves. A file this cannot follow (no .debug_aranges,
// nothing compressed, a unit with references it cannot place) is refused,
// and its DWARF is read whole as before.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SYMBOLIZER_DEBUGIMAGE_H
#define MASSIF_SYMBOLIZER_DEBUGIMAGE_H

#include "Arena.h"

#include <elfutils/libdw.h>
#include <stdint.h>

namespace massif {
namespace symbolizer {

struct DebugImage;

/// Opens the DWARF of the ELF file at Path for loading unit by unit; null
/// when the file is not one to read so (or cannot be read at all).
DebugImage *openDebugImage(const char *Path);
void closeDebugImage(DebugImage *Image);

/// The virtual address of the file's first PT_LOAD segment (0 if none):
/// with the loaded object's, it gives the bias of the file's addresses.
uint64_t imageLoadVaddr(const DebugImage *Image);

enum class UnitLookup { Found, None, Failed };

/// The compile unit that .debug_aranges says covers Addr (an address in the
/// file's own address space), loaded now if it was not yet: CuDie is the
/// offset of its DIE in imageDwarf. None: no unit covers Addr. Failed: the
/// unit cannot be loaded alone; the image is then of no further use.
UnitLookup unitFor(DebugImage *Image, uint64_t Addr, Dwarf_Off &CuDie);

/// Loads the units covering Addrs (addresses in the file's own address
/// space), in the order of the file. A profile describes its addresses in
/// the order of its trees, and a unit lying behind where a section's
/// stream has got to starts that stream over from the beginning: glibc's
/// units for a handful of frames cost 54 MB of reads and 20 ms that way.
/// Addrs is used up (it ends holding the units' offsets). False when the
/// image failed; unitFor then says so.
bool loadUnitsFor(DebugImage *Image, ArenaVector<uint64_t> &Addrs);

/// The DWARF of the units loaded so far, null before the first. Loading a
/// unit ends the previous handle (and every Dwarf_Die from it) and makes a
/// new one.
Dwarf *imageDwarf(const DebugImage *Image);

/// Bytes of the image that hold data (for tests and diagnostics).
uint64_t imageFilledBytes(const DebugImage *Image);

/// Bytes inflated to fill them, read again after a restart included (for
/// tests and diagnostics).
uint64_t imageInflatedBytes(const DebugImage *Image);

} // namespace symbolizer
} // namespace massif

#endif // MASSIF_SYMBOLIZER_DEBUGIMAGE_H
