//===- LineIndex.cpp - A compile unit's line program, sparsely indexed ----===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "LineIndex.h"

#include "ByteReader.h"
#include "Sort.h"

#include <dwarf.h>
#include <gelf.h>
#include <new>
#include <string.h>

using namespace massif;
using namespace massif::symbolizer;

namespace {

/// A 32-bit length field of this value or above starts 64-bit DWARF (or is
/// reserved).
constexpr uint32_t Dwarf64Escape = 0xfffffff0u;

struct Row {
  uint64_t Addr, File;
  int64_t Line;
  bool EndSequence;
};

/// The registers of a line program that a row reports, and a cursor into
/// its opcodes (the other registers change no answer).
struct Machine {
  const LineProgramHeader *H;
  const uint8_t *P, *End;
  uint64_t Addr, File;
  int64_t Line;
  bool Refused;

  void reset() {
    Addr = 0;
    File = 1;
    Line = 1;
  }

  /// Runs to the next row. False at the end of the program, or with
  /// Refused set at an opcode the index does not follow.
  bool next(Row &R) {
    while (P < End) {
      uint8_t Op = *P++;
      if (Op >= H->OpcodeBase) { // special: advance and emit
        uint8_t Adj = Op - H->OpcodeBase;
        Addr += uint64_t(H->MinInstB) * (Adj / H->LineRange);
        Line += H->LineBase + Adj % H->LineRange;
        R = Row{Addr, File, Line, false};
        return true;
      }
      ByteReader B{P, End};
      if (Op == 0) {
        uint64_t Len = B.uleb();
        if (!B.ok() || Len == 0 || Len > uint64_t(End - B.P))
          return refuse();
        ByteReader E{B.P + 1, B.P + Len};
        uint8_t Code = *B.P;
        P = B.P + Len;
        if (Code == DW_LNE_end_sequence) {
          R = Row{Addr, File, Line, true};
          reset();
          return true;
        }
        if (Code == DW_LNE_set_address) {
          if (Len - 1 != sizeof(uint64_t))
            return refuse();
          Addr = E.fixed<uint64_t>();
        } else if (Code == DW_LNE_define_file) {
          return refuse();
        } // set_discriminator and vendor opcodes change no answer
        continue;
      }
      switch (Op) {
      case DW_LNS_copy:
        P = B.P;
        R = Row{Addr, File, Line, false};
        return true;
      case DW_LNS_advance_pc:
        Addr += uint64_t(H->MinInstB) * B.uleb();
        break;
      case DW_LNS_advance_line:
        Line += B.sleb();
        break;
      case DW_LNS_set_file:
        File = B.uleb();
        break;
      case DW_LNS_const_add_pc:
        Addr += uint64_t(H->MinInstB) * ((255 - H->OpcodeBase) / H->LineRange);
        break;
      case DW_LNS_fixed_advance_pc:
        Addr += B.fixed<uint16_t>();
        break;
      default: // its operands are ULEB128s, as many as the header says
        for (uint8_t I = 0; I < H->OpcodeLengths[Op - 1]; ++I)
          B.uleb();
      }
      if (!B.ok())
        return refuse();
      P = B.P;
    }
    return false;
  }

  bool refuse() {
    Refused = true;
    P = End;
    return false;
  }
};

/// A string of a DWARF 5 entry: inline, or an offset into a section.
const char *stringAt(const uint8_t *Sec, size_t SecB, uint64_t Off) {
  if (!Sec || Off >= SecB || !memchr(Sec + Off, 0, SecB - Off))
    return nullptr;
  return (const char *)Sec + Off;
}

/// Machine M at the row of checkpoint C (a LineIndex::Checkpoint), before
/// the opcode after it.
template <typename CheckpointT>
void resumeAt(Machine &M, const uint8_t *Program, const CheckpointT &C) {
  M.P = Program + C.Next;
  M.Addr = C.Addr;
  M.File = C.File;
  M.Line = C.Line;
}

} // namespace

