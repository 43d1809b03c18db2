//===- Modules.cpp - Frame-pointer code and objects closed by dlclose -----===//
//
// Part of massif-native, under the MIT licence.
//
// Nothing here allocates from the heap: lists live in static arrays or in
// arena memory, and the loader's own list is read with walkLoadedObjects.
// The one lock (ModulesLock) is taken inside those walks' callbacks, with
// the dynamic linker's lock and LoaderLock held, and never held across a
// call into the dynamic linker.
//
//===----------------------------------------------------------------------===//

#include "Modules.h"
#include "SystemMemory.h"

#include "Arena.h"
#include "EhFrame.h"
#include "FrameRules.h"
#include "LoadedObject.h"
#include "LoaderWalk.h"
#include "Lock.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "massif/abi.h"

using namespace massif;
using namespace massif::native;

CodeRange native::FramePointerRanges[MaxFramePointerRanges];
uint32_t native::NumFramePointerRanges = 0;

namespace {

Mutex ModulesLock;

/// Objects already classified, by load address and program headers.
struct SeenModule {
  uint64_t Addr;
  const void *Phdr;
};
constexpr uint32_t MaxSeen = 512;
SeenModule Seen[MaxSeen];
uint32_t NumSeen = 0;

constexpr uint32_t MaxClosed = 256;
ClosedModule Closed[MaxClosed];
uint32_t NumClosed = 0;

/// The frame-pointer ranges of one module's code: its executable segments
/// less the functions whose .eh_frame entries never take the CFA from RBP
/// (code linked in without frame pointers, e.g. a prebuilt static library,
/// or crt1's _start). Code without an entry, or whose entry shows it never
/// calls, goes with the entry before it.
struct RangeSplit {
  static constexpr uint32_t Max = MaxFramePointerRanges;
  CodeRange Out[Max];
  uint32_t N = 0;
  uint64_t SegLo = 0, SegHi = 0;
  uint64_t From = 0; // start of the current frame-pointer run
  bool InRun = true;

  void emit(uint64_t Lo, uint64_t Hi) {
    if (Hi > Lo && N < Max)
      Out[N++] = {Lo, Hi - Lo};
  }
  void segment(uint64_t Lo, uint64_t Hi) {
    SegLo = From = Lo;
    SegHi = Hi;
    InRun = true;
  }
  void fde(const FdeSummary &F) {
    if (F.Begin < SegLo || F.Begin >= SegHi || F.NeverCalls ||
        F.KeepsFramePointer == InRun)
      return;
    if (InRun)
      emit(From, F.Begin);
    else
      From = F.Begin;
    InRun = F.KeepsFramePointer;
  }
  void endSegment() {
    if (InRun)
      emit(From, SegHi);
  }
  static void onFde(void *Self, const FdeSummary &F) {
    ((RangeSplit *)Self)->fde(F);
  }
};

/// Adds the frame-pointer code of Info to the frame-pointer ranges, its
/// two largest ranges first (the walk tests the executable's first two
/// ranges before any other: the code crt1's _start or the PLT cut out often
/// splits it in two halves). ModulesLock held.
void addCodeRanges(const dl_phdr_info &Info) {
  const uint8_t *EhFrameHdr = ehFrameHdrOf(Info);
  static RangeSplit Split; // under ModulesLock; too big for a thread's stack
  Split.N = 0;
  for (int I = 0; I < Info.dlpi_phnum; ++I) {
    const ElfW(Phdr) &Ph = Info.dlpi_phdr[I];
    if (Ph.p_type != PT_LOAD || !(Ph.p_flags & PF_X))
      continue;
    uint64_t Lo = Info.dlpi_addr + Ph.p_vaddr;
    Split.segment(Lo, Lo + Ph.p_memsz);
    if (EhFrameHdr)
      forEachFde(EhFrameHdr, RangeSplit::onFde, &Split);
    Split.endSegment();
  }
  for (uint32_t First = 0; First < 2; ++First)
    for (uint32_t I = First + 1; I < Split.N; ++I)
      if (Split.Out[I].SizeB > Split.Out[First].SizeB) {
        CodeRange Largest = Split.Out[I];
        Split.Out[I] = Split.Out[First];
        Split.Out[First] = Largest;
      }
  uint32_t N = NumFramePointerRanges;
  // Ranges that do not fit are walked by their .eh_frame rules instead.
  for (uint32_t I = 0; I < Split.N && N < MaxFramePointerRanges; ++I)
    FramePointerRanges[N++] = Split.Out[I];
  __atomic_store_n(&NumFramePointerRanges, N, __ATOMIC_RELEASE);
}

/// Whether the object's dynamic string table names the runtime's ABI
/// version symbol: every object the pass compiled references it.
bool isInstrumented(const dl_phdr_info &Info) {
  const ElfW(Dyn) *Dyn = dynamicSection(Info);
  if (!Dyn)
    return false;
  uint64_t StrTab = 0, StrSz = 0;
  for (; Dyn->d_tag != DT_NULL; ++Dyn) {
    if (Dyn->d_tag == DT_STRTAB)
      StrTab = Dyn->d_un.d_ptr;
    else if (Dyn->d_tag == DT_STRSZ)
      StrSz = Dyn->d_un.d_val;
  }
  if (!StrTab || !StrSz)
    return false;
  // The loader relocates these entries in place, except in read-only
  // dynamic sections (the vDSO's).
  if (StrTab < Info.dlpi_addr)
    StrTab += Info.dlpi_addr;
  static const char Name[] = MASSIF_ABI_VERSION_SYMBOL;
  return memmem((const void *)StrTab, StrSz, Name, sizeof(Name)) != nullptr;
}

int initOne(dl_phdr_info *Info, size_t, void *) {
  // The executable holds the runtime: mscc compiled it with frame pointers.
  if (containsAddress(*Info, (uint64_t)(uintptr_t)&initModules)) {
    MutexLock L(ModulesLock);
    addCodeRanges(*Info);
    if (NumSeen < MaxSeen)
      Seen[NumSeen++] = {Info->dlpi_addr, Info->dlpi_phdr};
    return 0;
  }
  noteModule(*Info);
  return 0;
}

} // namespace

