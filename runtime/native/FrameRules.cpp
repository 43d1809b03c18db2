//===- FrameRules.cpp - .eh_frame rows, reduced and cached ----------------===//
//
// Part of massif-native, under the MIT licence.
//
// The first time the walk meets a code address outside instrumented code:
//
//   dl_iterate_phdr         -> the module mapping the address, and its
//                              PT_GNU_EH_FRAME (.eh_frame_hdr)
//   .eh_frame_hdr table     -> binary search: the FDE covering the address
//   FDE + its CIE           -> run the call-frame instructions up to the
//                              address: the row (CFA rule, register rules)
//   row                     -> FrameRule (CFA, return address, RBP)
//
// and the result goes into an open-addressing table of 16-byte cells keyed
// by address, filled by compare-and-swap: later lookups are one hash probe,
// from any thread, without a lock. Only the rules the x86-64 toolchains
// emit are followed: CFA from RSP or RBP plus an offset, or loaded from
// memory at RSP/RBP plus an offset (glibc's signal trampoline, gcc's
// realigned main); registers saved at CFA plus an offset or, in signal
// trampolines, at RSP plus an offset. Anything else (PLT stubs, registers
// kept in other registers) ends the walk there.
//
//===----------------------------------------------------------------------===//

#include "FrameRules.h"

#include "Modules.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>

using namespace massif;
using namespace massif::native;

namespace {

// DWARF register numbers on x86-64.
constexpr uint32_t RegBp = 6, RegSp = 7, RegRa = 16;

// Pointer encodings (DW_EH_PE_*).
constexpr uint8_t PeOmit = 0xff, PeAbsptr = 0x00, PeUleb = 0x01,
                  PeUdata2 = 0x02, PeUdata4 = 0x03, PeUdata8 = 0x04,
                  PeSleb = 0x09, PeSdata2 = 0x0a, PeSdata4 = 0x0b,
                  PeSdata8 = 0x0c, PePcrel = 0x10, PeDatarel = 0x30,
                  PeIndirect = 0x80;

/// A byte reader over mapped memory (the module's own .eh_frame).
struct Reader {
  const uint8_t *P;
  const uint8_t *End;