bool symbolizer::findLineSections(Elf *E, LineSections &Out) {
  Out = LineSections{};
  size_t NamesI;
  if (!E || elf_getshdrstrndx(E, &NamesI) != 0)
    return false;
  for (Elf_Scn *Scn = elf_nextscn(E, nullptr); Scn;
       Scn = elf_nextscn(E, Scn)) {
    GElf_Shdr Sh;
    if (!gelf_getshdr(Scn, &Sh) || Sh.sh_type == SHT_NOBITS)
      continue;
    const char *Name = elf_strptr(E, NamesI, Sh.sh_name);
    const uint8_t **Data = nullptr;
    size_t *SizeB = nullptr;
    if (!Name)
      continue;
    if (strcmp(Name, ".debug_line") == 0) {
      Data = &Out.Line;
      SizeB = &Out.LineB;
    } else if (strcmp(Name, ".debug_line_str") == 0) {
      Data = &Out.LineStr;
      SizeB = &Out.LineStrB;
    } else if (strcmp(Name, ".debug_str") == 0) {
      Data = &Out.Str;
      SizeB = &Out.StrB;
    } else {
      continue;
    }
    if (Sh.sh_flags & SHF_COMPRESSED)
      continue;
    Elf_Data *D = elf_getdata(Scn, nullptr);
    if (D && D->d_buf) {
      *Data = (const uint8_t *)D->d_buf;
      *SizeB = D->d_size;
    }
  }
  return Out.Line != nullptr;
}

bool LineIndex::build(const LineSections &S, uint64_t Off,
                      const char *CompDir) {
  if (readHeader(S, Off, CompDir) && indexSequences())
    return true;
  release();
  return false;
}

void LineIndex::release() {
  for (size_t I = 0; I < Owned.Count; ++I)
    arenaDeallocate(Owned.Items[I], strlen(Owned.Items[I]) + 1);
  Owned.release();
  Dirs.release();
  Files.release();
  FileDirs.release();
  Seqs.release();
  Points.release();
  *this = LineIndex();
}

bool LineIndex::readHeader(const LineSections &S, uint64_t Off,
                           const char *CompDir) {
  if (Off >= S.LineB)
    return false;
  ByteReader R{S.Line + Off, S.Line + S.LineB};
  uint32_t UnitB = R.fixed<uint32_t>();
  if (!R.ok() || UnitB >= Dwarf64Escape || UnitB > uint64_t(R.End - R.P))
    return false;
  R.End = R.P + UnitB;
  H.Version = R.fixed<uint16_t>();
  if (H.Version < 2 || H.Version > 5)
    return false;
  if (H.Version >= 5 && (R.u8() != sizeof(uint64_t) || R.u8() != 0))
    return false; // address size; segment selector size
  uint32_t HeaderB = R.fixed<uint32_t>();
  if (!R.ok() || HeaderB > uint64_t(R.End - R.P))
    return false;
  Program = R.P + HeaderB;
  ProgramEnd = R.End;
  H.MinInstB = R.u8();
  if (H.Version >= 4 && R.u8() != 1)
    return false; // VLIW: operations per instruction
  R.u8();         // default is_stmt
  H.LineBase = int8_t(R.u8());
  H.LineRange = R.u8();
  H.OpcodeBase = R.u8();
  H.OpcodeLengths = R.P;
  R.skip(H.OpcodeBase ? H.OpcodeBase - 1 : 0);
  if (!R.ok() || H.LineRange == 0 || H.OpcodeBase == 0)
    return false;
  bool Named = H.Version >= 5 ? readNamesV5(R, S) : readNamesV4(R, CompDir);
  // libdw refuses a header whose length does not end at its names.
  return Named && R.P == Program;
}

bool LineIndex::addFile(const char *Name, uint64_t DirIndex) {
  // dwarf_filesrc's name: absolute as it is, else after its directory
  // (when the directory is known).
  if (DirIndex >= Dirs.Count || !FileDirs.push(uint32_t(DirIndex)))
    return false;
  const char *Dir = Dirs.Items[DirIndex];
  if (Name[0] == '/' || !Dir)
    return Files.push(Name);
  size_t DirB = strlen(Dir), NameB = strlen(Name);
  char *Path = (char *)arenaAllocate(DirB + 1 + NameB + 1);
  if (!Path)
    return false;
  memcpy(Path, Dir, DirB);
  Path[DirB] = '/';
  memcpy(Path + DirB + 1, Name, NameB + 1);
  if (!Owned.push(Path)) {
    arenaDeallocate(Path, DirB + NameB + 2);
    return false;
  }
  return Files.push(Path);
}

