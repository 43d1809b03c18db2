//===- DwarfScan.cpp - What one compile unit needs of other sections ------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "DwarfScan.h"

#include "Arena.h"
#include "ByteReader.h"

#include <dwarf.h>

using namespace massif;
using namespace massif::symbolizer;

namespace {

/// A 32-bit length field of this value or above starts 64-bit DWARF (or is
/// reserved).
constexpr uint32_t Dwarf64Escape = 0xfffffff0u;

/// An abbreviation code this large is taken for garbage.
constexpr uint64_t MaxAbbrevCode = 1u << 16;

/// The abbreviations of one table, by code: where each one's attribute
/// specifications start (0: no such code).
struct AbbrevIndex {
  const uint8_t **Specs = nullptr;
  uint64_t NumCodes = 0;

  ~AbbrevIndex() { arenaDeallocate(Specs, NumCodes * sizeof(*Specs)); }

  bool build(const uint8_t *P, size_t SizeB) {
    uint64_t MaxCode = 0;
    ByteReader R{P, P + SizeB};
    for (uint64_t Code; (Code = R.uleb()) != 0 && R.ok();) {
      if (Code > MaxAbbrevCode)
        return false;
      MaxCode = Code > MaxCode ? Code : MaxCode;
      skipEntry(R);
    }
    NumCodes = MaxCode + 1;
    Specs = (const uint8_t **)arenaAllocate(NumCodes * sizeof(*Specs));
    if (!Specs)
      return false;
    R = ByteReader{P, P + SizeB};
    for (uint64_t Code; (Code = R.uleb()) != 0 && R.ok();) {
      R.uleb(); // tag
      R.u8();   // has children
      Specs[Code] = R.P;
      skipSpecs(R);
    }
    return R.ok();
  }

  static void skipSpecs(ByteReader &R) {
    for (;;) {
      uint64_t Attr = R.uleb(), Form = R.uleb();
      if (!R.ok() || (Attr == 0 && Form == 0))
        return;
      if (Form == DW_FORM_implicit_const)
        R.sleb();
    }
  }
  static void skipEntry(ByteReader &R) {
    R.uleb();
    R.u8();
    skipSpecs(R);
  }
};

/// Reads past one attribute value of Form, reporting what it refers to.
/// Attr decides what a section offset points into. False: unsupported.
bool readValue(ByteReader &R, uint64_t Attr, uint64_t Form,
               const UnitHeader &H, RefSink Sink) {
  auto ref = [&](RefKind K, uint64_t Off) { return Sink.Add(Sink.Ctx, K, Off); };
  // Before DWARF 4, section offsets were data4.
  if (H.Version < 4 && Form == DW_FORM_data4 &&
      (Attr == DW_AT_stmt_list || Attr == DW_AT_ranges))
    Form = DW_FORM_sec_offset;
  switch (Form) {
  case DW_FORM_addr:
    R.skip(H.AddrB);
    return true;
  case DW_FORM_flag_present:
  case DW_FORM_implicit_const:
    return true;
  case DW_FORM_data1:
  case DW_FORM_ref1:
  case DW_FORM_flag:
    R.skip(1);
    return true;
  case DW_FORM_data2:
  case DW_FORM_ref2:
    R.skip(2);
    return true;
  case DW_FORM_data4:
  case DW_FORM_ref4:
    R.skip(4);
    return true;
  case DW_FORM_data8:
  case DW_FORM_ref8:
    R.skip(8);
    return true;
  case DW_FORM_data16:
    R.skip(16);
    return true;
  case DW_FORM_sdata:
    R.sleb();
    return true;
  case DW_FORM_udata:
  case DW_FORM_ref_udata:
  case DW_FORM_loclistx: // location lists are never read
    R.uleb();
    return true;
  case DW_FORM_string:
    R.skipString();
    return true;
  case DW_FORM_block1:
    R.skip(R.u8());
    return true;
  case DW_FORM_block2:
    R.skip(R.fixed<uint16_t>());
    return true;
  case DW_FORM_block4:
    R.skip(R.fixed<uint32_t>());
    return true;
  case DW_FORM_block:
  case DW_FORM_exprloc:
    R.skip(R.uleb());
    return true;
  case DW_FORM_strp:
    return ref(RefKind::Str, R.fixed<uint32_t>());
  case DW_FORM_line_strp:
    return ref(RefKind::LineStr, R.fixed<uint32_t>());
  case DW_FORM_sec_offset: {
    uint64_t Off = R.fixed<uint32_t>();
    if (Attr == DW_AT_stmt_list)
      return ref(RefKind::Line, Off);
    if (Attr == DW_AT_ranges)
      return ref(RefKind::Ranges, Off);
    return true; // location lists, macros, bases: never read
  }
  case DW_FORM_indirect:
    return readValue(R, Attr, R.uleb(), H, Sink);
  default:
    // ref_addr, ref_sig8, the indexed and supplementary forms, GNU
    // extensions: they point where a unit-sized load would not reach.
    return false;
  }
}

} // namespace

