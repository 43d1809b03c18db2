//===- LineIndexTest.cpp - LineIndex against libdw's line tables -----------===//
//
// Part of massif-native, under the MIT licence.
//
// The index must answer exactly as libdw does. Every unit of three files is
// indexed and asked about every row's address and its neighbours: this
// test binary (DWARF 4 from clang, and one DWARF 5 unit,
// LineIndexInput5.cpp), and glibc's debug file (DWARF 5 from gcc, the
// sections compressed). Each answer (found or not, the file's path, the
// line) and each unit's directories and file paths are compared. Where
// sequences overlap the index may answer Unknown, and its caller asks
// libdw; that must stay rare.
//
//===----------------------------------------------------------------------===//

#include "LineIndex.h"

#include "LibcDebugFile.h"
#include "LineIndexInput5.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include <string>
#include <vector>

using namespace massif;
using namespace massif::symbolizer;

namespace {

std::string str(const char *S) { return S ? S : "(null)"; }

struct Tally {
  unsigned Units = 0, Indexed = 0, Version5 = 0;
  uint64_t Lookups = 0, Unknown = 0, Merged = 0;
};

/// For each of libdw's rows, the row whose file Valgrind gives the range
/// from it to the next: MergedRanges replayed over each whole sequence.
std::vector<size_t> mergedRows(Dwarf_Lines *Lines, size_t N) {
  std::vector<size_t> Ref(N);
  MergedRanges M;
  for (size_t K = 0; K < N; ++K) {
    Ref[K] = K;
    bool End = false;
    Dwarf_Addr At = 0, NextAt = 0;
    int No = 0;
    dwarf_lineendsequence(dwarf_onesrcline(Lines, K), &End);
    if (End) {
      M = MergedRanges();
      continue;
    }
    if (K + 1 == N || dwarf_lineaddr(dwarf_onesrcline(Lines, K), &At) != 0 ||
        dwarf_lineaddr(dwarf_onesrcline(Lines, K + 1), &NextAt) != 0 ||
        dwarf_lineno(dwarf_onesrcline(Lines, K), &No) != 0)
      continue;
    M.add(At, NextAt, K, No);
    if (M.Any)
      Ref[K] = M.File;
  }
  return Ref;
}

/// The index of libdw's last row at or below Addr, or N when none.
size_t rowHolding(Dwarf_Lines *Lines, size_t N, Dwarf_Addr Addr) {
  size_t Lo = 0, Hi = N;
  while (Lo < Hi) {
    size_t Mid = (Lo + Hi) / 2;
    Dwarf_Addr At;
    if (dwarf_lineaddr(dwarf_onesrcline(Lines, Mid), &At) == 0 && At <= Addr)
      Lo = Mid + 1;
    else
      Hi = Mid;
  }
  return Lo ? Lo - 1 : N;
}

/// Compares the index of unit Cu with libdw's table, at every Stride-th
/// row's address and the addresses either side of it, and the file
/// Valgrind's merged ranges give each with MergedRanges over libdw's rows.
void compareUnit(Dwarf_Die *Cu, const LineSections &S, unsigned Stride,
                 Tally &T) {
  Dwarf_Attribute A;
  Dwarf_Word Off;
  Dwarf_Lines *Lines;
  size_t NumLines;
  if (dwarf_formudata(dwarf_attr(Cu, DW_AT_stmt_list, &A), &Off) != 0 ||
      dwarf_getsrclines(Cu, &Lines, &NumLines) != 0)
    return;
  ++T.Units;
  LineIndex X;
  const char *CompDir = dwarf_formstring(dwarf_attr(Cu, DW_AT_comp_dir, &A));
  if (!X.build(S, Off, CompDir))
    return;
  ++T.Indexed;
  T.Version5 += S.Line[Off + 4] == 5;
  SCOPED_TRACE("unit " + str(dwarf_diename(Cu)));
  EXPECT_EQ(X.numRows(), NumLines);

  Dwarf_Files *Files;
  size_t NumFiles, NumDirs, OurDirs;
  const char *const *Dirs;
  ASSERT_EQ(dwarf_getsrcfiles(Cu, &Files, &NumFiles), 0);
  ASSERT_EQ(dwarf_getsrcdirs(Files, &Dirs, &NumDirs), 0);
  const char *const *Ours = X.dirs(OurDirs);
  ASSERT_EQ(OurDirs, NumDirs);
  for (size_t I = 0; I < NumDirs; ++I)
    EXPECT_EQ(str(Ours[I]), str(Dirs[I])) << "directory " << I;
  for (size_t I = 0; I <= NumFiles; ++I) // one past the last: none
    EXPECT_EQ(str(X.filePath(I)), str(dwarf_filesrc(Files, I, nullptr, nullptr)))
        << "file " << I;

  std::vector<size_t> Merged = mergedRows(Lines, NumLines);
  for (size_t I = 0; I < NumLines; I += Stride) {
    Dwarf_Addr Row;
    ASSERT_EQ(dwarf_lineaddr(dwarf_onesrcline(Lines, I), &Row), 0);
    for (Dwarf_Addr Addr : {Row - 1, Row, Row + 1}) {
      ++T.Lookups;
      Dwarf_Line *L = dwarf_getsrc_die(Cu, Addr);
      uint64_t File;
      int64_t Line;
      LineIndex::Answer Got = X.find(Addr, File, Line);
      if (Got == LineIndex::Unknown) {
        ++T.Unknown;
        continue;
      }
      ASSERT_EQ(Got == LineIndex::Found, L != nullptr)
          << "at 0x" << std::hex << Addr;
      if (Got == LineIndex::NotFound)
        continue;
      int Want;
      ASSERT_EQ(dwarf_lineno(L, &Want), 0);
      ASSERT_EQ(Line, Want) << "at 0x" << std::hex << Addr;
      ASSERT_EQ(str(X.filePath(File)), str(dwarf_linesrc(L, nullptr, nullptr)))
          << "at 0x" << std::hex << Addr;
      size_t K = rowHolding(Lines, NumLines, Addr);
      bool End = true;
      if (K < NumLines)
        dwarf_lineendsequence(dwarf_onesrcline(Lines, K), &End);
      const char *WantFile =
          End ? dwarf_linesrc(L, nullptr, nullptr)
              : dwarf_linesrc(dwarf_onesrcline(Lines, Merged[K]), nullptr,
                              nullptr);
      ++T.Merged;
      ASSERT_EQ(str(X.filePath(X.valgrindFile(Addr, File))), str(WantFile))
          << "merged, at 0x" << std::hex << Addr;
    }
  }
  // Each answer decodes the rows from a checkpoint to the address (and
  // rarely from the one before): not its sequence from the start.
  uint64_t Lookups = (NumLines + Stride - 1) / Stride * 3;
  EXPECT_LE(X.mergedRowsDecoded(), Lookups * 3 * LineIndex::CheckpointRows)
      << "rows decoded for " << Lookups << " merged answers";
}

Tally compareFile(const char *Path, unsigned Stride);

void report(const char *Path, const Tally &T) {
  printf("%s: %u units, %u indexed (%u DWARF 5), %lu lookups, %lu unknown, "
         "%lu merged\n",
         Path, T.Units, T.Indexed, T.Version5, (unsigned long)T.Lookups,
         (unsigned long)T.Unknown, (unsigned long)T.Merged);
}

Tally compareFile(const char *Path, unsigned Stride) {
  Tally T;
  int Fd = open(Path, O_RDONLY);
  EXPECT_GE(Fd, 0) << Path;
  if (Fd < 0)
    return T;
  Dwarf *Dw = dwarf_begin(Fd, DWARF_C_READ);
  EXPECT_NE(Dw, nullptr) << Path;
  if (Dw) {
    // Asking for every unit's lines first makes libdw decompress the
    // sections the index then reads.
    LineSections S{};
    Dwarf_Off Off = 0, Next;
    size_t HeaderB;
    for (bool First = true;; First = false) {
      if (dwarf_nextcu(Dw, Off, &Next, &HeaderB, nullptr, nullptr, nullptr))
        break;
      Dwarf_Die Cu;
      if (dwarf_offdie(Dw, Off + HeaderB, &Cu)) {
        Dwarf_Lines *Lines;
        size_t N;
        dwarf_getsrclines(&Cu, &Lines, &N);
        if (First)
          EXPECT_TRUE(findLineSections(dwarf_getelf(Dw), S)) << Path;
        if (S.Line)
          compareUnit(&Cu, S, Stride, T);
      }
      Off = Next;
    }
    dwarf_end(Dw);
  }
  close(Fd);
  return T;
}

TEST(LineIndex, AnswersAsLibdwForThisBinary) {
  ASSERT_NE(lineIndexInput5("12,34,x", 7), 0u); // keep the DWARF 5 unit
  Tally T = compareFile("/proc/self/exe", 1);
  report("this binary", T);
  EXPECT_GT(T.Units, 5u);
  EXPECT_EQ(T.Indexed, T.Units);
  EXPECT_GE(T.Version5, 1u);
  EXPECT_GT(T.Lookups, 3000u);
  EXPECT_GT(T.Merged, 3000u);
  // Only near the discarded COMDAT sections' sequences, at address 0.
  EXPECT_LT(T.Unknown, T.Lookups / 20);
}

TEST(LineIndex, AnswersAsLibdwForGlibcsDebugFile) {
  std::string Path = libcDebugFile();
  ASSERT_FALSE(Path.empty());
  ASSERT_EQ(access(Path.c_str(), R_OK), 0)
      << Path << " is missing: install libc6-dbg (scripts/install-deps.sh does)";
  Tally T = compareFile(Path.c_str(), 7);
  report(Path.c_str(), T);
  EXPECT_GT(T.Units, 1000u);
  // gcc's units are all DWARF 5; the few refused keep libdw's table.
  EXPECT_GT(T.Indexed, T.Units * 9 / 10);
  EXPECT_EQ(T.Version5, T.Indexed);
  EXPECT_GT(T.Lookups, 100000u);
  EXPECT_GT(T.Merged, 100000u);
  EXPECT_EQ(T.Unknown, 0u);
}

TEST(LineIndex, RefusesWhatItCannotFollow) {
  // A DWARF 4 program: one sequence, then DW_LNE_define_file.
  const uint8_t Program[] = {
      // unit length, version 4, header length
      0, 0, 0, 0, 4, 0, 0, 0, 0, 0,
      // min instruction length, max ops, default is_stmt, line base and
      // range, opcode base 13 and the 12 standard opcodes' lengths
      1, 1, 1, 0xfb, 14, 13, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1,
      // no directories; file "a.c" in directory 0
      0, 'a', '.', 'c', 0, 0, 0, 0, 0,
      // set_address 0x1000, copy, advance_pc 4, end_sequence
      0, 9, 2, 0, 0x10, 0, 0, 0, 0, 0, 0, 1, 2, 4, 0, 1, 1,
      // define_file "b.c"
      0, 8, 3, 'b', '.', 'c', 0, 0, 0, 0};
  uint8_t Bytes[sizeof(Program)];
  memcpy(Bytes, Program, sizeof(Bytes));
  uint32_t UnitB = sizeof(Bytes) - 4, HeaderB = 37 - 10; // program at 37
  memcpy(Bytes, &UnitB, 4);
  memcpy(Bytes + 6, &HeaderB, 4);
  LineSections S{Bytes, sizeof(Bytes), nullptr, 0, nullptr, 0};
  LineIndex X;
  EXPECT_FALSE(X.build(S, 0, "/src"));
  // Without the define_file the same program is indexed.
  UnitB = 54 - 4; // define_file at 54
  memcpy(Bytes, &UnitB, 4);
  S.LineB = 54;
  ASSERT_TRUE(X.build(S, 0, "/src"));
  uint64_t File;
  int64_t Line;
  ASSERT_EQ(X.find(0x1002, File, Line), LineIndex::Found);
  EXPECT_EQ(Line, 1);
  EXPECT_STREQ(X.filePath(File), "/src/a.c");
  // The end of the sequence, and before it.
  EXPECT_EQ(X.find(0x1004, File, Line), LineIndex::NotFound);
  EXPECT_EQ(X.find(0xfff, File, Line), LineIndex::NotFound);
  X.release();
}

} // namespace

TEST(LineIndex, MergedRangesKeepTheFirstFileOfALine) {
  // Valgrind's addLoc: adjacent ranges of one line merge, whatever their
  // files; another line, a gap or the size limit starts a range of its own.
  MergedRanges M;
  M.add(0x100, 0x110, 1, 7);
  M.add(0x110, 0x118, 2, 7); // same line, adjacent: file 1's
  EXPECT_EQ(M.File, 1u);
  M.add(0x118, 0x118, 3, 9); // empty: not kept, breaks nothing
  M.add(0x118, 0x120, 2, 7);
  EXPECT_EQ(M.File, 1u);
  M.add(0x120, 0x128, 2, 8); // another line
  EXPECT_EQ(M.File, 2u);
  M.add(0x130, 0x138, 3, 8); // a gap
  EXPECT_EQ(M.File, 3u);
  MergedRanges Big;
  Big.add(0x1000, 0x1000 + MergedRanges::MaxRangeB - 4, 1, 5);
  Big.add(0x1000 + MergedRanges::MaxRangeB - 4, 0x1000 + MergedRanges::MaxRangeB + 4, 2, 5);
  EXPECT_EQ(Big.File, 2u); // merged, it would exceed the limit
}