int64_t LineIndex::fileDirectory(const char *Path) const {
  for (size_t I = 0; I < Files.Count && I < FileDirs.Count; ++I)
    if (strcmp(Files.Items[I], Path) == 0)
      return FileDirs.Items[I];
  return -1;
}

bool LineIndex::readNamesV4(ByteReader &R, const char *CompDir) {
  // Directory 0 is the unit's; file 0 is no file.
  if (!Dirs.push(CompDir) || !Files.push("???") || !FileDirs.push(0))
    return false;
  while (R.P < R.End && *R.P) {
    const char *Dir = (const char *)R.P;
    R.skipString();
    if (!R.ok() || !Dirs.push(Dir))
      return false;
  }
  R.u8();
  while (R.P < R.End && *R.P) {
    const char *Name = (const char *)R.P;
    R.skipString();
    uint64_t Dir = R.uleb();
    R.uleb(); // modification time
    R.uleb(); // size
    if (!R.ok() || !addFile(Name, Dir))
      return false;
  }
  R.u8();
  return R.ok();
}

bool LineIndex::readNamesV5(ByteReader &R, const LineSections &S) {
  for (int List = 0; List < 2; ++List) {
    uint8_t NumFields = R.u8();
    ByteReader Format = R;
    for (uint8_t I = 0; I < NumFields; ++I) {
      R.uleb();
      R.uleb();
    }
    const uint8_t *FormatEnd = R.P;
    uint64_t Count = R.uleb();
    for (uint64_t E = 0; E < Count; ++E) {
      const char *Path = nullptr;
      uint64_t DirIndex = 0;
      ByteReader F{Format.P, FormatEnd};
      for (uint8_t I = 0; I < NumFields; ++I) {
        uint64_t Type = F.uleb(), Form = F.uleb();
        uint64_t Value = 0;
        const char *Str = nullptr;
        switch (Form) {
        case DW_FORM_string:
          Str = (const char *)R.P;
          R.skipString();
          break;
        case DW_FORM_line_strp:
          Str = stringAt(S.LineStr, S.LineStrB, R.fixed<uint32_t>());
          break;
        case DW_FORM_strp:
          Str = stringAt(S.Str, S.StrB, R.fixed<uint32_t>());
          break;
        case DW_FORM_udata:
          Value = R.uleb();
          break;
        case DW_FORM_data1:
          Value = R.u8();
          break;
        case DW_FORM_data2:
          Value = R.fixed<uint16_t>();
          break;
        case DW_FORM_data4:
          Value = R.fixed<uint32_t>();
          break;
        case DW_FORM_data8:
          Value = R.fixed<uint64_t>();
          break;
        case DW_FORM_data16:
          R.skip(16);
          break;
        case DW_FORM_block:
          R.skip(R.uleb());
          break;
        default:
          return false;
        }
        if (!R.ok() || !F.ok())
          return false;
        if (Type == DW_LNCT_path) {
          if (!Str)
            return false;
          Path = Str;
        } else if (Type == DW_LNCT_directory_index) {
          DirIndex = Value;
        }
      }
      if (!Path)
        return false;
      if (List == 0 ? !Dirs.push(Path) : !addFile(Path, DirIndex))
        return false;
    }
  }
  return R.ok();
}