void native::modulesBeforeFork() { ModulesLock.lock(); }

void native::modulesAfterForkParent() { ModulesLock.unlock(); }

void native::modulesAfterForkChild() { ModulesLock.reset(); }

void native::initModules() {
  static bool Done = false;
  if (__atomic_exchange_n(&Done, true, __ATOMIC_ACQ_REL))
    return;
  walkLoadedObjects(initOne, nullptr);
}

void native::noteModule(const dl_phdr_info &Info) {
  {
    MutexLock L(ModulesLock);
    for (uint32_t I = 0; I < NumSeen; ++I)
      if (Seen[I].Addr == Info.dlpi_addr && Seen[I].Phdr == Info.dlpi_phdr)
        return;
    if (NumSeen < MaxSeen)
      Seen[NumSeen++] = {Info.dlpi_addr, Info.dlpi_phdr};
  }
  if (!isInstrumented(Info))
    return;
  MutexLock L(ModulesLock);
  addCodeRanges(Info);
}

void native::noteModuleAt(uint64_t Addr) {
  dl_phdr_info Info;
  const uint8_t *EhFrameHdr;
  if (findLoadedObject(Addr, Info, EhFrameHdr))
    noteModule(Info);
}

int native::openProcessMaps() {
  int Fd = open("/proc/thread-self/maps", O_RDONLY | O_CLOEXEC);
  return Fd >= 0 ? Fd : open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
}

const ClosedModule *native::closedModules(uint32_t &Count) {
  Count = __atomic_load_n(&NumClosed, __ATOMIC_ACQUIRE);
  return Closed;
}

//===-- dlclose -----------------------------------------------------------===//

namespace {

/// One loaded object in a snapshot of the loader's list.
struct Loaded {
  uint64_t Addr;    // dlpi_addr
  const void *Phdr; // dlpi_phdr: with Addr, identifies the object
  uint64_t Base, Lo, Hi;
};

struct Snapshot {
  Loaded *Items;
  uint32_t Count, Cap;
};

int snapshotOne(dl_phdr_info *Info, size_t, void *Data) {
  Snapshot &S = *(Snapshot *)Data;
  if (S.Count == S.Cap)
    return 1;
  Loaded M = {Info->dlpi_addr, Info->dlpi_phdr, 0, UINT64_MAX, 0};
  bool First = true;
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &Ph = Info->dlpi_phdr[I];
    if (Ph.p_type != PT_LOAD)
      continue;
    uint64_t Align = Ph.p_align > 4096 ? Ph.p_align : 4096;
    uint64_t Lo = (Info->dlpi_addr + Ph.p_vaddr) & ~(uint64_t)4095;
    uint64_t Hi = (Info->dlpi_addr + Ph.p_vaddr + Ph.p_memsz + 4095) &
                  ~(uint64_t)4095;
    if (First)
      M.Base = Info->dlpi_addr + (Ph.p_vaddr & ~(Align - 1));
    First = false;
    if (Lo < M.Lo)
      M.Lo = Lo;
    if (Hi > M.Hi)
      M.Hi = Hi;
  }
  if (!First)
    S.Items[S.Count++] = M;
  return 0;
}

