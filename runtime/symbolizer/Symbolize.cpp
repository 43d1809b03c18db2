//===- Symbolize.cpp - Another process's addresses to names, with libdwfl -===//
//
// Part of massif-native, under the MIT licence.
//
// The Dwfl session reports the target process's mappings (from the maps
// file of one of its threads) on first use and again whenever an address
// falls outside every known module (a library dlopen'ed later), plus the
// objects dlclose has unloaded since, which the runtime names, from their
// files. Per module, the function symbols (SymbolTable.h) and the address
// ranges of the compile units are indexed once, so that each address costs
// two binary searches plus libdw's line and scope lookups within one unit.
// The runtime asks for each address once (it keeps the answers).
//
// A module's DWARF is opened only when one of its addresses is printed.
// The model names every frame of every stack to classify it, but prints
// only the frames above main: asking those others for the function name
// alone (functionName) reads the symbol table and nothing else. That
// matters for libc, whose separate debug file is compressed: libdw would
// inflate all of it, so such a file is read unit by unit through a
// DebugImage, and only the units of printed addresses. Debug files are
// found locally only (build-id under /usr/lib/debug, then .gnu_debuglink):
// libdwfl's standard finder would ask debuginfod servers over the network
// at every run.
//
//===----------------------------------------------------------------------===//

#include "Symbolize.h"

#include "Arena.h"
#include "DebugImage.h"
#include "DebugIndex.h"
#include "LineIndex.h"
#include "SymbolTable.h"

#include <cxxabi.h>
#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

using namespace massif;
using namespace massif::symbolizer;

