//===- EhFrame.cpp - Reading .eh_frame call-frame instructions ------------===//
//
// Part of massif-native, under the MIT licence.
//
// The FDE covering an address is found through .eh_frame_hdr's sorted
// table; its CIE's and its own call-frame instructions are run up to the
// address, tracking only the CFA, RBP and the return-address column.
//
//===----------------------------------------------------------------------===//

#include "EhFrame.h"

#include "ByteReader.h"

#include <string.h>

using namespace massif;
using namespace massif::native;

namespace {

// DWARF register numbers on x86-64 (the return address column comes from
// the CIE).
constexpr uint32_t RegBp = CfiRegBp, RegSp = CfiRegSp;

// Pointer encodings (DW_EH_PE_*).
constexpr uint8_t PeOmit = 0xff, PeAbsptr = 0x00, PeUleb = 0x01,
                  PeUdata2 = 0x02, PeUdata4 = 0x03, PeUdata8 = 0x04,
                  PeSleb = 0x09, PeSdata2 = 0x0a, PeSdata4 = 0x0b,
                  PeSdata8 = 0x0c, PePcrel = 0x10, PeDatarel = 0x30,
                  PeIndirect = 0x80;

/// A byte reader over mapped memory (the module's own .eh_frame).
struct Reader : ByteReader {
  /// Reads a pointer in encoding Enc; DataBase anchors datarel values.
  bool encoded(uint8_t Enc, uint64_t DataBase, uint64_t &Out) {
    if (Enc == PeOmit)
      return false;
    uint64_t Field = (uint64_t)(uintptr_t)P;
    uint64_t V;
    switch (Enc & 0x0f) {
    case PeAbsptr: V = fixed<uint64_t>(); break;
    case PeUleb: V = uleb(); break;
    case PeUdata2: V = fixed<uint16_t>(); break;
    case PeUdata4: V = fixed<uint32_t>(); break;
    case PeUdata8: V = fixed<uint64_t>(); break;
    case PeSleb: V = (uint64_t)sleb(); break;
    case PeSdata2: V = (uint64_t)(int64_t)fixed<int16_t>(); break;
    case PeSdata4: V = (uint64_t)(int64_t)fixed<int32_t>(); break;
    case PeSdata8: V = fixed<uint64_t>(); break;
    default: return false;
    }
    switch (Enc & 0x70) {
    case 0: break;
    case PePcrel: V += Field; break;
    case PeDatarel: V += DataBase; break;
    default: return false; // textrel/funcrel/aligned: not used on x86-64
    }
    if (Enc & PeIndirect)
      V = *(const uint64_t *)(uintptr_t)V;
    Out = V;
    return ok();
  }
};

using RegRule = CfiRegRule;
using Row = CfiRow;

/// What the CIE says for the FDEs that point at it.
struct Cie {
  uint64_t CodeAlign;
  int64_t DataAlign;
  uint32_t RaReg;
  uint8_t FdeEnc;
  bool Signal;
  const uint8_t *Insns, *InsnsEnd;
};

bool parseCie(const uint8_t *P, Cie &C) {
  uint32_t Len32;
  memcpy(&Len32, P, 4);
  if (Len32 == 0 || Len32 == 0xffffffff) // 64-bit .eh_frame: not on x86-64
    return false;
  Reader R{P + 4, P + 4 + Len32};
  if (R.fixed<uint32_t>() != 0) // CIE id
    return false;
  uint8_t Version = R.u8();
  const char *Aug = (const char *)R.P;
  size_t AugLen = strnlen(Aug, (size_t)(R.End - R.P));
  R.P += AugLen + 1;
  if (Aug[0] != 0 && Aug[0] != 'z')
    return false;
  C.CodeAlign = R.uleb();
  C.DataAlign = R.sleb();
  C.RaReg = Version == 1 ? R.u8() : (uint32_t)R.uleb();
  C.FdeEnc = PeAbsptr;
  C.Signal = false;
  if (Aug[0] == 'z') {
    uint64_t DataLen = R.uleb();
    const uint8_t *DataEnd = R.P + DataLen;
    for (const char *A = Aug + 1; *A; ++A) {
      if (*A == 'R') {
        C.FdeEnc = R.u8();
      } else if (*A == 'L') {
        R.u8();
      } else if (*A == 'P') {
        uint64_t Ignored;
        uint8_t Enc = R.u8();
        if (!R.encoded(Enc & ~PeIndirect, 0, Ignored))
          return false;
      } else if (*A == 'S') {
        C.Signal = true;
      } else {
        break; // unknown letters: the data length lets us skip them
      }
    }
    R.P = DataEnd;
  }
  C.Insns = R.P;
  C.InsnsEnd = R.End;
  return R.ok();
}

/// Reads a DWARF expression block: the forms the x86-64 toolchains use for
/// the CFA of signal trampolines and realigned stacks, and for registers
/// saved in a signal frame. Returns the register its base is, or -1.
int simpleExpr(Reader &R, uint64_t Len, int64_t &Off, bool &Deref) {
  Reader E{R.P, R.P + Len};
  R.P += Len;
  uint8_t Op = E.u8();
  if (Op < 0x70 || Op > 0x8f) // DW_OP_breg0..31
    return -1;
  int Reg = Op - 0x70;
  Off = E.sleb();
  Deref = false;
  if (E.P < E.End) {
    if (E.u8() != 0x06) // DW_OP_deref
      return -1;
    Deref = true;
  }
  return E.P == E.End ? Reg : -1;
}

RegRule *ruleFor(Row &Rw, uint32_t Reg, const Cie &C) {
  if (Reg == RegBp)
    return &Rw.Bp;
  if (Reg == C.RaReg)
    return &Rw.Ra;
  return nullptr;
}

/// The rule DW_CFA_restore goes back to: the CIE's.
RegRule initialRule(const Row *Init, uint32_t Reg, const Cie &C) {
  if (!Init)
    return RegRule{RegRule::Unset, 0};
  return Reg == RegBp ? Init->Bp : Init->Ra;
}

/// How the rows of an FDE compute the CFA.
struct CfaUse {
  bool FromBp = false; ///< some row takes it from RBP
  bool Moved = false;  ///< some row has it elsewhere than RSP + 8

