//===- RuntimeProbe.cpp - Whether a program carries the runtime -----------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "RuntimeProbe.h"

#include "massif/abi.h"

#include <cstdlib>
#include <cstring>
#include <elf.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

bool isExecutableFile(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode) &&
         access(Path.c_str(), X_OK) == 0;
}

/// Reads N bytes at Offset; false if the file is shorter.
bool readAt(std::ifstream &F, uint64_t Offset, void *Out, size_t N) {
  F.seekg(std::streamoff(Offset));
  F.read(static_cast<char *>(Out), std::streamsize(N));
  return bool(F);
}

/// Whether the symbol table Sym (with its string table Str) defines Name.
bool definesSymbol(std::ifstream &F, const Elf64_Shdr &Sym,
                   const Elf64_Shdr &Str, const char *Name) {
  if (Sym.sh_entsize != sizeof(Elf64_Sym) || Sym.sh_size > (1u << 30) ||
      Str.sh_size > (1u << 30))
    return false;
  std::vector<char> Strings(Str.sh_size + 1, 0);
  std::vector<Elf64_Sym> Symbols(Sym.sh_size / sizeof(Elf64_Sym));
  if (!readAt(F, Str.sh_offset, Strings.data(), Str.sh_size) ||
      !readAt(F, Sym.sh_offset, Symbols.data(),
              Symbols.size() * sizeof(Elf64_Sym)))
    return false;
  for (const Elf64_Sym &S : Symbols)
    if (S.st_shndx != SHN_UNDEF && S.st_name < Str.sh_size &&
        strcmp(&Strings[S.st_name], Name) == 0)
      return true;
  return false;
}

} // namespace

std::string massif::findProgram(const char *Program) {
  if (strchr(Program, '/'))
    return isExecutableFile(Program) ? Program : "";
  const char *Path = getenv("PATH");
  std::string Dirs = Path ? Path : "/usr/local/bin:/bin:/usr/bin";
  size_t Start = 0;
  while (Start <= Dirs.size()) {
    size_t End = Dirs.find(':', Start);
    if (End == std::string::npos)
      End = Dirs.size();
    std::string Dir = Dirs.substr(Start, End - Start);
    std::string Candidate = (Dir.empty() ? "." : Dir) + "/" + Program;
    if (isExecutableFile(Candidate))
      return Candidate;
    Start = End + 1;
  }
  return "";
}

bool massif::carriesRuntime(const std::string &Path, std::string &Why) {
  std::ifstream F(Path, std::ios::binary);
  Elf64_Ehdr H;
  if (!F || !readAt(F, 0, &H, sizeof(H)) ||
      memcmp(H.e_ident, ELFMAG, SELFMAG) != 0) {
    Why = "it is not an ELF executable (a script?)";
    return false;
  }
  if (H.e_ident[EI_CLASS] != ELFCLASS64 || H.e_machine != EM_X86_64 ||
      H.e_shentsize != sizeof(Elf64_Shdr)) {
    Why = "it is not an x86-64 ELF executable";
    return false;
  }
  std::vector<Elf64_Shdr> Sections(H.e_shnum);
  if (!readAt(F, H.e_shoff, Sections.data(),
              Sections.size() * sizeof(Elf64_Shdr))) {
    Why = "its section headers cannot be read";
    return false;
  }
  for (const Elf64_Shdr &S : Sections)
    if ((S.sh_type == SHT_DYNSYM || S.sh_type == SHT_SYMTAB) &&
        S.sh_link < Sections.size() &&
        definesSymbol(F, S, Sections[S.sh_link], MASSIF_ABI_VERSION_SYMBOL)) {
      return true;
    }
  Why = "it was not built with mscc or mscxx";
  return false;
}