int64_t symbolizer::readUnitHeader(const uint8_t *Unit, size_t AvailB,
                               UnitHeader &Out) {
  ByteReader R{Unit, Unit + AvailB};
  uint32_t Length = R.fixed<uint32_t>();
  if (R.ok() && Length >= Dwarf64Escape)
    return Unsupported;
  Out.SizeB = uint64_t(Length) + 4;
  Out.Version = R.fixed<uint16_t>();
  if (Out.Version >= 5) {
    uint8_t Type = R.u8();
    Out.AddrB = R.u8();
    Out.AbbrevOff = R.fixed<uint32_t>();
    if (R.ok() && Type != DW_UT_compile && Type != DW_UT_partial)
      return Unsupported;
  } else {
    Out.AbbrevOff = R.fixed<uint32_t>();
    Out.AddrB = R.u8();
  }
  if (!R.ok())
    return NeedMore;
  if (Out.Version < 2 || Out.Version > 5 || Out.AddrB != 8)
    return Unsupported;
  Out.HeaderB = uint64_t(R.P - Unit);
  return int64_t(Out.SizeB);
}

int64_t symbolizer::abbrevTableSize(const uint8_t *P, size_t AvailB) {
  ByteReader R{P, P + AvailB};
  while (R.uleb() != 0 && R.ok())
    AbbrevIndex::skipEntry(R);
  return R.ok() ? int64_t(R.P - P) : NeedMore;
}

int64_t symbolizer::lengthPrefixedSize(const uint8_t *P, size_t AvailB) {
  ByteReader R{P, P + AvailB};
  uint32_t Length = R.fixed<uint32_t>();
  if (!R.ok())
    return NeedMore;
  return Length >= Dwarf64Escape ? Unsupported : int64_t(Length) + 4;
}

int64_t symbolizer::stringSize(const uint8_t *P, size_t AvailB) {
  const void *Nul = memchr(P, 0, AvailB);
  return Nul ? int64_t((const uint8_t *)Nul - P) + 1 : NeedMore;
}

int64_t symbolizer::rangeListSize(const uint8_t *P, size_t AvailB,
                              uint16_t Version, uint8_t AddrB) {
  ByteReader R{P, P + AvailB};
  if (Version < 5) {
    for (;;) {
      uint64_t Lo = R.fixed<uint64_t>(), Hi = R.fixed<uint64_t>();
      if (!R.ok())
        return NeedMore;
      if (Lo == 0 && Hi == 0)
        return int64_t(R.P - P);
    }
  }
  for (;;) {
    uint8_t Kind = R.u8();
    switch (Kind) {
    case DW_RLE_end_of_list:
      return R.ok() ? int64_t(R.P - P) : NeedMore;
    case DW_RLE_base_addressx:
      R.uleb();
      break;
    case DW_RLE_startx_endx:
    case DW_RLE_startx_length:
    case DW_RLE_offset_pair:
      R.uleb();
      R.uleb();
      break;
    case DW_RLE_base_address:
      R.skip(AddrB);
      break;
    case DW_RLE_start_end:
      R.skip(2 * AddrB);
      break;
    case DW_RLE_start_length:
      R.skip(AddrB);
      R.uleb();
      break;
    default:
      return R.ok() ? Unsupported : NeedMore;
    }
    if (!R.ok())
      return NeedMore;
  }
}