  void add(const Row &Rw) {
    bool Entry = Rw.Cfa == Row::RegOff && Rw.CfaReg == RegSp && Rw.CfaOff == 8;
    FromBp |= Rw.Cfa == Row::RegOff && Rw.CfaReg == RegBp;
    Moved |= !Entry;
  }
};

/// Runs the call-frame instructions in [P, End) into Rw, stopping before the
/// first row that starts beyond Target. Init is the row after the CIE's
/// instructions (for DW_CFA_restore), null while running those.
bool runCfi(const uint8_t *P, const uint8_t *End, const Cie &C, uint64_t Loc,
            uint64_t Target, Row &Rw, const Row *Init,
            CfaUse *Seen = nullptr) {
  constexpr int MaxStates = 16;
  Row Saved[MaxStates];
  int NumSaved = 0;
  Reader R{P, End};
  while (R.P < R.End) {
    uint8_t Op = R.u8();
    uint8_t Low = Op & 0x3f;
    uint64_t Delta = 0;
    uint32_t Reg;
    RegRule *Rule;
    switch (Op >> 6) {
    case 1: // DW_CFA_advance_loc
      Delta = Low * C.CodeAlign;
      break;
    case 2: // DW_CFA_offset
      if ((Rule = ruleFor(Rw, Low, C)))
        *Rule = {RegRule::Offset, (int64_t)R.uleb() * C.DataAlign};
      else
        R.uleb();
      continue;
    case 3: // DW_CFA_restore
      if ((Rule = ruleFor(Rw, Low, C)))
        *Rule = initialRule(Init, Low, C);
      continue;
    default:
      break;
    }
    if (Op >> 6 == 0) {
      switch (Op) {
      case 0x00: // nop
        continue;
      case 0x01: { // set_loc
        uint64_t NewLoc;
        if (!R.encoded(C.FdeEnc, 0, NewLoc))
          return false;
        if (NewLoc > Target)
          return true;
        Loc = NewLoc;
        continue;
      }
      case 0x02: Delta = R.u8() * C.CodeAlign; break;
      case 0x03: Delta = R.fixed<uint16_t>() * C.CodeAlign; break;
      case 0x04: Delta = R.fixed<uint32_t>() * C.CodeAlign; break;
      case 0x05: // offset_extended
      case 0x11: // offset_extended_sf
      case 0x2f: { // GNU_negative_offset_extended
        Reg = (uint32_t)R.uleb();
        int64_t Off = Op == 0x11 ? R.sleb() * C.DataAlign
                                 : (int64_t)R.uleb() * C.DataAlign;
        if (Op == 0x2f)
          Off = -Off;
        if ((Rule = ruleFor(Rw, Reg, C)))
          *Rule = {RegRule::Offset, Off};
        continue;
      }
      case 0x06: // restore_extended
        Reg = (uint32_t)R.uleb();
        if ((Rule = ruleFor(Rw, Reg, C)))
          *Rule = initialRule(Init, Reg, C);
        continue;
      case 0x07: // undefined
      case 0x08: // same_value
        Reg = (uint32_t)R.uleb();
        if ((Rule = ruleFor(Rw, Reg, C)))
          *Rule = {Op == 0x07 ? RegRule::Undef : RegRule::Same, 0};
        continue;
      case 0x09: // register
        Reg = (uint32_t)R.uleb();
        R.uleb();
        if ((Rule = ruleFor(Rw, Reg, C)))
          *Rule = {RegRule::Other, 0};
        continue;
      case 0x0a: // remember_state
        if (NumSaved == MaxStates)
          return false;
        Saved[NumSaved++] = Rw;
        continue;
      case 0x0b: // restore_state, the CFA rule included (as gcc expects)
        if (NumSaved == 0)
          return false;
        Rw = Saved[--NumSaved];
        continue;
      case 0x0c: // def_cfa
        Rw.Cfa = Row::RegOff;
        Rw.CfaReg = (uint32_t)R.uleb();
        Rw.CfaOff = (int64_t)R.uleb();
        continue;
      case 0x12: // def_cfa_sf
        Rw.Cfa = Row::RegOff;
        Rw.CfaReg = (uint32_t)R.uleb();
        Rw.CfaOff = R.sleb() * C.DataAlign;
        continue;
      case 0x0d: // def_cfa_register
        if (Rw.Cfa != Row::RegOff)
          Rw.Cfa = Row::Bad;
        Rw.CfaReg = (uint32_t)R.uleb();
        continue;
      case 0x0e: // def_cfa_offset
        Rw.CfaOff = (int64_t)R.uleb();
        continue;
      case 0x13: // def_cfa_offset_sf
        Rw.CfaOff = R.sleb() * C.DataAlign;
        continue;
      case 0x0f: { // def_cfa_expression
        uint64_t Len = R.uleb();
        int64_t Off;
        bool Deref;
        int Base = simpleExpr(R, Len, Off, Deref);
        Rw.Cfa = Row::Bad;
        if (Deref && Base == (int)RegSp)
          Rw.Cfa = Row::DerefSp;
        else if (Deref && Base == (int)RegBp)
          Rw.Cfa = Row::DerefBp;
        Rw.CfaOff = Off;
        continue;
      }
      case 0x10: { // expression: the register is saved at the address
        Reg = (uint32_t)R.uleb();
        uint64_t Len = R.uleb();
        int64_t Off;
        bool Deref;
        int Base = simpleExpr(R, Len, Off, Deref);
        if ((Rule = ruleFor(Rw, Reg, C)))
          *Rule = Base == (int)RegSp && !Deref
                      ? RegRule{RegRule::SpExpr, Off}
                      : RegRule{RegRule::Other, 0};
        continue;
      }
      case 0x14: // val_offset
      case 0x15: // val_offset_sf
        Reg = (uint32_t)R.uleb();
        if (Op == 0x14)
          R.uleb();
        else
          R.sleb();
        if ((Rule = ruleFor(Rw, Reg, C)))
          *Rule = {RegRule::Other, 0};
        continue;
      case 0x16: { // val_expression
        Reg = (uint32_t)R.uleb();
        R.P += R.uleb();
        if ((Rule = ruleFor(Rw, Reg, C)))
          *Rule = {RegRule::Other, 0};
        continue;
      }
      case 0x2e: // GNU_args_size
        R.uleb();
        continue;
      default:
        return false;
      }
    }
    if (Seen)
      Seen->add(Rw);
    if (Loc + Delta > Target)
      return true;
    Loc += Delta;
  }
  if (Seen)
    Seen->add(Rw);
  return R.ok();
}

/// .eh_frame_hdr's binary search table: Count pairs of {initial location,
/// FDE}, each an int32 from Base.
struct FdeTable {
  uint64_t Base;
  const int32_t *Pairs;
  uint64_t Count;

