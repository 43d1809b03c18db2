//===- DebugImage.cpp - Compressed DWARF, inflated unit by unit -----------===//
//
// Part of massif-native, under the MIT licence.
//
// The image is one anonymous mapping, reserved at the full inflated size:
//
//   ELF header | section headers | .shstrtab | a region per section
//
// Each section's region starts on a page. .debug_info's header gives the
// size of the units loaded so far; the others give their full size, of
// which only the filled ranges (kept per section) were ever written.
//
//===----------------------------------------------------------------------===//

#include "DebugImage.h"

#include "Arena.h"
#include "DwarfScan.h"
#include "SectionReader.h"
#include "Sort.h"

#include <elf.h>
#include <fcntl.h>
#include <libelf.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace massif;
using namespace massif::symbolizer;

namespace {

enum SecId { Info, Abbrev, Line, Str, LineStr, Ranges, Rnglists, Aranges, NumSecs };
const char *const SecNames[NumSecs] = {
    ".debug_info", ".debug_abbrev",   ".debug_line",     ".debug_str",
    ".debug_line_str", ".debug_ranges", ".debug_rnglists", ".debug_aranges"};

constexpr uint64_t PageB = 4096;
constexpr uint64_t roundUp(uint64_t V, uint64_t To) {
  return (V + To - 1) / To * To;
}

/// Sorts offsets and drops repeats.
void sortUnique(ArenaVector<uint64_t> &V) {
  heapSort(V.Items, V.Count, [](uint64_t L, uint64_t R) { return L < R; });
  size_t N = 0;
  for (size_t I = 0; I < V.Count; ++I)
    if (N == 0 || V.Items[N - 1] != V.Items[I])
      V.Items[N++] = V.Items[I];
  V.Count = N;
}

struct Interval {
  uint64_t Lo, Hi;
};

struct Section {
  bool Present;
  SectionReader Reader;
  uint64_t ImageOff; ///< where its region starts in the image
  ArenaVector<Interval> Filled; ///< sorted, disjoint, not touching

  /// The first filled interval that ends at or after Lo.
  size_t firstEndingFrom(uint64_t Lo) const {
    return Filled.partition([&](const Interval &I) { return I.Hi < Lo; });
  }
  /// Records [Lo, Hi) as filled, merging what it touches.
  bool add(uint64_t Lo, uint64_t Hi) {
    size_t I = firstEndingFrom(Lo), J = I;
    while (J < Filled.Count && Filled.Items[J].Lo <= Hi) {
      Lo = Filled.Items[J].Lo < Lo ? Filled.Items[J].Lo : Lo;
      Hi = Filled.Items[J].Hi > Hi ? Filled.Items[J].Hi : Hi;
      ++J;
    }
    if (I == J) { // nothing merged: make room at I
      if (!Filled.push(Interval{0, 0}))
        return false;
      memmove(&Filled.Items[I + 1], &Filled.Items[I],
              (Filled.Count - 1 - I) * sizeof(Interval));
    } else if (J > I + 1) { // several merged into one
      memmove(&Filled.Items[I + 1], &Filled.Items[J],
              (Filled.Count - J) * sizeof(Interval));
      Filled.Count -= J - I - 1;
    }
    Filled.Items[I] = Interval{Lo, Hi};
    return true;
  }
};

/// A loaded unit: its offset in the file's .debug_info and in the image's.
struct Unit {
  uint64_t Orig, New, HeaderB;
};

/// Offsets a unit refers to, gathered by the scan, per section.
struct Refs {
  ArenaVector<uint64_t> Of[4]; // by RefKind
  void release() {
    for (auto &V : Of)
      V.release();
  }
};

bool addRef(void *Ctx, RefKind Kind, uint64_t Off) {
  return ((Refs *)Ctx)->Of[int(Kind)].push(Off);
}

} // namespace