namespace {

/// An object the target unloaded, to report from its file.
struct ClosedObject {
  uint64_t Base;
  const char *Path;
};

struct SymbolizerState {
  int Pid = 0, Tid = 0;
  Dwfl *Session = nullptr;
  bool SessionFailed = false;
  ArenaVector<ClosedObject> Closed;
  uint32_t ClosedReported = 0; // closed objects already reported
};

SymbolizerState State;

/// Opens Path for libdwfl, which takes the descriptor and frees the name.
int openDebugFile(const char *Path, char **DebugFileName) {
  int Fd = open(Path, O_RDONLY | O_CLOEXEC);
  if (Fd >= 0)
    *DebugFileName = strdup(Path); // libdwfl frees it
  return Fd;
}

/// libdwfl's find_debuginfo callback, without debuginfod: the build-id
/// file under /usr/lib/debug, then the .gnu_debuglink name next to the
/// object, in its .debug directory, and under /usr/lib/debug. An absolute
/// DebugLink (a dwz alternate file) is tried as it is.
int findLocalDebuginfo(Dwfl_Module *Mod, void **, const char *,
                       Dwarf_Addr, const char *FileName,
                       const char *DebugLink, GElf_Word, char **DebugFileName) {
  char Path[4096];
  if (DebugLink && DebugLink[0] == '/')
    return openDebugFile(DebugLink, DebugFileName);
  const unsigned char *Bits;
  GElf_Addr Vaddr;
  int BitsB = dwfl_module_build_id(Mod, &Bits, &Vaddr);
  if (BitsB > 1) {
    int Len = snprintf(Path, sizeof(Path), "/usr/lib/debug/.build-id/%02x/",
                       Bits[0]);
    for (int I = 1; I < BitsB && Len + 3 < (int)sizeof(Path); ++I)
      Len += snprintf(Path + Len, sizeof(Path) - Len, "%02x", Bits[I]);
    snprintf(Path + Len, sizeof(Path) - Len, ".debug");
    int Fd = openDebugFile(Path, DebugFileName);
    if (Fd >= 0)
      return Fd;
  }
  if (!DebugLink || !*DebugLink || !FileName)
    return -1;
  const char *Slash = strrchr(FileName, '/');
  int DirB = Slash ? (int)(Slash - FileName) : 0;
  const char *Forms[] = {"%.*s/%s", "%.*s/.debug/%s", "/usr/lib/debug%.*s/%s"};
  for (const char *Form : Forms) {
    snprintf(Path, sizeof(Path), Form, DirB, FileName, DebugLink);
    if (strcmp(Path, FileName) == 0)
      continue; // the object itself
    int Fd = openDebugFile(Path, DebugFileName);
    if (Fd >= 0)
      return Fd;
  }
  return -1;
}

const Dwfl_Callbacks Callbacks = {dwfl_linux_proc_find_elf, findLocalDebuginfo,
                                  nullptr, nullptr};

/// Reports, from their files, the objects dlclose unloaded.
void reportClosedModules() {
  for (uint32_t I = State.ClosedReported; I < State.Closed.Count; ++I)
    dwfl_report_elf(State.Session, State.Closed.Items[I].Path,
                    State.Closed.Items[I].Path, -1, State.Closed.Items[I].Base,
                    false);
  State.ClosedReported = State.Closed.Count;
}

/// The target's mappings, from its thread's maps file.
int reportMappings() {
  char Path[64];
  snprintf(Path, sizeof(Path), "/proc/%d/task/%d/maps", State.Pid, State.Tid);
  FILE *Maps = fopen(Path, "re");
  if (!Maps)
    return dwfl_linux_proc_report(State.Session, State.Pid);
  int Err = dwfl_linux_proc_maps_report(State.Session, Maps);
  fclose(Maps);
  return Err;
}

bool reportModules(bool Initial) {
  if (Initial)
    dwfl_report_begin(State.Session);
  else
    dwfl_report_begin_add(State.Session);
  int Err = reportMappings();
  reportClosedModules();
  dwfl_report_end(State.Session, nullptr, nullptr);
  return Err == 0;
}

bool ensureSession() {
  if (State.Session)
    return true;
  if (State.SessionFailed)
    return false;
  State.Session = dwfl_begin(&Callbacks);
  if (!State.Session || !reportModules(true)) {
    State.SessionFailed = true;
    return false;
  }
  return true;
}

const char *baseName(const char *Path) {
  if (!Path)
    return nullptr;
  const char *Slash = strrchr(Path, '/');
  return Slash ? Slash + 1 : Path;
}

const char *copyName(const char *S) { return S ? arenaStrdup(S) : nullptr; }

/// The unit's DW_AT_comp_dir as Valgrind's line-table reader has it: it
/// reads the attribute in the forms of DWARF 4 and GCC's DWARF 5 (an
/// inline string, or an offset into .debug_str or .debug_line_str), not
/// through the string offsets table clang's DWARF 5 uses (DW_FORM_strx*),
/// and then takes the unit to have none. Null then.
const char *valgrindCompDir(Dwarf_Die *Cu) {
  Dwarf_Attribute Attr;
  if (!Cu || !dwarf_attr(Cu, DW_AT_comp_dir, &Attr))
    return nullptr;
  switch (dwarf_whatform(&Attr)) {
  case DW_FORM_string:
  case DW_FORM_strp:
  case DW_FORM_line_strp:
  case DW_FORM_GNU_strp_alt:
    return dwarf_formstring(&Attr);
  default:
    return nullptr;
  }
}

/// The directory Valgrind gives for the file Path (libdw's joining of the
/// line table's directory and name entries) whose name entry is Name, in
/// unit Cu: the directory entry, made "<comp_dir>/<entry>" when relative,
/// except the compilation directory itself, entry 0 before DWARF 5 (so
/// glibc's DWARF 5 entry "./string" under comp_dir "./string" gives
/// "./string/./string"), and as it is when Valgrind finds no comp_dir
/// (valgrindCompDir: clang's DWARF 5 entry "inc" under comp_dir "/build"
/// gives "inc"). A relative entry equal to the compilation directory is
/// told from entry 0 by the line program's header (clang's DWARF 4 entry 1
/// "." under comp_dir "." gives "./."). Empty when Name is the whole path.
const char *dirName(const char *Path, const char *Name, Dwarf_Die *Cu,
                    UnitLines &Lines, Dwarf *Dw) {
  if (!Path || !Name)
    return nullptr;
  size_t PathLen = strlen(Path), NameLen = strlen(Name);
  if (NameLen >= PathLen || Path[PathLen - NameLen - 1] != '/' ||
      strcmp(Path + PathLen - NameLen, Name) != 0)
    return "";
  size_t DirLen = PathLen - NameLen - 1;
  const char *CompDir = valgrindCompDir(Cu);
  Dwarf_Half Version = 0;
  if (Cu)
    dwarf_cu_info(Cu->cu, &Version, nullptr, nullptr, nullptr, nullptr,
                  nullptr, nullptr);
  size_t CompLen = CompDir ? strlen(CompDir) : 0;
  bool IsCompDir = CompDir && DirLen == CompLen &&
                   strncmp(Path, CompDir, DirLen) == 0;
  if (IsCompDir && Version < 5 && Path[0] != '/')
    IsCompDir = Lines.fileDirectory(Dw, Cu, Path) <= 0;
  bool Prefix = Path[0] != '/' && CompLen > 0 && !(IsCompDir && Version < 5);
  size_t Len = (Prefix ? CompLen + 1 : 0) + DirLen;
  char *D = (char *)arenaAllocate(Len + 1);
  if (!D)
    return nullptr;
  size_t At = 0;
  if (Prefix) {
    memcpy(D, CompDir, CompLen);
    D[CompLen] = '/';
    At = CompLen + 1;
  }
  memcpy(D + At, Path, DirLen);
  D[Len] = 0;
  return D;
}

/// The file name as Valgrind prints it: the name entry of the line table,
/// without the include directory it is relative to (so "src/a.c" when the
/// compiler recorded directory "/proj" and name "src/a.c"). libdw hands out
/// the two joined; the longest directory of the unit that prefixes the
/// joined path is taken off again.
const char *lineTableName(const char *const *Dirs, size_t NumDirs,
                          const char *Path) {
  if (!Path)
    return nullptr;
  if (!Dirs)
    return baseName(Path);
  const char *Best = Path; // an absolute name entry is printed whole
  {
    const char *CompDir = NumDirs > 0 ? Dirs[0] : nullptr;
    for (size_t I = 0; I < NumDirs; ++I) {
      const char *Dir = Dirs[I];
      if (!Dir || !*Dir)
        continue;
      const char *Rest = nullptr;
      size_t Len = strlen(Dir);
      if (strncmp(Path, Dir, Len) == 0 && Path[Len] == '/') {
        Rest = Path + Len + 1;
      } else if (Dir[0] != '/' && CompDir) { // relative to the unit's dir
        size_t CompLen = strlen(CompDir);
        if (strncmp(Path, CompDir, CompLen) == 0 && Path[CompLen] == '/' &&
            strncmp(Path + CompLen + 1, Dir, Len) == 0 &&
            Path[CompLen + 1 + Len] == '/')
          Rest = Path + CompLen + 1 + Len + 1;
      }
      if (Rest && strlen(Rest) < strlen(Best))
        Best = Rest;
    }
  }
  return Best;
}

/// A unit's line table: the LineIndex of a large unit, or libdw's.
struct UnitFiles {
  Dwarf_Die *Cu;
  const LineIndex *Index;