  bool open(const uint8_t *Hdr) {
    if (Hdr[0] != 1)
      return false;
    uint8_t FramePtrEnc = Hdr[1], CountEnc = Hdr[2], TableEnc = Hdr[3];
    Reader R{Hdr + 4, Hdr + 4 + 16};
    uint64_t FramePtr;
    Base = (uint64_t)(uintptr_t)Hdr;
    if (!R.encoded(FramePtrEnc, Base, FramePtr) ||
        !R.encoded(CountEnc, Base, Count) || Count == 0)
      return false;
    if (TableEnc != (PeDatarel | PeSdata4))
      return false; // every linker writes this form
    Pairs = (const int32_t *)R.P;
    return true;
  }
  uint64_t start(uint64_t I) const { return Base + (int64_t)Pairs[2 * I]; }
  const uint8_t *fde(uint64_t I) const {
    return (const uint8_t *)(uintptr_t)(Base + (int64_t)Pairs[2 * I + 1]);
  }
};

/// Finds the FDE covering Addr through .eh_frame_hdr's sorted table.
const uint8_t *findFde(const uint8_t *Hdr, uint64_t Addr) {
  FdeTable T;
  if (!T.open(Hdr))
    return nullptr;
  uint64_t Lo = 0, Hi = T.Count;
  while (Hi - Lo > 1) {
    uint64_t Mid = (Lo + Hi) / 2;
    if (T.start(Mid) <= Addr)
      Lo = Mid;
    else
      Hi = Mid;
  }
  if (T.start(Lo) > Addr)
    return nullptr;
  return T.fde(Lo);
}

/// An FDE, parsed: its CIE, the code it covers and its own instructions.
struct Fde {
  Cie C;
  uint64_t PcBegin, PcRange;
  const uint8_t *Insns, *InsnsEnd;