struct massif::symbolizer::DebugImage {
  int Fd = -1;
  uint8_t *Image = nullptr;
  size_t ImageB = 0;
  uint64_t InfoShdrOff = 0; ///< .debug_info's section header in the image
  uint64_t InfoUsed = 0;
  uint64_t LoadVaddr = 0;
  Section Secs[NumSecs] = {};
  ReadBuffers Bufs = {}; ///< shared by the sections' readers
  const void *InOwner = nullptr; ///< the reader whose input Bufs.In holds
  ArenaVector<Unit> Units; ///< sorted by Orig
  bool ArangesRead = false, Failed = false;
  /// While a batch of units loads, the strings they refer to, filled once
  /// at the end in one pass (units share strings, in no order).
  Refs *DeferredStrings = nullptr;
  Elf *E = nullptr;
  Dwarf *Dw = nullptr;

  uint8_t *region(SecId S) { return Image + Secs[S].ImageOff; }
  bool fillRange(SecId S, uint64_t Lo, uint64_t Len);
  template <typename SizeFn> int64_t fillSized(SecId S, uint64_t Off, SizeFn SizeOf);
  bool loadUnit(uint64_t Orig, Unit &Out);
  bool loadRefs(const UnitHeader &H, Refs &R);
  bool loadStrings(Refs &R);
  bool reopen();
};

bool DebugImage::fillRange(SecId S, uint64_t Lo, uint64_t Len) {
  Section &Sec = Secs[S];
  uint64_t Hi = Lo + Len;
  // Only from the first byte not yet filled: reading again what the stream
  // has passed would start it over.
  size_t I = Sec.firstEndingFrom(Lo);
  if (I < Sec.Filled.Count && Sec.Filled.Items[I].Lo <= Lo)
    Lo = Sec.Filled.Items[I].Hi;
  if (Lo >= Hi)
    return true;
  return Sec.Reader.read(Lo, region(S) + Lo, Hi - Lo) && Sec.add(Lo, Hi);
}

/// Fills the object at Off whose size SizeOf(bytes, available) tells once
/// it has enough of them; returns that size, or a negative DwarfScan code.
template <typename SizeFn>
int64_t DebugImage::fillSized(SecId S, uint64_t Off, SizeFn SizeOf) {
  Section &Sec = Secs[S];
  if (!Sec.Present || Off >= Sec.Reader.sizeB())
    return Unsupported;
  uint64_t Max = Sec.Reader.sizeB() - Off, Have = 0, Want = 64;
  for (;;) {
    Want = Want < Max ? Want : Max;
    if (!fillRange(S, Off + Have, Want - Have))
      return Unsupported;
    Have = Want;
    int64_t Size = SizeOf(region(S) + Off, size_t(Have));
    if (Size == NeedMore && Have < Max) {
      Want = Have * 4;
      continue;
    }
    if (Size < 0 || uint64_t(Size) > Max)
      return Unsupported;
    if (uint64_t(Size) > Have && !fillRange(S, Off + Have, uint64_t(Size) - Have))
      return Unsupported;
    return Size;
  }
}

/// Fills what a unit's DIEs and line program refer to.
bool DebugImage::loadRefs(const UnitHeader &H, Refs &R) {
  RefSink Sink{addRef, &R};
  ArenaVector<uint64_t> &Lines = R.Of[int(RefKind::Line)];
  sortUnique(Lines);
  for (size_t I = 0; I < Lines.Count; ++I) {
    uint64_t Off = Lines.Items[I];
    int64_t Size = fillSized(Line, Off, lengthPrefixedSize);
    if (Size < 0 || scanLineHeader(region(Line) + Off, size_t(Size), Sink) < 0)
      return false;
  }
  ArenaVector<uint64_t> &Lists = R.Of[int(RefKind::Ranges)];
  sortUnique(Lists);
  SecId ListSec = H.Version >= 5 ? Rnglists : Ranges;
  for (size_t I = 0; I < Lists.Count; ++I)
    if (fillSized(ListSec, Lists.Items[I], [&](const uint8_t *P, size_t B) {
          return rangeListSize(P, B, H.Version, H.AddrB);
        }) < 0)
      return false;
  if (!DeferredStrings)
    return loadStrings(R);
  const RefKind StrKinds[2] = {RefKind::Str, RefKind::LineStr};
  for (RefKind K : StrKinds)
    for (size_t I = 0; I < R.Of[int(K)].Count; ++I)
      if (!DeferredStrings->Of[int(K)].push(R.Of[int(K)].Items[I]))
        return false;
  return true;
}

