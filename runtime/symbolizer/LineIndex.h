//===- LineIndex.h - A compile unit's line program, sparsely indexed -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// libdw answers "which line is this address" by decoding a unit's whole
// line program into a table of about a hundred bytes a row: 17 MB for
// sqlite3.c's 159,000 rows, at the moment the profile is written, when the
// program's heap is still resident. For a unit that large the symbolizer
// asks this index instead. One pass over the program records its
// sequences and, every CheckpointRows rows, the registers the program had
// there; a lookup decodes from the checkpoint before the address, at most
// that many rows.
//
// The answers are libdw's (elfutils 0.188): the row of the greatest address
// at or below the sought one, the last such row of the program, none if it
// ends a sequence (rows that end a sequence sort before the others at
// their address, and the last row of all counts as one); file names joined to their directory as dwarf_filesrc
// joins them, the directory list as dwarf_getsrcdirs gives it. A program
// whose answers the index cannot be sure of is refused (build returns
// false) and left to libdw: 64-bit DWARF, VLIW operation indices,
// DW_LNE_define_file, indexed string forms, sequences that go backwards.
// Where sequences overlap, a lookup is answered Unknown.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SYMBOLIZER_LINEINDEX_H
#define MASSIF_SYMBOLIZER_LINEINDEX_H

#include "Arena.h"

#include <elfutils/libdw.h>
#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

namespace massif {

struct ByteReader;

namespace symbolizer {

/// The fields of a line program's header that its opcodes depend on.
struct LineProgramHeader {
  uint16_t Version;
  uint8_t MinInstB, LineRange, OpcodeBase;
  int8_t LineBase;
  const uint8_t *OpcodeLengths; ///< of the standard opcodes 1 .. base - 1
};

/// The sections a line program reads: .debug_line, and for DWARF 5's names
/// .debug_line_str and .debug_str (either may be empty).
struct LineSections {
  const uint8_t *Line;
  size_t LineB;
  const uint8_t *LineStr;
  size_t LineStrB;
  const uint8_t *Str;
  size_t StrB;
};

/// The sections of E that line programs read, if .debug_line is there
/// and not compressed (libdw decompresses a section when it opens it).
bool findLineSections(Elf *E, LineSections &Out);

/// Valgrind's table of source locations keeps a range of a line program
/// (one row to the next) merged into the range before it when the two are
/// adjacent and have the same line number, whatever their files: the
/// merged range keeps the first one's file, up to MaxRangeB bytes
/// (storage.c, addLoc). Fed a sequence's ranges in order, File is what
/// Valgrind gives the last one: the file (or whatever the caller names a
/// row by) of the first range of its merged range.
struct MergedRanges {
  static constexpr uint64_t MaxRangeB = 4095; ///< MAX_LOC_SIZE
  uint64_t Addr = 0, SizeB = 0, File = 0;
  int64_t Line = 0;
  bool Any = false;

  /// Whether the range is kept as it is; else (out of order, or too
  /// large) as one byte, and no range after it merges into it. A range
  /// after one of another line or one not kept whole starts afresh.
  static bool keptWhole(uint64_t Lo, uint64_t Hi) {
    return Hi > Lo && Hi - Lo <= MaxRangeB;
  }

  void add(uint64_t Lo, uint64_t Hi, uint64_t F, int64_t L) {
    if (Hi == Lo)
      return; // empty: not kept
    uint64_t B = keptWhole(Lo, Hi) ? Hi - Lo : 1;
    if (Any && Line == L && Addr + SizeB == Lo && SizeB + B <= MaxRangeB) {
      SizeB += B;
      return;
    }
    Addr = Lo;
    SizeB = B;
    File = F;
    Line = L;
    Any = true;
  }
};

class LineIndex {
public:
  /// Rows between two checkpoints.
  static constexpr uint32_t CheckpointRows = 64;

  /// Indexes the program at offset Off of S.Line, of a unit whose
  /// DW_AT_comp_dir is CompDir (or null). False (and nothing kept) when
  /// the program is refused or memory is exhausted.
  bool build(const LineSections &S, uint64_t Off, const char *CompDir);
  void release();

  /// What a lookup found. Unknown where the program's sequences overlap
  /// (C++ units relocate the sequences of discarded COMDAT sections to
  /// address 0): the caller asks libdw then.
  enum Answer { Found, NotFound, Unknown };

  /// The file index and line of the row libdw's dwarf_getsrc_die finds for
  /// Addr.
  Answer find(uint64_t Addr, uint64_t &File, int64_t &Line) const;