int64_t symbolizer::scanUnit(const uint8_t *Unit, const UnitHeader &H,
                         const uint8_t *Abbrevs, size_t AbbrevB, RefSink Sink) {
  AbbrevIndex Index;
  if (!Index.build(Abbrevs, AbbrevB))
    return Unsupported;
  ByteReader R{Unit + H.HeaderB, Unit + H.SizeB};
  while (R.P < R.End) {
    uint64_t Code = R.uleb();
    if (Code == 0)
      continue; // the end of a list of children
    if (Code >= Index.NumCodes || !Index.Specs[Code])
      return Unsupported;
    ByteReader Spec{Index.Specs[Code], Abbrevs + AbbrevB};
    for (;;) {
      uint64_t Attr = Spec.uleb(), Form = Spec.uleb();
      if (!Spec.ok())
        return Unsupported;
      if (Attr == 0 && Form == 0)
        break;
      if (Form == DW_FORM_implicit_const)
        Spec.sleb();
      if (!readValue(R, Attr, Form, H, Sink))
        return Unsupported;
    }
    if (!R.ok())
      return Unsupported;
  }
  return 0;
}

int64_t symbolizer::scanLineHeader(const uint8_t *Program, size_t ProgramB,
                               RefSink Sink) {
  ByteReader R{Program, Program + ProgramB};
  R.fixed<uint32_t>(); // unit length
  UnitHeader H{};
  H.Version = R.fixed<uint16_t>();
  if (!R.ok() || H.Version < 5)
    return R.ok() ? 0 : Unsupported;
  H.AddrB = R.u8();
  R.u8(); // segment selector size
  R.fixed<uint32_t>(); // header length
  R.skip(5); // instruction length, ops per instruction, is_stmt, line base and range
  uint8_t OpcodeBase = R.u8();
  R.skip(OpcodeBase ? OpcodeBase - 1 : 0);
  // Directories, then files: each a list of entries in a given format.
  for (int List = 0; List < 2; ++List) {
    uint8_t NumFields = R.u8();
    const uint8_t *Format = R.P;
    for (uint8_t I = 0; I < NumFields; ++I) {
      R.uleb();
      R.uleb();
    }
    ByteReader FormatEnd = R;
    uint64_t NumEntries = R.uleb();
    for (uint64_t E = 0; E < NumEntries && R.ok(); ++E) {
      ByteReader F{Format, FormatEnd.P};
      for (uint8_t I = 0; I < NumFields; ++I) {
        F.uleb(); // content type
        uint64_t Form = F.uleb();
        if (!readValue(R, 0, Form, H, Sink))
          return Unsupported;
      }
    }
    if (!R.ok())
      return Unsupported;
  }
  return 0;
}

bool symbolizer::unitCovering(const uint8_t *Aranges, size_t ArangesB,
                          uint64_t Addr, uint64_t &UnitOff) {
  const uint8_t *P = Aranges, *End = Aranges + ArangesB;
  while (P < End) {
    int64_t SetB = lengthPrefixedSize(P, size_t(End - P));
    if (SetB < 0 || uint64_t(SetB) > uint64_t(End - P))
      return false;
    ByteReader R{P + 4, P + SetB};
    R.fixed<uint16_t>(); // version
    uint64_t Unit = R.fixed<uint32_t>();
    uint8_t AddrB = R.u8(), SegB = R.u8();
    if (!R.ok() || AddrB != 8 || SegB != 0)
      return false;
    // The tuples start at a multiple of their size from the set's start.
    R.P = P + ((R.P - P + 15) & ~15);
    for (;;) {
      uint64_t Lo = R.fixed<uint64_t>(), Len = R.fixed<uint64_t>();
      if (!R.ok() || (Lo == 0 && Len == 0))
        break;
      if (Addr - Lo < Len) {
        UnitOff = Unit;
        return true;
      }
    }
    P += SetB;
  }
  return false;
}