/// Fills the strings R refers to.
bool DebugImage::loadStrings(Refs &R) {
  const SecId StrSecs[2] = {Str, LineStr};
  const RefKind StrKinds[2] = {RefKind::Str, RefKind::LineStr};
  for (int K = 0; K < 2; ++K) {
    ArenaVector<uint64_t> &Strs = R.Of[int(StrKinds[K])];
    sortUnique(Strs);
    for (size_t I = 0; I < Strs.Count; ++I)
      if (fillSized(StrSecs[K], Strs.Items[I], stringSize) < 0)
        return false;
  }
  return true;
}

/// Appends the unit at Orig in the file's .debug_info to the image's, with
/// everything it refers to.
bool DebugImage::loadUnit(uint64_t Orig, Unit &Out) {
  Section &InfoSec = Secs[Info];
  uint64_t Avail = InfoSec.Reader.sizeB() - Orig;
  uint8_t *Dst = region(Info) + InfoUsed;
  // Every header fits in 12 bytes (32-bit DWARF), and every unit holds
  // more than its header.
  UnitHeader H;
  const uint64_t HeadB = 12;
  if (Avail < HeadB || !InfoSec.Reader.read(Orig, Dst, HeadB) ||
      readUnitHeader(Dst, HeadB, H) < 0 || H.SizeB > Avail ||
      H.SizeB < HeadB ||
      !InfoSec.Reader.read(Orig + HeadB, Dst + HeadB, H.SizeB - HeadB))
    return false;
  int64_t AbbrevB = fillSized(Abbrev, H.AbbrevOff, abbrevTableSize);
  if (AbbrevB < 0)
    return false;
  Refs R;
  bool Ok = scanUnit(Dst, H, region(Abbrev) + H.AbbrevOff, size_t(AbbrevB),
                     RefSink{addRef, &R}) == 0 &&
            loadRefs(H, R);
  R.release();
  if (!Ok)
    return false;
  Out = Unit{Orig, InfoUsed, H.HeaderB};
  InfoUsed += H.SizeB;
  return true;
}

bool DebugImage::reopen() {
  if (Dw)
    dwarf_end(Dw);
  if (E)
    elf_end(E);
  Dw = nullptr;
  auto *Shdr = (Elf64_Shdr *)(Image + InfoShdrOff);
  Shdr->sh_size = InfoUsed;
  E = elf_memory((char *)Image, ImageB);
  Dw = E ? dwarf_begin_elf(E, DWARF_C_READ, nullptr) : nullptr;
  return Dw != nullptr;
}

//===-- Opening ------------------------------------------------------------===//

