//===- DwarfScan.h - What one compile unit needs of other sections -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// To describe an address, libdw reads one compile unit of .debug_info and
// what that unit points at: its abbreviation table, its line program, the
// strings and range lists its DIEs name. These functions find those pieces
// in raw section bytes, without libdw, so that a compressed debug file can
// be inflated one unit at a time (DebugImage.h). They read only the bytes
// they are given: a result of NeedMore asks for a longer prefix.
//
// Only what the scan can follow is accepted: 32-bit DWARF 2 to 5 and forms
// that refer within the unit or to .debug_str, .debug_line_str,
// .debug_line, .debug_ranges and .debug_rnglists by offset. A unit that
// points elsewhere (DW_FORM_ref_addr, the indexed strx/addrx/rnglistx
// forms, a supplementary file) is Unsupported; its caller then reads the
// whole file as before.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SYMBOLIZER_DWARFSCAN_H
#define MASSIF_SYMBOLIZER_DWARFSCAN_H

#include <stddef.h>
#include <stdint.h>

namespace massif {
namespace symbolizer {

/// A size that a prefix of the bytes may not yet decide.
constexpr int64_t NeedMore = -1, Unsupported = -2;

/// The header of a unit in .debug_info.
struct UnitHeader {
  uint64_t SizeB;    ///< the whole unit, its length field included
  uint64_t HeaderB;  ///< up to the first DIE
  uint64_t AbbrevOff;
  uint16_t Version;
  uint8_t AddrB;
};

/// Reads the header at the start of Unit (at least 4 bytes; 12 decide it).
int64_t readUnitHeader(const uint8_t *Unit, size_t AvailB, UnitHeader &Out);

/// The size of the abbreviation table at P.
int64_t abbrevTableSize(const uint8_t *P, size_t AvailB);

/// The size of the line program, or of the unit of .debug_aranges, at P: its
/// 32-bit length field plus that length.
int64_t lengthPrefixedSize(const uint8_t *P, size_t AvailB);

/// The size of the NUL-terminated string at P, its NUL included.
int64_t stringSize(const uint8_t *P, size_t AvailB);

/// The size of the range list at P: DWARF 5's .debug_rnglists entries, or
/// for earlier versions .debug_ranges pairs.
int64_t rangeListSize(const uint8_t *P, size_t AvailB, uint16_t Version,
                      uint8_t AddrB);

/// Offsets into other sections that a unit or a line program refers to.
/// Sink receives each; it returns false when out of memory, which ends the
/// scan as Unsupported.
enum class RefKind : uint8_t { Str, LineStr, Line, Ranges };
struct RefSink {
  bool (*Add)(void *Ctx, RefKind Kind, uint64_t Off);
  void *Ctx;
};

/// Walks every DIE of the unit (Unit holds all of it) with its abbreviation
/// table and reports the offsets it refers to. Returns 0 or Unsupported.
int64_t scanUnit(const uint8_t *Unit, const UnitHeader &H,
                 const uint8_t *Abbrevs, size_t AbbrevB, RefSink Sink);

/// Reports the strings a DWARF 5 line program's header names (its
/// directories and files); earlier versions keep them inline. Program holds
/// the whole program. Returns 0 or Unsupported.
int64_t scanLineHeader(const uint8_t *Program, size_t ProgramB, RefSink Sink);

/// Looks Addr up in a whole .debug_aranges section: the offset of the unit
/// that covers it, or false.
bool unitCovering(const uint8_t *Aranges, size_t ArangesB, uint64_t Addr,
                  uint64_t &UnitOff);

} // namespace symbolizer
} // namespace massif

#endif // MASSIF_SYMBOLIZER_DWARFSCAN_H