  bool ok() const { return P <= End; }
  uint8_t u8() { return P < End ? *P++ : (P = End + 1, 0); }
  template <typename T> T fixed() {
    T V = 0;
    if (P + sizeof(T) > End) {
      P = End + 1;
      return 0;
    }
    memcpy(&V, P, sizeof(T));
    P += sizeof(T);
    return V;
  }
  uint64_t uleb() {
    uint64_t V = 0;
    for (unsigned Shift = 0; Shift < 64; Shift += 7) {
      uint8_t B = u8();
      V |= (uint64_t)(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
    return V;
  }
  int64_t sleb() {
    int64_t V = 0;
    unsigned Shift = 0;
    uint8_t B;
    do {
      B = u8();
      V |= (int64_t)(B & 0x7f) << Shift;
      Shift += 7;
    } while ((B & 0x80) && Shift < 64);
    if (Shift < 64 && (B & 0x40))
      V |= -((int64_t)1 << Shift);
    return V;
  }
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

/// One register's rule in a CFI row.
struct RegRule {
  enum Kind : uint8_t { Unset, Same, Undef, Offset, SpExpr, Other } K;
  int64_t Off;
};

struct Row {
  enum CfaK : uint8_t { RegOff, DerefSp, DerefBp, Bad } Cfa;
  uint32_t CfaReg;
  int64_t CfaOff;
  RegRule Bp, Ra;
};

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

/// Runs the call-frame instructions in [P, End) into Rw, stopping before the
/// first row that starts beyond Target. Init is the row after the CIE's
/// instructions (for DW_CFA_restore), null while running those.
bool runCfi(const uint8_t *P, const uint8_t *End, const Cie &C, uint64_t Loc,
            uint64_t Target, Row &Rw, const Row *Init) {
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
    if (Loc + Delta > Target)
      return true;
    Loc += Delta;
  }
  return R.ok();
}

/// The module that maps an address, as dl_iterate_phdr reports it.
struct ModuleHit {
  uint64_t Addr;
  const dl_phdr_info *Info;
  const uint8_t *EhFrameHdr;
  bool Found;
};

int findModule(dl_phdr_info *Info, size_t, void *Data) {
  ModuleHit &H = *(ModuleHit *)Data;
  bool Maps = false;
  const uint8_t *Hdr = nullptr;
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &Ph = Info->dlpi_phdr[I];
    uint64_t Start = Info->dlpi_addr + Ph.p_vaddr;
    if (Ph.p_type == PT_LOAD && H.Addr >= Start && H.Addr < Start + Ph.p_memsz)
      Maps = true;
    else if (Ph.p_type == PT_GNU_EH_FRAME)
      Hdr = (const uint8_t *)(uintptr_t)Start;
  }
  if (!Maps)
    return 0;
  noteModule(*Info); // classify it (instrumented or not) while we are here
  H.Info = Info;
  H.EhFrameHdr = Hdr;
  H.Found = true;
  return 1;
}

/// Finds the FDE covering Addr through .eh_frame_hdr's sorted table.
const uint8_t *findFde(const uint8_t *Hdr, uint64_t Addr) {
  if (Hdr[0] != 1)
    return nullptr;
  uint8_t FramePtrEnc = Hdr[1], CountEnc = Hdr[2], TableEnc = Hdr[3];
  Reader R{Hdr + 4, Hdr + 4 + 16};
  uint64_t FramePtr, Count;
  uint64_t Base = (uint64_t)(uintptr_t)Hdr;
  if (!R.encoded(FramePtrEnc, Base, FramePtr) ||
      !R.encoded(CountEnc, Base, Count) || Count == 0)
    return nullptr;
  if (TableEnc != (PeDatarel | PeSdata4))
    return nullptr; // every linker writes this form
  const int32_t *Table = (const int32_t *)R.P;
  uint64_t Lo = 0, Hi = Count;
  while (Hi - Lo > 1) {
    uint64_t Mid = (Lo + Hi) / 2;
    if (Base + (int64_t)Table[2 * Mid] <= Addr)
      Lo = Mid;
    else
      Hi = Mid;
  }
  if (Base + (int64_t)Table[2 * Lo] > Addr)
    return nullptr;
  return (const uint8_t *)(uintptr_t)(Base + (int64_t)Table[2 * Lo + 1]);
}

/// The glibc clone3 thread start: `call *%rdx` returning to
/// `mov %rax,%rdi; mov $60,%eax; syscall` (exit with the start routine's
/// value). Ra is the return address.
bool isClone3Start(uint64_t Ra) {
  static const uint8_t After[] = {0x48, 0x89, 0xc7, 0xb8, 0x3c,
                                  0x00, 0x00, 0x00, 0x0f, 0x05};
  const uint8_t *P = (const uint8_t *)(uintptr_t)Ra;
  return P[-2] == 0xff && P[-1] == 0xd2 && memcmp(P, After, sizeof(After)) == 0;
}

/// Reduces a row to a FrameRule; false for forms the walk does not follow.
bool reduce(const Row &Rw, const Cie &C, FrameRule &Out) {
  Out = FrameRule{};
  switch (Rw.Cfa) {
  case Row::RegOff:
    if (Rw.CfaReg == RegSp)
      Out.Cfa = FrameRule::CfaSp;
    else if (Rw.CfaReg == RegBp)
      Out.Cfa = FrameRule::CfaBp;
    else
      return false;
    break;
  case Row::DerefSp: Out.Cfa = FrameRule::CfaDerefSp; break;
  case Row::DerefBp: Out.Cfa = FrameRule::CfaDerefBp; break;
  case Row::Bad: return false;
  }
  if (Rw.CfaOff < INT32_MIN || Rw.CfaOff > INT32_MAX)
    return false;
  Out.CfaOff = (int32_t)Rw.CfaOff;
  auto Slot = [](const RegRule &Rule, FrameRule::SlotKind &K, int16_t &Off,
                 bool IsRa) {
    Off = 0;
    switch (Rule.K) {
    case RegRule::Unset:
      // Callee-saved registers keep their value; a return address
      // nobody describes means there is no caller.
      K = IsRa ? FrameRule::Undefined : FrameRule::Same;
      return true;
    case RegRule::Same:
      K = FrameRule::Same;
      return !IsRa;
    case RegRule::Undef:
      K = FrameRule::Undefined;
      return true;
    case RegRule::Offset:
    case RegRule::SpExpr:
      if (Rule.Off < INT16_MIN || Rule.Off > INT16_MAX)
        return false;
      K = Rule.K == RegRule::Offset ? FrameRule::AtCfa : FrameRule::AtSp;
      Off = (int16_t)Rule.Off;
      return true;
    case RegRule::Other:
      return false;
    }
    return false;
  };
  if (!Slot(Rw.Ra, Out.Ra, Out.RaOff, true) ||
      !Slot(Rw.Bp, Out.Bp, Out.BpOff, false))
    return false;
  Out.Signal = C.Signal;
  return true;
}

} // namespace

bool native::computeFrameRule(uint64_t Addr, FrameRule &Out) {
  ModuleHit H = {Addr, nullptr, nullptr, false};
  dl_iterate_phdr(findModule, &H);
  if (!H.Found || !H.EhFrameHdr)
    return false;
  const uint8_t *Fde = findFde(H.EhFrameHdr, Addr);
  if (!Fde)
    return false;
  uint32_t Len32;
  memcpy(&Len32, Fde, 4);
  if (Len32 == 0 || Len32 == 0xffffffff)
    return false;
  Reader R{Fde + 4, Fde + 4 + Len32};
  uint32_t CiePtr = R.fixed<uint32_t>();
  if (CiePtr == 0) // a CIE, not an FDE
    return false;
  Cie C;
  if (!parseCie(Fde + 4 - CiePtr, C))
    return false;
  uint64_t PcBegin, PcRange;
  if (!R.encoded(C.FdeEnc, 0, PcBegin) ||
      !R.encoded(C.FdeEnc & 0x0f, 0, PcRange))
    return false;
  if (Addr < PcBegin || Addr - PcBegin >= PcRange)
    return false;
  // The CIE's letters start with 'z' whenever the FDE has augmentation
  // data; every x86-64 toolchain writes "zR" or longer.
  R.P += R.uleb();
  if (!R.ok())
    return false;

  Row Init = {Row::Bad, 0, 0, {RegRule::Unset, 0}, {RegRule::Unset, 0}};
  if (!runCfi(C.Insns, C.InsnsEnd, C, PcBegin, UINT64_MAX, Init, nullptr))
    return false;
  Row Rw = Init;
  if (!runCfi(R.P, R.End, C, PcBegin, Addr, Rw, &Init))
    return false;
  if (!reduce(Rw, C, Out))
    return false;
  if (Out.Ra == FrameRule::Undefined && isClone3Start(Addr + 1))
    Out.Clone3Start = true;
  return true;
}

//===-- The cache ---------------------------------------------------------===//

namespace {

/// 2^15 cells of {address, packed rule}: 512 KiB of zero pages until used.
constexpr uint32_t CacheBits = 15;
constexpr uint32_t CacheCells = 1u << CacheBits;
constexpr uint32_t MaxProbes = 32;

struct Cell {
  uint64_t Key;  // the address; 0 when free
  uint64_t Rule; // packRule(); 0 while being written or forgotten
};

Cell TheCache[CacheCells];

/// A rule in 64 bits, bit 63 set:
///   0-1 Cfa, 2-3 Ra, 4-5 Bp, 6 Signal, 7 Clone3Start, 8-39 CfaOff,
///   40-55 RaOff, 56-62 BpOff / 8.
/// Sets Ok to false when BpOff does not fit (the rule is then not cached).
uint64_t pack(const FrameRule &R, bool &Ok) {
  Ok = R.BpOff % 8 == 0 && R.BpOff / 8 >= -64 && R.BpOff / 8 < 64;
  uint64_t BpField = (uint64_t)((R.BpOff / 8) & 0x7f);
  return (1ull << 63) | BpField << 56 | (uint64_t)(uint16_t)R.RaOff << 40 |
         (uint64_t)(uint32_t)R.CfaOff << 8 | (uint64_t)R.Clone3Start << 7 |
         (uint64_t)R.Signal << 6 | (uint64_t)R.Bp << 4 | (uint64_t)R.Ra << 2 |
         (uint64_t)R.Cfa;
}

void unpack(uint64_t V, FrameRule &R) {
  R.Cfa = (FrameRule::CfaKind)(V & 3);
  R.Ra = (FrameRule::SlotKind)((V >> 2) & 3);
  R.Bp = (FrameRule::SlotKind)((V >> 4) & 3);
  R.Signal = (V >> 6) & 1;
  R.Clone3Start = (V >> 7) & 1;
  R.CfaOff = (int32_t)(uint32_t)(V >> 8);
  R.RaOff = (int16_t)(uint16_t)(V >> 40);
  int8_t Bp7 = (int8_t)((uint8_t)(V >> 56) << 1) >> 1; // sign-extend 7 bits
  R.BpOff = (int16_t)(Bp7 * 8);
}

uint32_t slotOf(uint64_t Addr) {
  return (uint32_t)((Addr * 0x9E3779B97F4A7C15ull) >> (64 - CacheBits));
}

} // namespace

bool native::lookupFrameRule(uint64_t Addr, FrameRule &R) {
  uint32_t Slot = slotOf(Addr);
  for (uint32_t I = 0; I < MaxProbes; ++I) {
    Cell &C = TheCache[(Slot + I) & (CacheCells - 1)];
    uint64_t Key = __atomic_load_n(&C.Key, __ATOMIC_ACQUIRE);
    if (Key == Addr) {
      uint64_t V = __atomic_load_n(&C.Rule, __ATOMIC_ACQUIRE);
      if (V) {
        unpack(V, R);
        return true;
      }
      break; // being written or forgotten: compute it again
    }
    if (Key == 0)
      break;
  }

  if (!computeFrameRule(Addr, R))
    return false;
  bool Packable;
  uint64_t V = pack(R, Packable);
  if (!Packable)
    return true; // correct, just not cached
  for (uint32_t I = 0; I < MaxProbes; ++I) {
    Cell &C = TheCache[(Slot + I) & (CacheCells - 1)];
    uint64_t Key = __atomic_load_n(&C.Key, __ATOMIC_ACQUIRE);
    if (Key == 0) {
      uint64_t Expected = 0;
      if (__atomic_compare_exchange_n(&C.Key, &Expected, Addr, false,
                                      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        Key = Addr;
      else
        Key = Expected;
    }
    if (Key == Addr) {
      __atomic_store_n(&C.Rule, V, __ATOMIC_RELEASE);
      break;
    }
  }
  return true;
}

uint32_t native::RuleGeneration = 0;

void native::forgetFrameRules(uint64_t Lo, uint64_t Hi) {
  __atomic_fetch_add(&RuleGeneration, 1, __ATOMIC_ACQ_REL);
  for (Cell &C : TheCache) {
    uint64_t Key = __atomic_load_n(&C.Key, __ATOMIC_ACQUIRE);
    if (Key >= Lo && Key < Hi)
      __atomic_store_n(&C.Rule, 0, __ATOMIC_RELEASE);
  }
}

uint64_t native::threadStartPc() {
  static uint64_t Pc = 0;
  static bool Searched = false;
  if (__atomic_load_n(&Searched, __ATOMIC_ACQUIRE))
    return Pc;
  // clone's child path: `call *%rax` returning to the same exit sequence.
  static const uint8_t Pattern[] = {0xff, 0xd0, 0x48, 0x89, 0xc7, 0xb8,
                                    0x3c, 0x00, 0x00, 0x00, 0x0f, 0x05};
  uint64_t Found = 0;
  if (const uint8_t *Clone = (const uint8_t *)dlsym(RTLD_DEFAULT, "clone")) {
    for (int I = 0; I < 160; ++I)
      if (memcmp(Clone + I, Pattern, sizeof(Pattern)) == 0) {
        Found = (uint64_t)(uintptr_t)(Clone + I + 2) - 1;
        break;
      }
  }
  Pc = Found;
  __atomic_store_n(&Searched, true, __ATOMIC_RELEASE);
  return Pc;
}
