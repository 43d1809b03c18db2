//===- SymbolTable.cpp - Valgrind's view of a module's symbols ------------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "SymbolTable.h"

#include "Arena.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

using namespace massif;
using namespace massif::symbolizer;

namespace {

struct Entry {
  uint64_t Lo, Hi; // [Lo, Hi)
  const char *Name;
};

int compareEntries(const void *A, const void *B) {
  const Entry &X = *(const Entry *)A, &Y = *(const Entry *)B;
  if (X.Lo != Y.Lo)
    return X.Lo < Y.Lo ? -1 : 1;
  if (X.Hi != Y.Hi)
    return X.Hi < Y.Hi ? -1 : 1;
  return 0;
}

/// Whether section Shndx of Elf holds code; the last answer is kept, as
/// symbols come grouped by section.
bool inCode(Elf *E, GElf_Word Shndx) {
  static Elf *LastElf = nullptr;
  static GElf_Word LastShndx = 0;
  static bool LastAnswer = false;
  if (E == LastElf && Shndx == LastShndx)
    return LastAnswer;
  bool Code = false;
  if (E && Shndx != SHN_UNDEF && Shndx < SHN_LORESERVE) {
    GElf_Shdr Mem;
    if (GElf_Shdr *Sh = gelf_getshdr(elf_getscn(E, Shndx), &Mem))
      Code = (Sh->sh_flags & SHF_EXECINSTR) != 0;
  }
  LastElf = E;
  LastShndx = Shndx;
  LastAnswer = Code;
  return Code;
}

/// Folds entries with identical ranges into one, keeping the preferred
/// name. Returns the new count.
uint32_t mergeIdentical(Entry *E, uint32_t N) {
  if (N == 0)
    return 0;
  uint32_t W = 0;
  for (uint32_t R = 1; R < N; ++R) {
    if (E[R].Lo == E[W].Lo && E[R].Hi == E[W].Hi) {
      if (!preferName(E[W].Name, E[R].Name))
        E[W].Name = E[R].Name;
    } else {
      E[++W] = E[R];
    }
  }
  return W + 1;
}

/// Cuts overlapping neighbours so that no address has two entries: a
/// symbol ends where the next one starts; of two starting together, the
/// shorter keeps the start and the longer keeps what lies beyond it.
/// Returns whether anything was cut (entries may then coincide again).
bool cutOverlaps(Entry *E, uint32_t N) {
  bool Cut = false;
  for (uint32_t I = 0; I + 1 < N; ++I) {
    Entry &A = E[I], &B = E[I + 1];
    if (A.Hi <= B.Lo)
      continue;
    Cut = true;
    if (A.Lo < B.Lo) {
      A.Hi = B.Lo;
      continue;
    }
    if (A.Hi == B.Hi)
      continue; // identical: merged on the next round
    // Same start; sorted by end, so A is the shorter one.
    B.Lo = A.Hi;
    for (uint32_t J = I + 1; J + 1 < N && compareEntries(&E[J], &E[J + 1]) > 0;
         ++J) {
      Entry T = E[J];
      E[J] = E[J + 1];
      E[J + 1] = T;
    }
  }
  return Cut;
}

} // namespace

struct massif::symbolizer::SymbolTable {
  Entry *Items;
  uint32_t Count;
};

bool symbolizer::preferName(const char *A, const char *B) {
  const char *VerA = strchr(A, '@'), *VerB = strchr(B, '@');
  size_t LenA = VerA ? (size_t)(VerA - A) : strlen(A);
  size_t LenB = VerB ? (size_t)(VerB - B) : strlen(B);
  if ((LenA != 0) != (LenB != 0))
    return LenA != 0;
  if (LenA != LenB)
    return LenA < LenB;
  if (!VerA != !VerB)
    return VerA != nullptr;
  return strcmp(A, B) <= 0;
}

SymbolTable *symbolizer::buildSymbolTable(Dwfl_Module *Mod) {
  int NumSyms = dwfl_module_getsymtab(Mod);
  if (NumSyms <= 1)
    return nullptr;
  size_t CapB = (size_t)NumSyms * sizeof(Entry);
  Entry *E = (Entry *)arenaAllocate(CapB);
  SymbolTable *T = (SymbolTable *)arenaAllocate(sizeof(SymbolTable));
  if (!E || !T)
    return nullptr;
  uint32_t N = 0;
  for (int I = 1; I < NumSyms; ++I) {
    GElf_Sym Sym;
    GElf_Addr Addr;
    GElf_Word Shndx;
    Elf *SymElf = nullptr;
    Dwarf_Addr Bias;
    const char *Name = dwfl_module_getsym_info(Mod, I, &Sym, &Addr, &Shndx,
                                               &SymElf, &Bias);
    if (!Name || !*Name || Sym.st_size == 0 || Sym.st_value == 0)
      continue;
    unsigned Bind = GELF_ST_BIND(Sym.st_info), Type = GELF_ST_TYPE(Sym.st_info);
    if (Bind != STB_GLOBAL && Bind != STB_LOCAL && Bind != STB_WEAK)
      continue;
    if (Type != STT_FUNC && Type != STT_OBJECT && Type != STT_GNU_IFUNC)
      continue;
    if (!inCode(SymElf, Shndx))
      continue;
    E[N++] = Entry{Addr, Addr + Sym.st_size, Name};
  }
  qsort(E, N, sizeof(Entry), compareEntries);
  do
    N = mergeIdentical(E, N);
  while (cutOverlaps(E, N));
  T->Items = E;
  T->Count = N;
  return T;
}

const char *symbolizer::symbolAt(const SymbolTable *T, uint64_t Pc) {
  if (!T || T->Count == 0 || Pc < T->Items[0].Lo)
    return nullptr;
  uint32_t Lo = 0, Hi = T->Count;
  while (Hi - Lo > 1) {
    uint32_t Mid = (Lo + Hi) / 2;
    if (T->Items[Mid].Lo <= Pc)
      Lo = Mid;
    else
      Hi = Mid;
  }
  return Pc < T->Items[Lo].Hi ? T->Items[Lo].Name : nullptr;
}