namespace {

bool preadAll(int Fd, void *Dst, size_t Len, uint64_t Off) {
  return pread(Fd, Dst, Len, (off_t)Off) == (ssize_t)Len;
}

/// The debug sections of a file, as its section headers give them.
struct FileSections {
  Elf64_Ehdr Ehdr;
  Elf64_Shdr Of[NumSecs];
  bool Present[NumSecs];
  uint64_t SizeB[NumSecs]; ///< inflated
  bool AnyCompressed;
  uint64_t LoadVaddr;
};

bool readFileSections(int Fd, FileSections &F) {
  memset(&F, 0, sizeof(F));
  Elf64_Ehdr &Eh = F.Ehdr;
  if (!preadAll(Fd, &Eh, sizeof(Eh), 0) || memcmp(Eh.e_ident, ELFMAG, SELFMAG) ||
      Eh.e_ident[EI_CLASS] != ELFCLASS64 || Eh.e_ident[EI_DATA] != ELFDATA2LSB ||
      Eh.e_shentsize != sizeof(Elf64_Shdr) || Eh.e_shnum == 0 ||
      Eh.e_shstrndx == SHN_UNDEF || Eh.e_shstrndx >= Eh.e_shnum)
    return false;
  size_t ShdrsB = Eh.e_shnum * sizeof(Elf64_Shdr);
  auto *Shdrs = (Elf64_Shdr *)arenaAllocate(ShdrsB);
  if (!Shdrs)
    return false;
  char *Names = nullptr;
  uint64_t NamesB = 0;
  bool Ok = preadAll(Fd, Shdrs, ShdrsB, Eh.e_shoff);
  if (Ok) {
    NamesB = Shdrs[Eh.e_shstrndx].sh_size;
    Names = NamesB < (1u << 24) ? (char *)arenaAllocate(NamesB + 1) : nullptr;
    Ok = Names && preadAll(Fd, Names, NamesB, Shdrs[Eh.e_shstrndx].sh_offset);
  }
  for (uint32_t I = 0; Ok && I < Eh.e_shnum; ++I) {
    const Elf64_Shdr &Sh = Shdrs[I];
    if (Sh.sh_name >= NamesB)
      continue;
    const char *Name = Names + Sh.sh_name;
    if (!strncmp(Name, ".zdebug", 7) || !strcmp(Name, ".gnu_debugaltlink"))
      Ok = false; // the old compression, or a dwz supplementary file
    for (int S = 0; Ok && S < NumSecs; ++S) {
      if (strcmp(Name, SecNames[S]) || Sh.sh_type != SHT_PROGBITS)
        continue;
      F.Of[S] = Sh;
      F.Present[S] = true;
      F.SizeB[S] = Sh.sh_size;
      if (Sh.sh_flags & SHF_COMPRESSED) {
        Elf64_Chdr Ch;
        Ok = preadAll(Fd, &Ch, sizeof(Ch), Sh.sh_offset) &&
             Ch.ch_type == ELFCOMPRESS_ZLIB;
        F.SizeB[S] = Ch.ch_size;
        F.AnyCompressed = true;
      }
    }
  }
  // The first PT_LOAD's address.
  for (uint32_t I = 0; Ok && I < Eh.e_phnum; ++I) {
    Elf64_Phdr Ph;
    if (Eh.e_phentsize != sizeof(Ph) ||
        !preadAll(Fd, &Ph, sizeof(Ph), Eh.e_phoff + I * sizeof(Ph)))
      break;
    if (Ph.p_type == PT_LOAD) {
      F.LoadVaddr = Ph.p_vaddr;
      break;
    }
  }
  arenaDeallocate(Names, Names ? NamesB + 1 : 0);
  arenaDeallocate(Shdrs, ShdrsB);
  return Ok;
}

} // namespace