  /// The file Valgrind gives Addr, whose row find answered with File:
  /// the file of the first range of Addr's merged range (MergedRanges).
  uint64_t valgrindFile(uint64_t Addr, uint64_t File) const;

  /// The path of file Index, as dwarf_filesrc gives it; null if none.
  const char *filePath(uint64_t Index) const {
    return Index < Files.Count ? Files.Items[Index] : nullptr;
  }
  /// The directories, as dwarf_getsrcdirs gives them.
  const char *const *dirs(size_t &Count) const {
    Count = Dirs.Count;
    return Dirs.Items;
  }
  /// Rows the program has (for tests).
  uint64_t numRows() const { return NumRows; }
  /// Rows valgrindFile has decoded so far (for tests: a few per call, not
  /// a sequence's worth).
  uint64_t mergedRowsDecoded() const { return MergedRowsDecoded; }

  /// Reads only the header of the program at offset Off of S.Line: its
  /// directories and files, for fileDirectory. False when it is refused.
  bool readNames(const LineSections &S, uint64_t Off, const char *CompDir) {
    return readHeader(S, Off, CompDir);
  }
  /// The directory entry (0: the unit's own) of the first file whose path
  /// (filePath) is Path; -1 when no file's is.
  int64_t fileDirectory(const char *Path) const;

private:
  struct Checkpoint {
    uint64_t Addr;
    uint32_t Next; ///< the program offset after the row's opcode
    uint32_t File;
    int64_t Line;
  };
  struct Sequence {
    uint64_t Lo, End;
    uint64_t MaxEnd; ///< the greatest End of this and the sequences before
    /// The last row at End before the end: libdw sorts a sequence's end
    /// before rows at the same address, so it answers with this row for
    /// every address from End to the next sequence.
    uint64_t EndFile;
    int64_t EndLine;
    bool HasEndRow;
    uint32_t Start;           ///< program offset of its first opcode
    uint32_t FirstCheckpoint; ///< its checkpoints follow, in address order
    uint32_t NumCheckpoints;
  };
  /// How many of S's checkpoints lie at or below Addr.
  size_t checkpointsUpTo(const Sequence &S, uint64_t Addr) const;
  uint64_t mergedFile(const Sequence &S, uint64_t Addr, uint64_t File) const;
  bool readHeader(const LineSections &S, uint64_t Off, const char *CompDir);
  bool readNamesV4(ByteReader &R, const char *CompDir);
  bool readNamesV5(ByteReader &R, const LineSections &S);
  bool addFile(const char *Name, uint64_t DirIndex);
  bool indexSequences();

  LineProgramHeader H{};
  const uint8_t *Program = nullptr, *ProgramEnd = nullptr;
  ArenaVector<const char *> Dirs, Files;
  ArenaVector<uint32_t> FileDirs; ///< each file's directory entry
  ArenaVector<char *> Owned;      ///< joined paths, freed with the index
  ArenaVector<Sequence> Seqs;
  ArenaVector<Checkpoint> Points;
  uint64_t NumRows = 0;
  mutable uint64_t MergedRowsDecoded = 0;
};

/// The line indexes of one Dwarf's large units, built on first use. A
/// unit whose line program is small is left to libdw, whose table for it
/// is small too.
class UnitLines {
public:
  /// Line programs above this many bytes are indexed.
  static constexpr uint64_t LargeProgramB = 64 * 1024;

  /// The index of Cu's line program, or null when libdw is to be asked
  /// (small, refused, out of memory).
  const LineIndex *of(Dwarf *Dw, Dwarf_Die *Cu);
  /// The directory entry of the file of Cu's line program whose path is
  /// Path (LineIndex::fileDirectory), from the program's header; -1 when
  /// none is or the header cannot be read.
  int64_t fileDirectory(Dwarf *Dw, Dwarf_Die *Cu, const char *Path);
  void release();

private:
  /// Starts on Dw's sections (another Dwarf releases the indexes).
  void use(Dwarf *Dw);
  /// Cu's line program: its offset in .debug_line and the unit's
  /// DW_AT_comp_dir (null if none); false when it has none.
  bool program(Dwarf *Dw, Dwarf_Die *Cu, uint64_t &Off, const char *&CompDir);

  struct Entry {
    uint64_t Program;  ///< its offset in .debug_line
    LineIndex *Index;  ///< null: refused, libdw's
  };
  Dwarf *Of = nullptr;
  bool Searched = false;
  LineSections Sections{};
  ArenaVector<Entry> Entries;
};

} // namespace symbolizer
} // namespace massif

#endif // MASSIF_SYMBOLIZER_LINEINDEX_H