  bool parse(const uint8_t *P) {
    uint32_t Len32;
    memcpy(&Len32, P, 4);
    if (Len32 == 0 || Len32 == 0xffffffff)
      return false;
    Reader R{P + 4, P + 4 + Len32};
    uint32_t CiePtr = R.fixed<uint32_t>();
    if (CiePtr == 0) // a CIE, not an FDE
      return false;
    if (!parseCie(P + 4 - CiePtr, C))
      return false;
    if (!R.encoded(C.FdeEnc, 0, PcBegin) ||
        !R.encoded(C.FdeEnc & 0x0f, 0, PcRange))
      return false;
    // The CIE's letters start with 'z' whenever the FDE has augmentation
    // data; every x86-64 toolchain writes "zR" or longer.
    R.P += R.uleb();
    Insns = R.P;
    InsnsEnd = R.End;
    return R.ok();
  }

  /// Runs the CIE's instructions, then the FDE's up to Target.
  bool run(uint64_t Target, Row &Out, CfaUse *Seen = nullptr) const {
    Row Init = {Row::Bad, 0, 0, {RegRule::Unset, 0}, {RegRule::Unset, 0},
                false};
    if (!runCfi(C.Insns, C.InsnsEnd, C, PcBegin, UINT64_MAX, Init, nullptr))
      return false;
    Out = Init;
    if (!runCfi(Insns, InsnsEnd, C, PcBegin, Target, Out, &Init, Seen))
      return false;
    Out.Signal = C.Signal;
    return true;
  }
};

} // namespace

bool native::readCfiRow(const uint8_t *EhFrameHdr, uint64_t Addr,
                        CfiRow &Out) {
  const uint8_t *P = findFde(EhFrameHdr, Addr);
  Fde F;
  if (!P || !F.parse(P) || Addr < F.PcBegin || Addr - F.PcBegin >= F.PcRange)
    return false;
  return F.run(Addr, Out);
}

bool native::forEachFde(const uint8_t *EhFrameHdr,
                        void (*Fn)(void *Ctx, const FdeSummary &), void *Ctx) {
  FdeTable T;
  if (!T.open(EhFrameHdr))
    return false;
  for (uint64_t I = 0; I < T.Count; ++I) {
    Fde F;
    Row Last;
    CfaUse Seen;
    if (!F.parse(T.fde(I)) || !F.run(UINT64_MAX, Last, &Seen))
      continue;
    Fn(Ctx, FdeSummary{F.PcBegin, F.PcBegin + F.PcRange, Seen.FromBp,
                       !Seen.Moved});
  }
  return true;
}