  /// The path and line of the row for A, the path as Valgrind's merged
  /// ranges give it (MergedRanges); false when the table has none. Where
  /// the index cannot tell, libdw's table answers, from then on.
  bool lineAt(Dwarf_Addr A, const char *&Src, int64_t &Line) {
    if (Index) {
      uint64_t File;
      switch (Index->find(A, File, Line)) {
      case LineIndex::Found:
        Src = Index->filePath(Index->valgrindFile(A, File));
        return Src != nullptr;
      case LineIndex::NotFound:
        return false;
      case LineIndex::Unknown:
        Index = nullptr;
        break;
      }
    }
    Dwarf_Line *L = Cu ? dwarf_getsrc_die(Cu, A) : nullptr;
    int No;
    if (!L || dwarf_lineno(L, &No) != 0)
      return false;
    Src = dwarf_linesrc(mergedRow(L), nullptr, nullptr);
    Line = No;
    return Src != nullptr;
  }

  /// The row whose file Valgrind gives the range of row L
  /// (MergedRanges): libdw's rows of L's sequence again, to L's range.
  Dwarf_Line *mergedRow(Dwarf_Line *L) const {
    Dwarf_Lines *Lines;
    size_t N;
    Dwarf_Addr At;
    if (dwarf_getsrclines(Cu, &Lines, &N) != 0 || dwarf_lineaddr(L, &At) != 0)
      return L;
    // The last row at or below L's address (libdw's rows are in address
    // order, a sequence's end before rows at its address): the one whose
    // range holds it.
    size_t Lo = 0, Hi = N;
    while (Lo < Hi) {
      size_t Mid = (Lo + Hi) / 2;
      Dwarf_Addr MidAt;
      if (dwarf_lineaddr(dwarf_onesrcline(Lines, Mid), &MidAt) == 0 &&
          MidAt <= At)
        Lo = Mid + 1;
      else
        Hi = Mid;
    }
    bool End;
    if (Lo == 0 ||
        dwarf_lineendsequence(dwarf_onesrcline(Lines, Lo - 1), &End) != 0 ||
        End)
      return L;
    // Back to where the merging's state is known (LineIndex::mergedFile):
    // the sequence's first row, or a range after one of another line or
    // one kept as a single byte. Empty ranges change nothing.
    size_t I = Lo - 1, First = I;
    int Line;
    if (dwarf_lineno(dwarf_onesrcline(Lines, I), &Line) != 0)
      return L;
    while (First > 0) {
      Dwarf_Line *Before = dwarf_onesrcline(Lines, First - 1);
      Dwarf_Addr BeforeAt, FirstAt;
      int BeforeNo;
      if (dwarf_lineendsequence(Before, &End) != 0 || End ||
          dwarf_lineaddr(Before, &BeforeAt) != 0 ||
          dwarf_lineaddr(dwarf_onesrcline(Lines, First), &FirstAt) != 0 ||
          dwarf_lineno(Before, &BeforeNo) != 0)
        break;
      if (FirstAt != BeforeAt &&
          (BeforeNo != Line || !MergedRanges::keptWhole(BeforeAt, FirstAt)))
        break;
      --First;
    }
    MergedRanges Merged;
    for (size_t K = First; K <= I && K + 1 < N; ++K) {
      Dwarf_Line *Row = dwarf_onesrcline(Lines, K);
      Dwarf_Addr RowAt, NextAt;
      int RowNo;
      if (dwarf_lineaddr(Row, &RowAt) != 0 ||
          dwarf_lineaddr(dwarf_onesrcline(Lines, K + 1), &NextAt) != 0 ||
          dwarf_lineno(Row, &RowNo) != 0)
        return L;
      Merged.add(RowAt, NextAt, K, RowNo);
    }
    return Merged.Any ? dwarf_onesrcline(Lines, Merged.File) : L;
  }

