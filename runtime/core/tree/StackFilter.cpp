//===- StackFilter.cpp - Which frames of a stack Massif shows -------------===//
//
// Part of massif-native, under the MIT licence.
//
// See StackFilter.h for the rules. The main/below-main search follows
// Valgrind's XT_offset_main_or_below_main: scanning from the outermost
// frame inwards, remember every main-or-below-main frame and stop at the
// first `main`; so the result is the outermost `main` when there is one,
// else the innermost below-main frame, else nothing is cut.
//
//===----------------------------------------------------------------------===//

#include "StackFilter.h"
#include "AllocTree.h"
#include "SnapshotEngine.h"

#include "massif/abi.h"
#include "massif/format.h"

#include <string.h>

namespace massif {
namespace {

/// Massif 3.19's built-in alloc-fns on amd64 Linux, in its order.
const char *const DefaultAllocFns[] = {
    "malloc",
    "__builtin_new",
    "operator new(unsigned)",
    "operator new(unsigned long)",
    "__builtin_vec_new",
    "operator new[](unsigned)",
    "operator new[](unsigned long)",
    "calloc",
    "realloc",
    "memalign",
    "posix_memalign",
    "valloc",
    "operator new(unsigned, std::nothrow_t const&)",
    "operator new[](unsigned, std::nothrow_t const&)",
    "operator new(unsigned long, std::nothrow_t const&)",
    "operator new[](unsigned long, std::nothrow_t const&)",
};

/// Name starts with Prefix (which ends in '.') and continues.
bool hasDottedPrefix(const char *Name, const char *Prefix) {
  return strncmp(Name, Prefix, strlen(Prefix)) == 0;
}

bool inList(const StringList *L, const char *Name) {
  if (!L)
    return false;
  for (uint32_t I = 0; I < L->Count; ++I)
    if (strcmp(L->Items[I], Name) == 0)
      return true;
  return false;
}

enum class NameKind : uint8_t { Normal, Main, BelowMain };

NameKind kindOf(const char *Raw) {
  if (!Raw)
    return NameKind::Normal;
  if (strcmp(Raw, "main") == 0)
    return NameKind::Main;
  return isBelowMainName(Raw) ? NameKind::BelowMain : NameKind::Normal;
}

/// Enough room for any inline chain a symbolizer reports.
constexpr uint32_t MaxInlineFrames = 64;

} // namespace

void traceAllocFns(const Options &O, const SnapshotTrace &T) {
  char Line[512];
  auto emit = [&](const char *Lead, const char *Name) {
    size_t N = 0;
    for (const char *P = Lead; *P && N + 1 < sizeof(Line); ++P)
      Line[N++] = *P;
    for (const char *P = Name; *P && N + 1 < sizeof(Line); ++P)
      Line[N++] = *P;
    Line[N] = 0;
    T.Line(T.Ctx, Line);
  };
  T.Line(T.Ctx, "alloc-fns:");
  for (const char *D : DefaultAllocFns)
    emit("  ", D);
  for (uint32_t I = 0; I < O.AllocFns.Count; ++I)
    emit("  ", O.AllocFns.Items[I]);
  T.Line(T.Ctx, "ignore-fns:");
  if (O.IgnoreFns.Count == 0)
    T.Line(T.Ctx, "  <empty>");
  for (uint32_t I = 0; I < O.IgnoreFns.Count; ++I) {
    // "  <index>: <name>"
    char Lead[24];
    char Digits[12];
    uint32_t K = 0, V = I;
    do {
      Digits[K++] = char('0' + V % 10);
      V /= 10;
    } while (V);
    uint32_t N = 0;
    Lead[N++] = ' ';
    Lead[N++] = ' ';
    while (K)
      Lead[N++] = Digits[--K];
    Lead[N++] = ':';
    Lead[N++] = ' ';
    Lead[N] = 0;
    emit(Lead, O.IgnoreFns.Items[I]);
  }
}

bool isBelowMainName(const char *Raw) {
  if (!Raw)
    return false;
  // A symbolizer may rename itself, as Valgrind's does.
  if (strcmp(Raw, format::BelowMain) == 0)
    return true;
  // Valgrind's VG_(get_fnname_kind) on Linux, name for name: whole names,
  // so "__libc_start_main@@GLIBC_2.34" (the name glibc 2.34+ has in its
  // symbol table, which Valgrind prefers to its aliases) is a normal
  // function, and so is "_start@..."; only the two prefixes that end in
  // '.' (gcc's clones) take any continuation.
  return strcmp(Raw, "__libc_start_main") == 0 ||
         strcmp(Raw, "__libc_start_call_main") == 0 ||
         hasDottedPrefix(Raw, "__libc_start_main.") ||
         strcmp(Raw, "generic_start_main") == 0 ||
         hasDottedPrefix(Raw, "generic_start_main.") ||
         strcmp(Raw, "_start") == 0;
}

const char *displayName(const char *Raw) {
  return isBelowMainName(Raw) ? format::BelowMain : Raw;
}

void StackFilter::init(const Options &O, const Symbolizer &S) {
  Sym = S;
  AllocFns = &O.AllocFns;
  IgnoreFns = &O.IgnoreFns;
  Depth = uint32_t(O.Depth);
  Eager = O.AllocFns.Count > 0 || O.IgnoreFns.Count > 0;
  CutBelowMain = !O.ShowBelowMain;
}

const char *StackFilter::rawFunctionAt(uint64_t Pc) const {
  if (Sym.FunctionName)
    return Sym.FunctionName(Sym.Ctx, Pc);
  if (!Sym.Describe)
    return nullptr;
  FrameInfo Frames[MaxInlineFrames];
  uint32_t N = Sym.Describe(Sym.Ctx, Pc, Frames, MaxInlineFrames);
  return N ? Frames[N - 1].Function : nullptr;
}

const char *StackFilter::functionAt(uint64_t Pc) const {
  // Valgrind renames the below-main functions only when it cuts there.
  return CutBelowMain ? displayName(rawFunctionAt(Pc)) : rawFunctionAt(Pc);
}

bool StackFilter::isAllocFn(const char *Name) const {
  // The native runtime's entry points (massif/abi.h) allocate for their
  // caller, whichever engine sees them.
  if (strncmp(Name, MASSIF_ABI_PREFIX, sizeof(MASSIF_ABI_PREFIX) - 1) == 0)
    return true;
  for (const char *D : DefaultAllocFns)
    if (strcmp(D, Name) == 0)
      return true;
  return inList(AllocFns, Name);
}

bool StackFilter::isIgnoreFn(const char *Name) const {
  return inList(IgnoreFns, Name);
}

uint32_t StackFilter::replacedTop(const uint64_t *Pcs,
                                  uint32_t NumPcs) const {
  uint32_t Top = 0;
  // Keep one frame at least (a stack of only those is Valgrind's too).
  while (Top + 1 < NumPcs) {
    const char *Name = rawFunctionAt(Pcs[Top]);
    if (!Name || (strncmp(Name, "operator new", 12) != 0 &&
                  strncmp(Name, "operator delete", 15) != 0))
      break;
    ++Top;
  }
  return Top;
}

uint32_t StackFilter::mainOrBelowMain(const uint64_t *Pcs,
                                      uint32_t NumPcs) const {
  uint32_t Mbm = NumPcs - 1;
  NameKind MbmKind = NameKind::Normal;
  for (uint32_t I = NumPcs; I-- > 0 && MbmKind != NameKind::Main;) {
    NameKind K = kindOf(rawFunctionAt(Pcs[I]));
    if (K != NameKind::Normal) {
      Mbm = I;
      MbmKind = K;
    }
  }
  return Mbm;
}

uint32_t StackFilter::classify(const uint64_t *Pcs, uint32_t NumPcs) const {
  uint32_t Top = 0, NumSel = NumPcs;

  // 1. The contiguous run of alloc-fns at the top.
  const char *TopName = nullptr;
  for (uint32_t I = 0; I < NumPcs; ++I) {
    const char *Name = functionAt(Pcs[I]);
    if (Name && isAllocFn(Name)) {
      ++Top;
      --NumSel;
      continue;
    }
    TopName = Name;
    break;
  }

  // 2. --ignore-fn tests the first named frame from Top only.
  if (NumSel > 0 && IgnoreFns && IgnoreFns->Count > 0) {
    for (uint32_t I = Top; !TopName && I < NumPcs; ++I)
      TopName = functionAt(Pcs[I]);
    if (TopName && isIgnoreFn(TopName))
      return entry_class::Ignored;
  }

  // 3. The cut below main, unless --show-below-main=yes.
  if (NumSel > 0 && CutBelowMain) {
    uint32_t Mbm = mainOrBelowMain(Pcs, NumPcs);
    if (Mbm < Top)
      NumSel = 1; // main itself was an alloc-fn: keep one frame
    else
      NumSel -= NumPcs - Mbm - 1;
  }

  // 4. --depth.
  if (NumSel > Depth)
    NumSel = Depth;
  return NumSel ? entry_class::make(Top, NumSel) : entry_class::Ignored;
}

} // namespace massif