bool takeSnapshot(Snapshot &S) {
  S.Cap = 2048;
  S.Count = 0;
  S.Items = (Loaded *)arenaAllocate(S.Cap * sizeof(Loaded));
  if (!S.Items)
    return false;
  walkLoadedObjects(snapshotOne, &S);
  return true;
}

void dropSnapshot(Snapshot &S) {
  arenaDeallocate(S.Items, S.Cap * sizeof(Loaded));
}

/// The text of the process's maps file, in arena memory.
struct MapsText {
  char *Text;
  size_t SizeB, CapB;
};

bool readMaps(MapsText &M) {
  M.SizeB = 0;
  M.CapB = 64 * 1024;
  M.Text = (char *)arenaAllocate(M.CapB);
  int Fd = openProcessMaps();
  if (Fd < 0 || !M.Text) {
    if (Fd >= 0)
      close(Fd);
    if (M.Text)
      M.Text[0] = 0; // no mapping known
    return M.Text != nullptr;
  }
  for (;;) {
    if (M.SizeB + 1 == M.CapB) {
      char *Bigger = (char *)arenaAllocate(M.CapB * 2);
      if (!Bigger)
        break;
      memcpy(Bigger, M.Text, M.SizeB);
      arenaDeallocate(M.Text, M.CapB);
      M.Text = Bigger;
      M.CapB *= 2;
    }
    ssize_t N = read(Fd, M.Text + M.SizeB, M.CapB - 1 - M.SizeB);
    if (N <= 0)
      break;
    M.SizeB += (size_t)N;
  }
  M.Text[M.SizeB] = 0;
  close(Fd);
  return true;
}

/// The hexadecimal number at P (lower case, as the kernel writes it), and
/// where it ends. (Not strtoull: at start-up, for the main thread's stack,
/// its page of libc would be one more the program keeps resident.)
uint64_t hexAt(const char *&P) {
  uint64_t V = 0;
  for (;; ++P) {
    char C = *P;
    uint64_t D = C >= '0' && C <= '9'   ? uint64_t(C - '0')
                 : C >= 'a' && C <= 'f' ? uint64_t(C - 'a' + 10)
                                        : 16;
    if (D == 16)
      return V;
    V = V << 4 | D;
  }
}

/// The address range of the maps file's Line ("lo-hi perms offset dev
/// inode   path"); Hi is 0 on a line that does not begin with one.
void mappingRange(const char *Line, uint64_t &Lo, uint64_t &Hi) {
  Lo = hexAt(Line);
  Hi = *Line == '-' ? hexAt(++Line) : 0;
}

/// The path of the file mapped at Addr, copied into arena memory, or null.
const char *mappedPath(const MapsText &M, uint64_t Addr) {
  for (const char *Line = M.Text; Line && *Line;) {
    const char *Nl = strchr(Line, '\n');
    uint64_t Lo, Hi;
    mappingRange(Line, Lo, Hi);
    if (Addr >= Lo && Addr < Hi) {
      const char *Path = (const char *)memchr(Line, '/', Nl ? (size_t)(Nl - Line) : strlen(Line));
      if (!Path)
        return nullptr;
      size_t LenB = Nl ? (size_t)(Nl - Path) : strlen(Path);
      return arenaStrdup(Path, LenB);
    }
    Line = Nl ? Nl + 1 : nullptr;
  }
  return nullptr;
}

} // namespace

bool native::mainStackFromMaps(uintptr_t StackEnd, uintptr_t &Lo,
                               uintptr_t &Hi) {
  struct rlimit Limit;
  uintptr_t PageB = (uintptr_t)getauxval(AT_PAGESZ);
  MapsText M;
  if (!PageB || getrlimit(RLIMIT_STACK, &Limit) != 0 || !readMaps(M))
    return false;
  bool Found = false;
  uint64_t LastTo = 0;
  for (const char *Line = M.Text; Line && *Line && !Found;) {
    uint64_t From, To;
    mappingRange(Line, From, To);
    if (From <= StackEnd && StackEnd < To) {
      uintptr_t Top = (StackEnd & ~(PageB - 1)) + PageB;
      uintptr_t SizeB = (uintptr_t(Limit.rlim_cur) - (To - Top)) & ~(PageB - 1);
      if (SizeB > Top - LastTo)
        SizeB = Top - LastTo;
      Lo = Top - SizeB;
      Hi = Top;
      Found = true;
    }
    LastTo = To;
    Line = strchr(Line, '\n');
    Line = Line ? Line + 1 : nullptr;
  }
  arenaDeallocate(M.Text, M.CapB);
  return Found;
}