  /// The name under which Valgrind prints the file Path of the table.
  const char *printedName(const char *Path) const {
    const char *const *Dirs = nullptr;
    size_t NumDirs = 0;
    Dwarf_Files *Files;
    size_t NumFiles;
    if (Index)
      Dirs = Index->dirs(NumDirs);
    else if (!Cu || dwarf_getsrcfiles(Cu, &Files, &NumFiles) != 0 ||
             dwarf_getsrcdirs(Files, &Dirs, &NumDirs) != 0)
      Dirs = nullptr;
    return lineTableName(Dirs, NumDirs, Path);
  }
  /// The path of file Index of the table.
  const char *path(uint64_t File) const {
    if (Index)
      return Index->filePath(File);
    Dwarf_Files *Files;
    size_t NumFiles;
    if (dwarf_getsrcfiles(Cu, &Files, &NumFiles) != 0)
      return nullptr;
    return dwarf_filesrc(Files, File, nullptr, nullptr);
  }
};

/// The source file of a DW_AT_call_file index in the unit's table.
const char *callFile(const UnitFiles &U, Dwarf_Die *Inlined) {
  Dwarf_Attribute Attr;
  Dwarf_Word Index;
  if (dwarf_formudata(dwarf_attr(Inlined, DW_AT_call_file, &Attr), &Index) != 0)
    return nullptr;
  return U.path(Index);
}

uint32_t callLine(Dwarf_Die *Inlined) {
  Dwarf_Attribute Attr;
  Dwarf_Word Line;
  if (dwarf_formudata(dwarf_attr(Inlined, DW_AT_call_line, &Attr), &Line) != 0)
    return 0;
  return (uint32_t)Line;
}

/// What is indexed once per module, kept in libdwfl's per-module slot.
/// The symbols come first; the DWARF when an address is described.
struct ModuleData {
  SymbolTable *Symbols;
  bool DwarfOpened;
  bool ImageTried;   ///< openImage was called
  DebugImage *Image; ///< compressed DWARF, loaded unit by unit; or null
  ArenaVector<uint64_t> Pending; ///< Image's addresses to load units for
  DebugIndex *Debug;
  Dwarf *Dw;
  Dwarf_Addr Bias;
  const char *Object;
  UnitLines Lines; ///< of the whole DWARF's large units
};

ModuleData *moduleData(Dwfl_Module *Mod) {
  void **Slot;
  const char *Name = dwfl_module_info(Mod, &Slot, nullptr, nullptr, nullptr,
                                      nullptr, nullptr, nullptr);
  if (*Slot)
    return (ModuleData *)*Slot;
  ModuleData *M = (ModuleData *)arenaAllocate(sizeof(ModuleData));
  if (!M)
    return nullptr;
  M->Object = copyName(Name);
  M->Symbols = buildSymbolTable(Mod);
  *Slot = M;
  return M;
}

/// The virtual address of an ELF file's first PT_LOAD segment, or 0.
uint64_t firstLoadVaddr(Elf *E) {
  size_t NumPhdrs = 0;
  if (elf_getphdrnum(E, &NumPhdrs) != 0)
    return 0;
  for (size_t I = 0; I < NumPhdrs; ++I) {
    GElf_Phdr Mem;
    GElf_Phdr *Ph = gelf_getphdr(E, int(I), &Mem);
    if (Ph && Ph->p_type == PT_LOAD)
      return Ph->p_vaddr;
  }
  return 0;
}

/// Opens the module's DWARF as a DebugImage, once, when its file (the
/// separate debug file libdwfl found for the symbols, else the object
/// itself) has compressed sections that can be loaded unit by unit.
/// Whether the module has one.
bool openImage(Dwfl_Module *Mod, ModuleData &M) {
  if (M.ImageTried)
    return M.Image != nullptr;
  M.ImageTried = true;
  GElf_Addr MainBias;
  Elf *Main = dwfl_module_getelf(Mod, &MainBias);
  const char *MainFile = nullptr, *DebugFile = nullptr;
  dwfl_module_info(Mod, nullptr, nullptr, nullptr, nullptr, nullptr,
                   &MainFile, &DebugFile);
  const char *Path = DebugFile ? DebugFile : MainFile;
  DebugImage *Image = Main && Path ? openDebugImage(Path) : nullptr;
  if (!Image)
    return false;
  // The debug file's addresses are the object's, give or take where each
  // puts its first segment.
  M.Image = Image;
  M.Bias = MainBias + firstLoadVaddr(Main) - imageLoadVaddr(Image);
  return true;
}

/// Opens the module's whole DWARF through libdwfl and indexes it.
void openWholeDwarf(Dwfl_Module *Mod, ModuleData &M) {
  M.Dw = dwfl_module_getdwarf(Mod, &M.Bias);
  M.Debug = M.Dw ? buildDebugIndex(M.Dw) : nullptr;
}

/// Opens the module's DWARF, once.
void openDwarf(Dwfl_Module *Mod, ModuleData &M) {
  if (M.DwarfOpened)
    return;
  M.DwarfOpened = true;
  if (!openImage(Mod, M))
    openWholeDwarf(Mod, M);
}

/// Loads the units of the addresses prepare noted, in file order.
void loadPendingUnits(ModuleData &M) {
  if (M.Image && M.Pending.Count)
    loadUnitsFor(M.Image, M.Pending); // on failure, unitFor says so
  M.Pending.release();
}

/// The compile unit of Pc from the module's DebugImage, loading it if
/// needed (and then indexing the units loaded so far again). A unit the
/// image cannot load alone sends the module back to its whole DWARF.
Dwarf_Die *imageCu(Dwfl_Module *Mod, ModuleData &M, uint64_t Pc,
                   Dwarf_Die &CuMem, bool &Whole) {
  Whole = false;
  Dwarf_Off Die;
  switch (unitFor(M.Image, Pc - M.Bias, Die)) {
  case UnitLookup::None:
    return nullptr;
  case UnitLookup::Failed:
    closeDebugImage(M.Image);
    M.Image = nullptr;
    freeDebugIndex(M.Debug);
    openWholeDwarf(Mod, M);
    Whole = true;
    return nullptr;
  case UnitLookup::Found:
    break;
  }
  if (M.Dw != imageDwarf(M.Image)) {
    M.Dw = imageDwarf(M.Image);
    freeDebugIndex(M.Debug);
    M.Debug = buildDebugIndex(M.Dw);
  }
  return dwarf_offdie(M.Dw, Die, &CuMem);
}

/// The module of Pc, reporting the process's mappings again when no known
/// module has it (a library loaded since). Null when none does.
Dwfl_Module *moduleOf(uint64_t Pc) {
  if (!ensureSession())
    return nullptr;
  Dwfl_Module *Mod = dwfl_addrmodule(State.Session, Pc);
  if (!Mod && reportModules(false))
    Mod = dwfl_addrmodule(State.Session, Pc);
  return Mod;
}

/// The compile unit containing Pc (a runtime address): from the index, or
/// from libdw's .debug_aranges (units the index could not range).
Dwarf_Die *findCu(Dwfl_Module *Mod, ModuleData &M, uint64_t Pc,
                  Dwarf_Die &CuMem, Dwarf_Addr &Bias) {
  Bias = M.Bias;
  if (M.Image) {
    bool Whole;
    Dwarf_Die *Cu = imageCu(Mod, M, Pc, CuMem, Whole);
    if (!Whole)
      return Cu;
    Bias = M.Bias;
  }
  if (!M.Dw)
    return nullptr;
  if (findUnit(M.Debug, Pc - M.Bias, CuMem))
    return &CuMem;
  return dwfl_module_addrdie(Mod, Pc, &Bias);
}

/// The scopes around A in Cu, innermost first, ending with the subprogram;
/// in libdw's memory (free it) or in Local. Returns their number.
int scopesOf(const ModuleData &M, Dwarf_Die *Cu, Dwarf_Addr A,
             Dwarf_Die *Local, int MaxLocal, Dwarf_Die *&Scopes) {
  Scopes = Local;
  int N = scopesAt(M.Debug, *Cu, A, Local, MaxLocal);
  if (N > 0)
    return N;
  // A function the index does not see (nested in a class or another
  // function): libdw's search of the whole unit. dwarf_getscopes continues
  // above an inlined subroutine with the scopes of its abstract
  // definition; the chain of calls is the concrete nesting of the
  // innermost scope.
  Dwarf_Die *Found = nullptr;
  N = dwarf_getscopes(Cu, A, &Found);
  if (N <= 0)
    return 0;
  Dwarf_Die Innermost = Found[0];
  free(Found); // libdw's
  N = dwarf_getscopes_die(&Innermost, &Scopes);
  return N > 0 ? N : 0;
}

/// The demangled name of the ELF symbol covering Pc in M, or null.
const char *symbolName(const ModuleData &M, uint64_t Pc) {
  const char *SymName = symbolAt(M.Symbols, Pc);
  return SymName ? demangle(SymName) : nullptr;
}

/// Fills Out (capacity MaxInlineFrames) with the frames of Pc.
uint32_t describeUncached(uint64_t Pc, FrameInfo *Out) {
  Out[0] = FrameInfo{nullptr, nullptr, 0, nullptr};
  Dwfl_Module *Mod = moduleOf(Pc);
  ModuleData *M = Mod ? moduleData(Mod) : nullptr;
  if (!M)
    return 1;
  openDwarf(Mod, *M);
  loadPendingUnits(*M);
  const char *Object = M->Object;
  const char *RealName = symbolName(*M, Pc);

  Dwarf_Addr Bias = 0;
  Dwarf_Die CuMem;
  Dwarf_Die *Cu = findCu(Mod, *M, Pc, CuMem, Bias);

  // The innermost file:line comes from the line table: a large unit's
  // from its LineIndex (libdw's table of sqlite3.c takes 17 MB), others'
  // and what the index cannot answer from libdw.
  UnitFiles Unit = {Cu, Cu && !M->Image ? M->Lines.of(M->Dw, Cu) : nullptr};
  const char *Src;
  int64_t LineNo;
  const char *File = nullptr, *Dir = nullptr;
  uint32_t Line = 0;
  // A row of line 0 (code the compiler could not attribute to a line,
  // common at -O2 in inlined templates) is printed "file:0", as Valgrind
  // prints it.
  if (Unit.lineAt(Pc - Bias, Src, LineNo) && LineNo >= 0) {
    File = copyName(Unit.printedName(Src));
    Dir = dirName(Src, File, Cu, M->Lines, M->Dw);
    Line = (uint32_t)LineNo;
  }

  uint32_t N = 0;
  Dwarf_Die Local[MaxInlineFrames];
  Dwarf_Die *Scopes = nullptr;
  int NumScopes =
      Cu ? scopesOf(*M, Cu, Pc - Bias, Local, MaxInlineFrames, Scopes) : 0;
  const char *DwarfName = nullptr; // of the out-of-line function
  for (int I = 0; I < NumScopes && N + 1 < MaxInlineFrames; ++I) {
    int Tag = dwarf_tag(&Scopes[I]);
    if (Tag == DW_TAG_subprogram) {
      DwarfName = dwarf_diename(&Scopes[I]);
      break;
    }
    if (Tag != DW_TAG_inlined_subroutine)
      continue;
    // Each inlined level is named by its DWARF name and placed at the
    // position inside it (for the innermost, the line table's; for the
    // others, where they call the next inner level).
    Out[N++] = FrameInfo{copyName(dwarf_diename(&Scopes[I])), File, Line,
                         Object, Dir};
    const char *CallFile = callFile(Unit, &Scopes[I]);
    File = CallFile ? copyName(Unit.printedName(CallFile)) : nullptr;
    Dir = dirName(CallFile, File, Cu, M->Lines, M->Dw);
    Line = File ? callLine(&Scopes[I]) : 0;
  }
  // The out-of-line function, by its ELF symbol like Valgrind; its DWARF
  // name when the symbol table has none.
  const char *Function = RealName ? RealName : copyName(DwarfName);
  if (Scopes != Local)
    free(Scopes); // libdw's
  Out[N++] = FrameInfo{Function, File, Line, Object, Dir};
  return N;
}

} // namespace