DebugImage *symbolizer::openDebugImage(const char *Path) {
  int Fd = open(Path, O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return nullptr;
  FileSections F;
  if (!readFileSections(Fd, F) || !F.AnyCompressed || !F.Present[Info] ||
      !F.Present[Abbrev] || !F.Present[Aranges]) {
    close(Fd);
    return nullptr;
  }

  // The section name table: "", ".shstrtab", then each present section's.
  char Names[256];
  uint32_t NameOff[NumSecs] = {};
  uint32_t NamesB = 1;
  Names[0] = 0;
  auto addName = [&](const char *N) {
    uint32_t At = NamesB;
    size_t L = strlen(N) + 1;
    memcpy(Names + NamesB, N, L);
    NamesB += uint32_t(L);
    return At;
  };
  uint32_t ShstrtabName = addName(".shstrtab");
  uint32_t NumShdrs = 2;
  for (int S = 0; S < NumSecs; ++S)
    if (F.Present[S]) {
      NameOff[S] = addName(SecNames[S]);
      ++NumShdrs;
    }

  // Layout.
  uint64_t ShdrsOff = sizeof(Elf64_Ehdr);
  uint64_t NamesOff = ShdrsOff + NumShdrs * sizeof(Elf64_Shdr);
  uint64_t At = roundUp(NamesOff + NamesB, PageB);
  uint64_t RegionOff[NumSecs] = {};
  for (int S = 0; S < NumSecs; ++S)
    if (F.Present[S]) {
      RegionOff[S] = At;
      At += roundUp(F.SizeB[S], PageB);
    }
  void *Map = mmap(nullptr, At, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  auto *Img = (DebugImage *)arenaAllocate(sizeof(DebugImage));
  if (Map == MAP_FAILED || !Img) {
    if (Map != MAP_FAILED)
      munmap(Map, At);
    arenaDeallocate(Img, Img ? sizeof(DebugImage) : 0);
    close(Fd);
    return nullptr;
  }
  *Img = DebugImage();
  Img->Fd = Fd;
  Img->Image = (uint8_t *)Map;
  Img->ImageB = At;
  Img->LoadVaddr = F.LoadVaddr;
  Img->Bufs.In = (uint8_t *)arenaAllocate(ReadBuffers::SizeB);
  Img->Bufs.Skip = (uint8_t *)arenaAllocate(ReadBuffers::SizeB);
  Img->Bufs.InOwner = &Img->InOwner;

  // The ELF header and section headers: the original's identity, only the
  // debug sections, none compressed.
  auto *Eh = (Elf64_Ehdr *)Img->Image;
  *Eh = F.Ehdr;
  Eh->e_phoff = 0;
  Eh->e_phnum = 0;
  Eh->e_shoff = ShdrsOff;
  Eh->e_shnum = uint16_t(NumShdrs);
  Eh->e_shstrndx = 1;
  auto *Sh = (Elf64_Shdr *)(Img->Image + ShdrsOff);
  Sh[1].sh_name = ShstrtabName;
  Sh[1].sh_type = SHT_STRTAB;
  Sh[1].sh_offset = NamesOff;
  Sh[1].sh_size = NamesB;
  Sh[1].sh_addralign = 1;
  memcpy(Img->Image + NamesOff, Names, NamesB);
  bool Ok = true;
  uint32_t Next = 2;
  for (int S = 0; S < NumSecs; ++S) {
    if (!F.Present[S])
      continue;
    Elf64_Shdr &Out = Sh[Next];
    Out.sh_name = NameOff[S];
    Out.sh_type = SHT_PROGBITS;
    Out.sh_offset = RegionOff[S];
    Out.sh_size = S == Info ? 0 : F.SizeB[S];
    Out.sh_addralign = 1;
    if (S == Info)
      Img->InfoShdrOff = ShdrsOff + Next * sizeof(Elf64_Shdr);
    ++Next;
    Section &Sec = Img->Secs[S];
    Sec.Present = true;
    Sec.ImageOff = RegionOff[S];
    Ok = Ok && Sec.Reader.init(Fd, F.Of[S].sh_offset, F.Of[S].sh_size,
                               F.Of[S].sh_flags & SHF_COMPRESSED,
                               Img->Bufs) &&
         Sec.Reader.sizeB() == F.SizeB[S];
  }
  elf_version(EV_CURRENT);
  if (!Ok) {
    closeDebugImage(Img);
    return nullptr;
  }
  return Img;
}

void symbolizer::closeDebugImage(DebugImage *Img) {
  if (!Img)
    return;
  if (Img->Dw)
    dwarf_end(Img->Dw);
  if (Img->E)
    elf_end(Img->E);
  for (Section &Sec : Img->Secs) {
    Sec.Reader.close();
    Sec.Filled.release();
  }
  Img->Units.release();
  arenaDeallocate(Img->Bufs.In, ReadBuffers::SizeB);
  arenaDeallocate(Img->Bufs.Skip, ReadBuffers::SizeB);
  munmap(Img->Image, Img->ImageB);
  close(Img->Fd);
  arenaDeallocate(Img, sizeof(DebugImage));
}

uint64_t symbolizer::imageLoadVaddr(const DebugImage *Img) { return Img->LoadVaddr; }

Dwarf *symbolizer::imageDwarf(const DebugImage *Img) { return Img->Dw; }

uint64_t symbolizer::imageInflatedBytes(const DebugImage *Img) {
  uint64_t B = 0;
  for (const Section &Sec : Img->Secs)
    B += Sec.Reader.inflatedB();
  return B;
}

uint64_t symbolizer::imageFilledBytes(const DebugImage *Img) {
  uint64_t B = Img->InfoUsed;
  for (const Section &Sec : Img->Secs)
    for (size_t I = 0; I < Sec.Filled.Count; ++I)
      B += Sec.Filled.Items[I].Hi - Sec.Filled.Items[I].Lo;
  return B;
}

namespace {

/// Reads .debug_aranges, once; false when it cannot be read (the image is
/// then failed).
bool readAranges(DebugImage &Img) {
  if (!Img.ArangesRead) {
    Img.ArangesRead = true;
    Section &Ar = Img.Secs[Aranges];
    if (!Img.fillRange(Aranges, 0, Ar.Reader.sizeB()))
      Img.Failed = true;
  }
  return !Img.Failed;
}

/// The unit at Orig in the file's .debug_info, loaded if it was not yet
/// (the loaded units stay sorted by Orig); its index in Img.Units. When
/// Reopen, libdw sees it at once. False when it cannot be loaded (the
/// image is then failed).
bool ensureUnit(DebugImage &Img, uint64_t Orig, bool Reopen, size_t &L) {
  ArenaVector<Unit> &Us = Img.Units;
  L = Us.partition([&](const Unit &U) { return U.Orig < Orig; });
  if (L < Us.Count && Us.Items[L].Orig == Orig)
    return true;
  Unit U;
  if (Orig >= Img.Secs[Info].Reader.sizeB() || !Img.loadUnit(Orig, U) ||
      !Us.push(U) || (Reopen && !Img.reopen())) {
    Img.Failed = true;
    return false;
  }
  memmove(&Us.Items[L + 1], &Us.Items[L], (Us.Count - 1 - L) * sizeof(Unit));
  Us.Items[L] = U;
  return true;
}

} // namespace

UnitLookup symbolizer::unitFor(DebugImage *Img, uint64_t Addr, Dwarf_Off &CuDie) {
  if (Img->Failed || !readAranges(*Img))
    return UnitLookup::Failed;
  uint64_t Orig;
  if (!unitCovering(Img->region(Aranges), Img->Secs[Aranges].Reader.sizeB(),
                    Addr, Orig))
    return UnitLookup::None;
  size_t L;
  if (!ensureUnit(*Img, Orig, /*Reopen=*/true, L))
    return UnitLookup::Failed;
  CuDie = Img->Units.Items[L].New + Img->Units.Items[L].HeaderB;
  return UnitLookup::Found;
}

bool symbolizer::loadUnitsFor(DebugImage *Img, ArenaVector<uint64_t> &Addrs) {
  if (Img->Failed || !readAranges(*Img))
    return false;
  // Each address becomes the offset of its unit; sorted, they are loaded
  // in one pass over every section.
  size_t N = 0;
  for (size_t I = 0; I < Addrs.Count; ++I) {
    uint64_t Orig;
    if (unitCovering(Img->region(Aranges), Img->Secs[Aranges].Reader.sizeB(),
                     Addrs.Items[I], Orig))
      Addrs.Items[N++] = Orig;
  }
  Addrs.Count = N;
  sortUnique(Addrs);
  size_t Before = Img->Units.Count, L;
  Refs Strings;
  Img->DeferredStrings = &Strings;
  bool Ok = true;
  for (size_t I = 0; Ok && I < Addrs.Count; ++I)
    Ok = ensureUnit(*Img, Addrs.Items[I], /*Reopen=*/false, L);
  Img->DeferredStrings = nullptr;
  Ok = Ok && Img->loadStrings(Strings);
  Strings.release();
  if (!Ok || (Img->Units.Count != Before && !Img->reopen()))
    Img->Failed = true;
  return !Img->Failed;
}
