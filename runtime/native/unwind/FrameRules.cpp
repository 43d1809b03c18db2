//===- FrameRules.cpp - .eh_frame rows, reduced and cached ----------------===//
//
// Part of massif-native, under the MIT licence.
//
// The first time the walk meets a code address outside instrumented code,
// findLoadedObject finds the module mapping it and its PT_GNU_EH_FRAME
// (.eh_frame_hdr), EhFrame.cpp reads the row of the call-frame table for
// the address, and the row is reduced to a FrameRule: CFA from RSP or RBP
// plus an offset, or loaded from memory at RSP/RBP plus an offset (glibc's
// signal trampoline, gcc's realigned main); registers saved at CFA plus an
// offset or, in signal trampolines, at RSP plus an offset. Anything else
// (PLT stubs, registers kept in other registers) ends the walk there. The
// result goes into an open-addressing table of 16-byte cells keyed by
// address, filled by compare-and-swap: later lookups are one hash probe,
// from any thread, without a lock.
//
//===----------------------------------------------------------------------===//

#include "FrameRules.h"
#include "LoaderWalk.h"

#include "EhFrame.h"

#include <sched.h>
#include <elf.h>
#include <link.h>
#include <string.h>

using namespace massif;
using namespace massif::native;
namespace {

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
bool reduce(const CfiRow &Rw, FrameRule &Out) {
  Out = FrameRule{};
  switch (Rw.Cfa) {
  case CfiRow::RegOff:
    if (Rw.CfaReg == CfiRegSp)
      Out.Cfa = FrameRule::CfaSp;
    else if (Rw.CfaReg == CfiRegBp)
      Out.Cfa = FrameRule::CfaBp;
    else
      return false;
    break;
  case CfiRow::DerefSp: Out.Cfa = FrameRule::CfaDerefSp; break;
  case CfiRow::DerefBp: Out.Cfa = FrameRule::CfaDerefBp; break;
  case CfiRow::Bad: return false;
  }
  if (Rw.CfaOff < INT32_MIN || Rw.CfaOff > INT32_MAX)
    return false;
  Out.CfaOff = (int32_t)Rw.CfaOff;
  auto Slot = [](const CfiRegRule &Rule, FrameRule::SlotKind &K, int16_t &Off,
                 bool IsRa) {
    Off = 0;
    switch (Rule.K) {
    case CfiRegRule::Unset:
      // Callee-saved registers keep their value; a return address
      // nobody describes means there is no caller.
      K = IsRa ? FrameRule::Undefined : FrameRule::Same;
      return true;
    case CfiRegRule::Same:
      K = FrameRule::Same;
      return !IsRa;
    case CfiRegRule::Undef:
      K = FrameRule::Undefined;
      return true;
    case CfiRegRule::Offset:
    case CfiRegRule::SpExpr:
      if (Rule.Off < INT16_MIN || Rule.Off > INT16_MAX)
        return false;
      K = Rule.K == CfiRegRule::Offset ? FrameRule::AtCfa : FrameRule::AtSp;
      Off = (int16_t)Rule.Off;
      return true;
    case CfiRegRule::Other:
      return false;
    }
    return false;
  };
  if (!Slot(Rw.Ra, Out.Ra, Out.RaOff, true) ||
      !Slot(Rw.Bp, Out.Bp, Out.BpOff, false))
    return false;
  Out.Signal = Rw.Signal;
  return true;
}

} // namespace

bool native::computeFrameRule(uint64_t Addr, FrameRule &Out) {
  dl_phdr_info Info;
  const uint8_t *EhFrameHdr;
  if (!findLoadedObject(Addr, Info, EhFrameHdr))
    return false;
  CfiRow Row;
  if (!EhFrameHdr || !readCfiRow(EhFrameHdr, Addr, Row) || !reduce(Row, Out))
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

bool native::lookupFrameRule(uint64_t Addr, FrameRule &R, bool &Computed) {
  Computed = false;
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

  Computed = true;
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
  if (const uint8_t *Clone = (const uint8_t *)(uintptr_t)&clone) {
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