const char *symbolizer::demangle(const char *Name) {
  if (Name[0] != '_' || Name[1] != 'Z')
    return copyName(Name);
  // A versioned symbol ("_ZN...@@GLIBCXX_3.4") is demangled without its
  // version, which is then put back.
  const char *At = strchr(Name, '@');
  size_t MangledB = At ? (size_t)(At - Name) : strlen(Name);
  char *Mangled = arenaStrdup(Name, MangledB);
  if (!Mangled)
    return Name;
  int Status = -1;
  char *Plain = abi::__cxa_demangle(Mangled, nullptr, nullptr, &Status);
  arenaDeallocate(Mangled, MangledB + 1);
  if (Status != 0 || !Plain)
    return copyName(Name);
  size_t PlainB = strlen(Plain);
  size_t SuffixB = At ? strlen(At) : 0;
  char *Result = (char *)arenaAllocate(PlainB + SuffixB + 1);
  if (Result) {
    memcpy(Result, Plain, PlainB);
    if (At)
      memcpy(Result + PlainB, At, SuffixB);
  }
  free(Plain); // __cxa_demangle's
  return Result ? Result : Name;
}

void symbolizer::setTarget(int Pid, int Tid) {
  State.Pid = Pid;
  State.Tid = Tid;
}

void symbolizer::addClosedObject(uint64_t Base, const char *Path) {
  State.Closed.push(ClosedObject{Base, copyName(Path)});
}

void symbolizer::prepare(const uint64_t *Pcs, uint32_t NumPcs) {
  for (uint32_t I = 0; I < NumPcs; ++I) {
    Dwfl_Module *Mod = moduleOf(Pcs[I]);
    ModuleData *M = Mod ? moduleData(Mod) : nullptr;
    if (!M)
      continue;
    if (!M->DwarfOpened && openImage(Mod, *M))
      M->DwarfOpened = true;
    if (M->Image)
      M->Pending.push(Pcs[I] - M->Bias);
  }
}

uint32_t symbolizer::describe(uint64_t Pc, FrameInfo *Out) {
  return describeUncached(Pc, Out);
}

const char *symbolizer::functionName(uint64_t Pc) {
  Dwfl_Module *Mod = moduleOf(Pc);
  ModuleData *M = Mod ? moduleData(Mod) : nullptr;
  return M ? symbolName(*M, Pc) : nullptr;
}
