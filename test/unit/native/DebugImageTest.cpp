//===- DebugImageTest.cpp - Unit-by-unit DWARF reads as the whole does ----===//
//
// Part of massif-native, under the MIT licence.
//
// glibc's separate debug file (libc6-dbg) has compressed sections, the case
// DebugImage exists for. Hundreds of its addresses are described through
// the image and through libdw reading the whole file, and everything the
// symbolizer asks of libdw must come out the same: the unit, the line, the
// chain of scopes with their names and call sites, the unit's ranges.
//
//===----------------------------------------------------------------------===//

#include "DebugImage.h"
#include "DwarfScan.h"
#include "LibcDebugFile.h"

#include <gtest/gtest.h>

#include <dwarf.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace massif;
using namespace massif::symbolizer;

namespace {

/// Everything the symbolizer reads of libdw about Addr in Cu, as text.
std::string describe(Dwarf_Die *Cu, Dwarf_Addr Addr) {
  std::string S;
  auto Str = [](const char *P) { return std::string(P ? P : "(null)"); };
  S += "unit " + Str(dwarf_diename(Cu));
  Dwarf_Addr Base, Lo, Hi;
  ptrdiff_t At = 0;
  while ((At = dwarf_ranges(Cu, At, &Base, &Lo, &Hi)) > 0)
    S += " [" + std::to_string(Lo) + "," + std::to_string(Hi) + ")";
  if (Dwarf_Line *L = dwarf_getsrc_die(Cu, Addr)) {
    int Line = 0;
    dwarf_lineno(L, &Line);
    S += "\nline " + Str(dwarf_linesrc(L, nullptr, nullptr)) + ":" +
         std::to_string(Line);
  }
  Dwarf_Files *Files = nullptr;
  size_t NumFiles = 0;
  dwarf_getsrcfiles(Cu, &Files, &NumFiles);
  Dwarf_Die *Scopes = nullptr;
  int N = dwarf_getscopes(Cu, Addr, &Scopes);
  for (int I = 0; I < N; ++I) {
    S += "\nscope " + std::to_string(dwarf_tag(&Scopes[I])) + " " +
         Str(dwarf_diename(&Scopes[I]));
    Dwarf_Attribute Attr;
    Dwarf_Word File = 0, Line = 0;
    if (dwarf_formudata(dwarf_attr(&Scopes[I], DW_AT_call_file, &Attr), &File) == 0 &&
        Files)
      S += " from " + Str(dwarf_filesrc(Files, File, nullptr, nullptr));
    if (dwarf_formudata(dwarf_attr(&Scopes[I], DW_AT_call_line, &Attr), &Line) == 0)
      S += ":" + std::to_string(Line);
    if (dwarf_haspc(&Scopes[I], Addr) <= 0)
      S += " (pc outside)";
  }
  free(Scopes);
  return S;
}

struct WholeDwarf {
  int Fd = -1;
  Elf *E = nullptr;
  Dwarf *Dw = nullptr;
  explicit WholeDwarf(const std::string &Path) {
    elf_version(EV_CURRENT);
    Fd = open(Path.c_str(), O_RDONLY);
    E = Fd >= 0 ? elf_begin(Fd, ELF_C_READ_MMAP, nullptr) : nullptr;
    Dw = E ? dwarf_begin_elf(E, DWARF_C_READ, nullptr) : nullptr;
  }
  ~WholeDwarf() {
    dwarf_end(Dw);
    elf_end(E);
    if (Fd >= 0)
      close(Fd);
  }
};

class DebugImageLibc : public ::testing::Test {
protected:
  void SetUp() override {
    Path = libcDebugFile();
    ASSERT_FALSE(Path.empty()) << "no build id on libc.so.6";
    ASSERT_EQ(access(Path.c_str(), R_OK), 0)
        << Path << " is missing: install libc6-dbg (scripts/install-deps.sh does)";
  }
  std::string Path;
};

/// An address range of .debug_aranges.
struct Range {
  Dwarf_Addr Start;
  Dwarf_Word Length;
};

/// About Count ranges of Dw's .debug_aranges, evenly spread over the file;
/// empty when it has fewer than 1000.
std::vector<Range> sampleRanges(Dwarf *Dw, size_t Count) {
  Dwarf_Aranges *Ranges;
  size_t NumRanges;
  std::vector<Range> Out;
  if (dwarf_getaranges(Dw, &Ranges, &NumRanges) != 0 || NumRanges < 1000)
    return Out;
  for (size_t I = 0; I < NumRanges; I += NumRanges / Count) {
    Range R;
    Dwarf_Off Unit;
    if (dwarf_getarangeinfo(dwarf_onearange(Ranges, I), &R.Start, &R.Length,
                            &Unit) == 0)
      Out.push_back(R);
  }
  return Out;
}

TEST_F(DebugImageLibc, DescribesAddressesAsTheWholeFileDoes) {
  WholeDwarf Whole(Path);
  ASSERT_NE(Whole.Dw, nullptr) << dwarf_errmsg(-1);
  DebugImage *Image = openDebugImage(Path.c_str());
  ASSERT_NE(Image, nullptr) << "libc's debug file should be compressed";

  // Addresses from every part of the file, in increasing order as a
  // profile's are described, then a second round out of order.
  std::vector<Range> Sample = sampleRanges(Whole.Dw, 150);
  ASSERT_GE(Sample.size(), 150u);
  std::vector<Dwarf_Addr> Addrs;
  for (const Range &R : Sample) {
    Addrs.push_back(R.Start);
    Addrs.push_back(R.Start + R.Length / 2);
  }
  for (size_t I = 0; I < 60; ++I)
    Addrs.push_back(Addrs[(I * 7919) % Addrs.size()] + 1);

  size_t Found = 0, WithLines = 0, WithInlines = 0;
  for (Dwarf_Addr A : Addrs) {
    Dwarf_Die WholeCu, ImageCu;
    bool InWhole = dwarf_addrdie(Whole.Dw, A, &WholeCu) != nullptr;
    Dwarf_Off Off = 0;
    UnitLookup L = unitFor(Image, A, Off);
    ASSERT_NE(L, UnitLookup::Failed) << "at " << std::hex << A;
    ASSERT_EQ(L == UnitLookup::Found, InWhole) << "at " << std::hex << A;
    if (!InWhole)
      continue;
    ASSERT_NE(dwarf_offdie(imageDwarf(Image), Off, &ImageCu), nullptr);
    std::string Want = describe(&WholeCu, A);
    ASSERT_EQ(describe(&ImageCu, A), Want) << "at " << std::hex << A;
    ++Found;
    WithLines += Want.find("\nline ") != std::string::npos;
    WithInlines += Want.find("scope 29 ") != std::string::npos; // inlined
  }
  // The sample is real: it found units, lines and inlined calls.
  EXPECT_GT(Found, 250u);
  EXPECT_GT(WithLines, 250u);
  EXPECT_GT(WithInlines, 10u);
  closeDebugImage(Image);
}

TEST_F(DebugImageLibc, LoadsTheUnitsOfScatteredAddressesInOnePass) {
  // A profile's addresses come in the order of its trees. One by one, a
  // unit lying behind a section's stream starts the stream over; given
  // all at once, the units load in file order and every stream passes
  // once, with the same units described the same.
  WholeDwarf Whole(Path);
  ASSERT_NE(Whole.Dw, nullptr);
  std::vector<Range> Sample = sampleRanges(Whole.Dw, 40);
  ASSERT_GE(Sample.size(), 40u);
  std::vector<Dwarf_Addr> Addrs;
  for (const Range &R : Sample)
    Addrs.push_back(R.Start + R.Length / 2);
  std::reverse(Addrs.begin(), Addrs.end()); // the worst order for streams

  DebugImage *OneByOne = openDebugImage(Path.c_str());
  DebugImage *Batch = openDebugImage(Path.c_str());
  ASSERT_NE(OneByOne, nullptr);
  ASSERT_NE(Batch, nullptr);
  ArenaVector<uint64_t> Pending;
  for (Dwarf_Addr A : Addrs)
    ASSERT_TRUE(Pending.push(A));
  ASSERT_TRUE(loadUnitsFor(Batch, Pending));
  Pending.release();
  uint64_t BatchB = imageInflatedBytes(Batch);

  for (Dwarf_Addr A : Addrs) {
    Dwarf_Off OffOne = 0, OffBatch = 0;
    ASSERT_EQ(unitFor(OneByOne, A, OffOne), UnitLookup::Found);
    ASSERT_EQ(unitFor(Batch, A, OffBatch), UnitLookup::Found);
    Dwarf_Die CuOne, CuBatch;
    ASSERT_NE(dwarf_offdie(imageDwarf(OneByOne), OffOne, &CuOne), nullptr);
    ASSERT_NE(dwarf_offdie(imageDwarf(Batch), OffBatch, &CuBatch), nullptr);
    EXPECT_EQ(describe(&CuBatch, A), describe(&CuOne, A)) << std::hex << A;
  }
  // Nothing more was inflated for the lookups: the batch had every unit.
  EXPECT_EQ(imageInflatedBytes(Batch), BatchB);
  EXPECT_EQ(imageFilledBytes(Batch), imageFilledBytes(OneByOne));
  // One pass: at most each section's size; one by one, many passes.
  EXPECT_LT(BatchB, 12u * 1024 * 1024);
  EXPECT_GT(imageInflatedBytes(OneByOne), 4 * BatchB);
  closeDebugImage(OneByOne);
  closeDebugImage(Batch);
}

TEST_F(DebugImageLibc, LoadsOneUnitForFarLessThanTheWholeDwarf) {
  DebugImage *Image = openDebugImage(Path.c_str());
  ASSERT_NE(Image, nullptr);
  // fopen's unit, as a profile that allocates through fopen needs.
  Dwarf_Addr Fopen = 0;
  {
    WholeDwarf Whole(Path);
    ASSERT_NE(Whole.Dw, nullptr);
    Dwarf_Off Off = 0, Next;
    size_t HeaderB;
    while (!Fopen && dwarf_nextcu(Whole.Dw, Off, &Next, &HeaderB, nullptr,
                                  nullptr, nullptr) == 0) {
      Dwarf_Die Cu;
      const char *Name;
      Dwarf_Addr Low;
      if (dwarf_offdie(Whole.Dw, Off + HeaderB, &Cu) &&
          (Name = dwarf_diename(&Cu)) && strstr(Name, "iofopen.c") &&
          dwarf_lowpc(&Cu, &Low) == 0)
        Fopen = Low;
      Off = Next;
    }
  }
  ASSERT_NE(Fopen, 0u);
  Dwarf_Off Off;
  ASSERT_EQ(unitFor(Image, Fopen, Off), UnitLookup::Found);
  Dwarf_Die Cu;
  ASSERT_NE(dwarf_offdie(imageDwarf(Image), Off, &Cu), nullptr);
  EXPECT_NE(strstr(dwarf_diename(&Cu), "iofopen.c"), nullptr);
  EXPECT_NE(dwarf_getsrc_die(&Cu, Fopen), nullptr);
  // The unit with its abbreviations, line program and strings, plus
  // .debug_aranges, against about 10 MB of inflated DWARF.
  EXPECT_LT(imageFilledBytes(Image), 512u * 1024);
  closeDebugImage(Image);
}

// Hand-made bytes for what the real file may not show.

TEST(DwarfScan, ReportsWhatAUnitRefersToAndRefusesRefAddr) {
  // Abbreviation 1: a compile unit with a strp name, a line_strp directory,
  // a stmt_list and a ranges offset; its child 2 refers to another unit.
  const uint8_t Abbrevs[] = {
      1, DW_TAG_compile_unit, DW_CHILDREN_yes,
      DW_AT_name, DW_FORM_strp, DW_AT_comp_dir, DW_FORM_line_strp,
      DW_AT_stmt_list, DW_FORM_sec_offset, DW_AT_ranges, DW_FORM_sec_offset,
      0, 0,
      2, DW_TAG_variable, DW_CHILDREN_no, DW_AT_type, DW_FORM_ref_addr, 0, 0,
      3, DW_TAG_variable, DW_CHILDREN_no, DW_AT_name, DW_FORM_string,
      DW_AT_const_value, DW_FORM_implicit_const, 0x7f, 0, 0,
      0};
  EXPECT_EQ(abbrevTableSize(Abbrevs, sizeof(Abbrevs)), int64_t(sizeof(Abbrevs)));
  EXPECT_EQ(abbrevTableSize(Abbrevs, sizeof(Abbrevs) - 1), NeedMore);

  auto unitWith = [](uint8_t Child) {
    std::vector<uint8_t> U = {0, 0, 0, 0, 5, 0, DW_UT_compile, 8, 0, 0, 0, 0,
                              1, 0x10, 0, 0, 0, 0x20, 0, 0, 0, 0x30, 0, 0, 0,
                              0x40, 0, 0, 0, Child};
    if (Child == 2)
      U.insert(U.end(), {0, 0, 0, 0});
    else
      U.insert(U.end(), {'x', 0});
    U.push_back(0); // end of the children
    uint32_t Length = uint32_t(U.size() - 4);
    memcpy(U.data(), &Length, 4);
    return U;
  };
  struct Seen {
    std::vector<std::pair<RefKind, uint64_t>> Refs;
  } S;
  RefSink Sink{[](void *Ctx, RefKind K, uint64_t Off) {
                 ((Seen *)Ctx)->Refs.push_back({K, Off});
                 return true;
               },
               &S};
  std::vector<uint8_t> Good = unitWith(3);
  UnitHeader H;
  ASSERT_EQ(readUnitHeader(Good.data(), Good.size(), H), int64_t(Good.size()));
  EXPECT_EQ(H.HeaderB, 12u);
  EXPECT_EQ(readUnitHeader(Good.data(), 11, H), NeedMore);
  ASSERT_EQ(scanUnit(Good.data(), H, Abbrevs, sizeof(Abbrevs), Sink), 0);
  std::vector<std::pair<RefKind, uint64_t>> Want = {
      {RefKind::Str, 0x10}, {RefKind::LineStr, 0x20}, {RefKind::Line, 0x30},
      {RefKind::Ranges, 0x40}};
  EXPECT_EQ(S.Refs, Want);

  std::vector<uint8_t> Bad = unitWith(2);
  ASSERT_GT(readUnitHeader(Bad.data(), Bad.size(), H), 0);
  EXPECT_EQ(scanUnit(Bad.data(), H, Abbrevs, sizeof(Abbrevs), Sink), Unsupported);
}

TEST(DwarfScan, SizesNeedTheirWholeEncoding) {
  const uint8_t Str[] = {'a', 'b', 0, 'c'};
  EXPECT_EQ(stringSize(Str, sizeof(Str)), 3);
  EXPECT_EQ(stringSize(Str, 2), NeedMore);
  // offset_pair 1 2, base_address 8 bytes, end.
  const uint8_t List[] = {DW_RLE_offset_pair, 1, 2, DW_RLE_base_address,
                          1, 2, 3, 4, 5, 6, 7, 8, DW_RLE_end_of_list};
  EXPECT_EQ(rangeListSize(List, sizeof(List), 5, 8), int64_t(sizeof(List)));
  for (size_t B = 0; B < sizeof(List); ++B)
    EXPECT_EQ(rangeListSize(List, B, 5, 8), NeedMore) << B;
  // DWARF 4: address pairs up to (0, 0).
  uint64_t Pairs[] = {1, 2, 0, 0};
  EXPECT_EQ(rangeListSize((const uint8_t *)Pairs, sizeof(Pairs), 4, 8), 32);
  EXPECT_EQ(rangeListSize((const uint8_t *)Pairs, 31, 4, 8), NeedMore);
  const uint8_t Unknown[] = {0x3f};
  EXPECT_EQ(rangeListSize(Unknown, 1, 5, 8), Unsupported);
}

} // namespace