bool LineIndex::indexSequences() {
  Machine M{&H, Program, ProgramEnd, 0, 0, 0, false};
  M.reset();
  Sequence Seq{};
  Seq.FirstCheckpoint = uint32_t(Points.Count);
  Row Last{};
  uint64_t InSeq = 0, Prev = 0;
  for (Row R; M.next(R);) {
    ++NumRows;
    if (InSeq == 0)
      Seq.Lo = R.Addr;
    else if (R.Addr < Prev)
      return false; // a sequence going backwards
    Prev = R.Addr;
    if (R.EndSequence) {
      Seq.End = R.Addr;
      Seq.HasEndRow = InSeq != 0 && Last.Addr == R.Addr;
      Seq.EndFile = Last.File;
      Seq.EndLine = Last.Line;
      if (!Seqs.push(Seq))
        return false;
      Seq = Sequence{};
      Seq.Start = uint32_t(M.P - Program);
      Seq.FirstCheckpoint = uint32_t(Points.Count);
      InSeq = 0;
      continue;
    }
    Last = R;
    if (++InSeq % CheckpointRows == 0) {
      if (!Points.push(Checkpoint{R.Addr, uint32_t(M.P - Program),
                                  uint32_t(R.File), R.Line}))
        return false;
      ++Seq.NumCheckpoints;
    }
  }
  // Rows after the last sequence, or a program the machine refused.
  if (M.Refused || InSeq != 0 || uint64_t(ProgramEnd - Program) > UINT32_MAX)
    return false;
  heapSort(Seqs.Items, Seqs.Count,
           [](const Sequence &A, const Sequence &B) { return A.Lo < B.Lo; });
  uint64_t MaxEnd = 0;
  for (size_t I = 0; I < Seqs.Count; ++I) {
    Sequence &S = Seqs.Items[I];
    MaxEnd = S.End > MaxEnd ? S.End : MaxEnd;
    S.MaxEnd = MaxEnd;
  }
  // libdw marks the last row of its sorted table as an end of sequence:
  // after the last sequence, no row answers.
  if (Seqs.Count > 0)
    Seqs.Items[Seqs.Count - 1].HasEndRow = false;
  return true;
}

uint64_t LineIndex::valgrindFile(uint64_t Addr, uint64_t File) const {
  size_t I = Seqs.partition([&](const Sequence &S) { return S.Lo <= Addr; });
  if (I == 0 || Addr >= Seqs.Items[I - 1].End)
    return File;
  return mergedFile(Seqs.Items[I - 1], Addr, File);
}

size_t LineIndex::checkpointsUpTo(const Sequence &S, uint64_t Addr) const {
  const Checkpoint *CP = Points.Items + S.FirstCheckpoint;
  size_t L = 0, Hi = S.NumCheckpoints;
  while (L < Hi) {
    size_t Mid = (L + Hi) / 2;
    if (CP[Mid].Addr <= Addr)
      L = Mid + 1;
    else
      Hi = Mid;
  }
  return L;
}

uint64_t LineIndex::mergedFile(const Sequence &S, uint64_t Addr,
                               uint64_t File) const {
  // Valgrind's merging carries a range into the next only while they have
  // one line and the first was kept whole, so the merged range holding
  // Addr begins in the run of such ranges that ends there. Replayed from a
  // range that follows one of another line or one kept as a single byte
  // (or from the sequence's start), MergedRanges gives what the whole
  // sequence would. So the rows are decoded from the last checkpoint at
  // or below Addr, or from earlier ones while the run reaches past them.
  const Checkpoint *CP = Points.Items + S.FirstCheckpoint;
  size_t L = checkpointsUpTo(S, Addr);
  for (;; --L) {
    Machine M{&H, Program + S.Start, ProgramEnd, 0, 0, 0, false};
    M.reset();
    Row Prev{};
    bool HavePrev = false;
    if (L > 0) {
      const Checkpoint &C = CP[L - 1];
      resumeAt(M, Program, C);
      Prev = Row{C.Addr, C.File, C.Line, false};
      HavePrev = true;
    }
    bool Fresh = L == 0; // the merging's state is known from here on
    bool HaveLast = false, LastWhole = false;
    int64_t LastLine = 0; // of the last non-empty range before Fresh
    MergedRanges Merged;
    for (Row R; M.next(R);) {
      ++MergedRowsDecoded;
      if (HavePrev && R.Addr != Prev.Addr) {
        if (!Fresh) {
          Fresh = HaveLast && (LastLine != Prev.Line || !LastWhole);
          HaveLast = true;
          LastLine = Prev.Line;
          LastWhole = MergedRanges::keptWhole(Prev.Addr, R.Addr);
        }
        if (Fresh)
          Merged.add(Prev.Addr, R.Addr, Prev.File, Prev.Line);
      }
      if (R.EndSequence || R.Addr > Addr)
        break;
      Prev = R;
      HavePrev = true;
    }
    if (Fresh)
      return Merged.Any ? Merged.File : File;
  }
}

