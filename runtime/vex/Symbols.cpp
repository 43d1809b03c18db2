//===- Symbols.cpp - Code addresses to names, through Valgrind ------------===//
//
// Part of massif-native's Valgrind tool, under the GNU GPL, version 2 or
// later (see LICENSE in this folder).
//
// Massif prints each frame with Valgrind's describe_IP, one line per
// inlined call. The model composes those lines itself from FrameInfo, so
// this symbolizer asks describe_IP for the same frames in its XML form,
// whose fields (fn, file, line, obj) are separate, and keeps each string
// once. The names are Valgrind's own: demangled, and "(below main)" where
// Valgrind renames (the model recognises that name).
//
//===----------------------------------------------------------------------===//

#include "Tool.h"

using namespace massif;
using namespace massif::vex;

namespace {

/// Strings kept for the life of the tool, each once.
class StringTable {
public:
  const char *keep(const char *S, SizeT Len) {
    if (Used * 2 >= Cap)
      grow();
    UInt H = hash(S, Len);
    for (UInt I = H & (Cap - 1);; I = (I + 1) & (Cap - 1)) {
      const char *E = Slots[I];
      if (!E) {
        char *C = (char *)VG_(malloc)("msvex.symbols", Len + 1);
        VG_(memcpy)(C, S, Len);
        C[Len] = 0;
        Slots[I] = C;
        ++Used;
        return C;
      }
      if (VG_(strncmp)(E, S, Len) == 0 && E[Len] == 0)
        return E;
    }
  }

private:
  static UInt hash(const char *S, SizeT Len) {
    UInt H = 2166136261u;
    for (SizeT I = 0; I < Len; ++I)
      H = (H ^ (unsigned char)S[I]) * 16777619u;
    return H;
  }
  void grow() {
    UInt NewCap = Cap ? Cap * 2 : 1024;
    const char **New =
        (const char **)VG_(calloc)("msvex.symbols", NewCap, sizeof(char *));
    for (UInt I = 0; I < Cap; ++I) {
      const char *E = Slots[I];
      if (!E)
        continue;
      UInt J = hash(E, VG_(strlen)(E)) & (NewCap - 1);
      while (New[J])
        J = (J + 1) & (NewCap - 1);
      New[J] = E;
    }
    if (Slots)
      VG_(free)(Slots);
    Slots = New;
    Cap = NewCap;
  }

  const char **Slots;
  UInt Cap, Used;
};

StringTable Strings; // zero-initialised: no constructor runs

/// The text of <Tag>...</Tag> in Xml, unescaped and kept; null if absent.
const char *field(const HChar *Xml, const char *Tag) {
  HChar Open[16], Close[16];
  VG_(snprintf)(Open, sizeof(Open), "<%s>", Tag);
  VG_(snprintf)(Close, sizeof(Close), "</%s>", Tag);
  const HChar *Start = VG_(strstr)(Xml, Open);
  if (!Start)
    return nullptr;
  Start += VG_(strlen)(Open);
  const HChar *End = VG_(strstr)(Start, Close);
  if (!End)
    return nullptr;
  static HChar Buf[4096];
  SizeT N = 0;
  for (const HChar *C = Start; C < End && N + 1 < sizeof(Buf); ++N) {
    if (VG_(strncmp)(C, "&amp;", 5) == 0) {
      Buf[N] = '&';
      C += 5;
    } else if (VG_(strncmp)(C, "&lt;", 4) == 0) {
      Buf[N] = '<';
      C += 4;
    } else if (VG_(strncmp)(C, "&gt;", 4) == 0) {
      Buf[N] = '>';
      C += 4;
    } else {
      Buf[N] = *C++;
    }
  }
  return Strings.keep(Buf, N);
}

uint32_t describe(void *, uint64_t Pc, FrameInfo *Out, uint32_t Max) {
  if (!Max)
    return 0;
  DiEpoch Ep = VG_(current_DiEpoch)();
  InlIPCursor *Cursor = VG_(new_IIPC)(Ep, Pc);
  uint32_t N = 0;
  do {
    Bool Xml = VG_(clo_xml);
    VG_(clo_xml) = True;
    const HChar *Text = VG_(describe_IP)(Ep, Pc, Cursor);
    VG_(clo_xml) = Xml;
    FrameInfo &F = Out[N++];
    F.Function = field(Text, "fn");
    F.File = field(Text, "file");
    const char *Line = field(Text, "line");
    F.Line = F.File && Line ? (uint32_t)VG_(strtoll10)(Line, nullptr) : 0;
    F.Object = field(Text, "obj");
    F.Dir = F.File ? field(Text, "dir") : nullptr;
  } while (VG_(next_IIPC)(Cursor) && N < Max);
  VG_(delete_IIPC)(Cursor);
  return N;
}

/// The function around Pc, for the frames the model classifies but does
/// not print: Valgrind's name lookup, without describe_IP's formatting.
const char *functionName(void *, uint64_t Pc) {
  const HChar *Name;
  if (!VG_(get_fnname)(VG_(current_DiEpoch)(), Pc, &Name))
    return nullptr;
  return Strings.keep(Name, VG_(strlen)(Name));
}

} // namespace

Symbolizer vex::symbolizer() {
  Symbolizer S;
  S.Describe = describe;
  S.FunctionName = functionName;
  S.Ctx = nullptr;
  return S;
}