namespace {

/// Withdraws an unloaded object's code from the frame-pointer ranges.
void withdrawRanges(uint64_t Lo, uint64_t Hi) {
  uint32_t N = __atomic_load_n(&NumFramePointerRanges, __ATOMIC_ACQUIRE);
  for (uint32_t I = 0; I < N; ++I)
    if (FramePointerRanges[I].Lo >= Lo && FramePointerRanges[I].Lo < Hi)
      __atomic_store_n(&FramePointerRanges[I].SizeB, 0, __ATOMIC_RELEASE);
}

/// Records an object dlclose unmapped (paths were read before it did).
void noteClosed(const Loaded &M, const char *Path) {
  MutexLock L(ModulesLock);
  for (uint32_t I = 0; I < NumClosed; ++I)
    if (Closed[I].Lo == M.Lo && Closed[I].Base == M.Base)
      return; // a nested dlclose (from a destructor) saw it first
  for (uint32_t I = 0; I < NumSeen; ++I)
    if (Seen[I].Addr == M.Addr && Seen[I].Phdr == M.Phdr)
      Seen[I] = Seen[--NumSeen];
  // Keep the addresses from being reused, so that those already captured
  // keep naming this object. Without the reservation, forget what is known
  // about the code there.
  void *Want = (void *)(uintptr_t)M.Lo;
  size_t SizeB = M.Hi - M.Lo;
  bool Reserved = false;
  if (NumClosed < MaxClosed && Path) {
    void *P = systemMmap(Want, SizeB, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
                       MAP_FIXED_NOREPLACE,
                   -1, 0);
    if (P == Want)
      Reserved = true;
    else if (P != MAP_FAILED)
      systemMunmap(P, SizeB); // an old kernel took the address as a hint
  }
  withdrawRanges(M.Lo, M.Hi);
  if (!Reserved) {
    forgetFrameRules(M.Lo, M.Hi);
    return;
  }
  Closed[NumClosed] = {Path, M.Base, M.Lo, M.Hi};
  __atomic_store_n(&NumClosed, NumClosed + 1, __ATOMIC_RELEASE);
}

} // namespace

int native::dlcloseNotingModules(int (*Real)(void *), void *Handle) {
  Snapshot Before;
  if (!takeSnapshot(Before))
    return Real(Handle);
  // Paths must be read while the objects are mapped; which ones go is
  // known only afterwards.
  MapsText Maps = {nullptr, 0, 0};
  bool HaveMaps = readMaps(Maps);
  int Result = Real(Handle);
  Snapshot After;
  if (takeSnapshot(After)) {
    for (uint32_t I = 0; I < Before.Count; ++I) {
      const Loaded &M = Before.Items[I];
      bool Still = false;
      for (uint32_t J = 0; J < After.Count && !Still; ++J)
        Still = After.Items[J].Addr == M.Addr && After.Items[J].Phdr == M.Phdr;
      if (!Still)
        noteClosed(M, HaveMaps ? mappedPath(Maps, M.Lo) : nullptr);
    }
    dropSnapshot(After);
  }
  if (Maps.Text)
    arenaDeallocate(Maps.Text, Maps.CapB);
  dropSnapshot(Before);
  return Result;
}

bool native::executableHasSymbolTable() {
  int Fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return false;
  bool Found = false;
  ElfW(Ehdr) Header;
  if (pread(Fd, &Header, sizeof(Header), 0) == (ssize_t)sizeof(Header) &&
      memcmp(Header.e_ident, ELFMAG, SELFMAG) == 0 &&
      Header.e_shentsize == sizeof(ElfW(Shdr))) {
    for (uint32_t I = 0; I < Header.e_shnum && !Found; ++I) {
      ElfW(Shdr) Section;
      if (pread(Fd, &Section, sizeof(Section),
                (off_t)(Header.e_shoff + (uint64_t)I * sizeof(Section))) !=
          (ssize_t)sizeof(Section))
        break;
      Found = Section.sh_type == SHT_SYMTAB;
    }
  }
  close(Fd);
  return Found;
}