LineIndex::Answer LineIndex::find(uint64_t Addr, uint64_t &File,
                                  int64_t &Line) const {
  // The last sequence starting at or below Addr. Only when no sequence
  // before it reaches past its start is the greatest row at or below Addr
  // its own: within it, its last at or below Addr; past its end, its end.
  size_t I = Seqs.partition([&](const Sequence &S) { return S.Lo <= Addr; });
  if (I == 0)
    return NotFound;
  const Sequence &S = Seqs.Items[I - 1];
  if (I > 1 && Seqs.Items[I - 2].MaxEnd > S.Lo)
    return Unknown;
  if (Addr >= S.End) {
    if (!S.HasEndRow)
      return NotFound;
    File = S.EndFile;
    Line = S.EndLine;
    return Found;
  }

  Machine M{&H, Program + S.Start, ProgramEnd, 0, 0, 0, false};
  M.reset();
  bool Any = false;
  // Decode from its last checkpoint at or below Addr.
  const Checkpoint *CP = Points.Items + S.FirstCheckpoint;
  size_t L = checkpointsUpTo(S, Addr);
  if (L > 0) {
    const Checkpoint &C = CP[L - 1];
    resumeAt(M, Program, C);
    File = C.File;
    Line = C.Line;
    Any = true;
  }
  uint64_t RowAddr = M.Addr;
  for (Row R; M.next(R) && !R.EndSequence && R.Addr <= Addr;) {
    File = R.File;
    Line = R.Line;
    RowAddr = R.Addr;
    Any = true;
  }
  // At its start, the rows a sequence ending there has at its end sort in
  // by the order of the sequences in the program, which is not kept.
  const Sequence *Before = I > 1 ? &Seqs.Items[I - 2] : nullptr;
  if (Before && Before->HasEndRow && Before->End == S.Lo && RowAddr == S.Lo)
    return Unknown;
  return Any ? Found : NotFound;
}

//===-- UnitLines ------------------------------------------------------===//

void UnitLines::use(Dwarf *Dw) {
  if (Dw != Of) {
    release();
    Of = Dw;
  }
  if (!Searched) {
    Searched = true;
    findLineSections(dwarf_getelf(Dw), Sections);
  }
}

bool UnitLines::program(Dwarf *Dw, Dwarf_Die *Cu, uint64_t &Off,
                        const char *&CompDir) {
  use(Dw);
  Dwarf_Attribute A;
  Dwarf_Word At;
  if (!Sections.Line ||
      dwarf_formudata(dwarf_attr(Cu, DW_AT_stmt_list, &A), &At) != 0)
    return false;
  Off = At;
  CompDir = dwarf_formstring(dwarf_attr(Cu, DW_AT_comp_dir, &A));
  return true;
}

int64_t UnitLines::fileDirectory(Dwarf *Dw, Dwarf_Die *Cu, const char *Path) {
  uint64_t Off;
  const char *CompDir;
  if (!program(Dw, Cu, Off, CompDir))
    return -1;
  LineIndex Names;
  int64_t Dir = Names.readNames(Sections, Off, CompDir) ? Names.fileDirectory(Path) : -1;
  Names.release();
  return Dir;
}

const LineIndex *UnitLines::of(Dwarf *Dw, Dwarf_Die *Cu) {
  // Small programs are libdw's; only the large are kept here.
  uint64_t Off;
  const char *CompDir;
  uint32_t ProgramB;
  if (!program(Dw, Cu, Off, CompDir) || Off + 4 > Sections.LineB)
    return nullptr;
  memcpy(&ProgramB, Sections.Line + Off, 4);
  if (ProgramB <= LargeProgramB)
    return nullptr;
  for (size_t I = 0; I < Entries.Count; ++I)
    if (Entries.Items[I].Program == Off)
      return Entries.Items[I].Index;
  auto *X = (LineIndex *)arenaAllocate(sizeof(LineIndex));
  if (X && !(new (X) LineIndex())->build(Sections, Off, CompDir)) {
    arenaDeallocate(X, sizeof(LineIndex));
    X = nullptr;
  }
  if (!Entries.push(Entry{Off, X}) && X) {
    X->release();
    arenaDeallocate(X, sizeof(LineIndex));
    return nullptr;
  }
  return X;
}

void UnitLines::release() {
  for (size_t I = 0; I < Entries.Count; ++I)
    if (LineIndex *X = Entries.Items[I].Index) {
      X->release();
      arenaDeallocate(X, sizeof(LineIndex));
    }
  Entries.release();
  *this = UnitLines();
}
