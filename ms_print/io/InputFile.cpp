//===- InputFile.cpp - Opening the profile --------------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Perl's two-argument open, reduced to what "< NAME" can mean: the name
// is trimmed of whitespace; "-" is stdin; "&N", "&=N", "&STDIN" (and
// "&main::STDIN") name an open descriptor. A regular file is mapped
// read-only, and pages already read are handed back as the passes move
// on; pipes, terminals and the like are read to the end, and a read error
// (EISDIR for a directory) is kept to be reported as Perl would: as end of
// file with that errno.
//
//===----------------------------------------------------------------------===//

#include "InputFile.h"

#include "PerlNumber.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace msprint {

namespace {

std::string_view trimSpaces(std::string_view S) {
  while (!S.empty() && isPerlSpace(S.front()))
    S.remove_prefix(1);
  while (!S.empty() && isPerlSpace(S.back()))
    S.remove_suffix(1);
  return S;
}

/// Resolves "&..." (after the '&') to a descriptor, or returns -errno.
int resolveDup(std::string_view Spec) {
  if (!Spec.empty() && Spec.front() == '=')
    Spec.remove_prefix(1);
  Spec = trimSpaces(Spec);
  if (Spec.empty())
    return -EINVAL;
  bool AllDigits = true;
  for (char C : Spec)
    AllDigits &= C >= '0' && C <= '9';
  if (AllDigits) {
    if (Spec.size() > 9)
      return -EBADF;
    int Fd = 0;
    for (char C : Spec)
      Fd = Fd * 10 + (C - '0');
    if (::fcntl(Fd, F_GETFD) < 0)
      return -EBADF;
    return Fd;
  }
  if (Spec.substr(0, 6) == "main::")
    Spec.remove_prefix(6);
  if (Spec == "STDIN")
    return 0;
  if (Spec == "STDOUT")
    return 1;
  if (Spec == "STDERR")
    return 2;
  return -EINVAL;
}

} // namespace

InputFile::~InputFile() {
  if (Mapping)
    ::munmap(Mapping, MappingSize);
}

int InputFile::open(const std::string &Arg) {
  std::string_view Name = trimSpaces(Arg);
  if (Name == "-")
    return load(0, false);
  if (!Name.empty() && Name.front() == '&') {
    int Fd = resolveDup(Name.substr(1));
    if (Fd < 0)
      return -Fd;
    return load(Fd, false);
  }
  return openPath(std::string(Name));
}

int InputFile::openPath(const std::string &Path) {
  if (Path == "-")
    return load(0, false);
  int Fd;
  do {
    Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (Fd < 0 && errno == EINTR);
  if (Fd < 0)
    return errno;
  return load(Fd, true);
}

std::unique_ptr<InputFile> InputFile::readPath(const std::string &Path,
                                               std::string &Error) {
  auto File = std::make_unique<InputFile>();
  if (int E = File->openPath(Path)) {
    Error = "cannot open '" + Path + "': " + std::strerror(E);
    return nullptr;
  }
  if (int E = File->readErrno()) {
    Error = "cannot read '" + Path + "': " + std::strerror(E);
    return nullptr;
  }
  return File;
}

void InputFile::release(const char *Pos) const {
  const char *Base = static_cast<const char *>(Mapping);
  size_t Page = size_t(::sysconf(_SC_PAGESIZE));
  size_t First = size_t(Released - Base) / Page * Page;
  size_t Last = size_t(Pos - Base) / Page * Page;
  if (Last > First)
    ::madvise(static_cast<char *>(Mapping) + First, Last - First,
              MADV_DONTNEED);
  Released = Pos;
}

int InputFile::load(int Fd, bool CloseFd) {
  IsTty = ::isatty(Fd) != 0;
  struct stat St;
  if (::fstat(Fd, &St) == 0 && S_ISREG(St.st_mode) && St.st_size > 0) {
    void *P = ::mmap(nullptr, size_t(St.st_size), PROT_READ, MAP_PRIVATE,
                     Fd, 0);
    if (P != MAP_FAILED) {
      // An inherited descriptor ("&0") is read from its current offset.
      off_t Offset = CloseFd ? 0 : ::lseek(Fd, 0, SEEK_CUR);
      if (Offset < 0 || Offset > St.st_size)
        Offset = Offset < 0 ? 0 : St.st_size;
      Mapping = P;
      MappingSize = size_t(St.st_size);
      Data = static_cast<const char *>(P) + Offset;
      Released = Data;
      Size = size_t(St.st_size - Offset);
      ::madvise(P, Size, MADV_SEQUENTIAL);
      if (CloseFd)
        ::close(Fd);
      return 0;
    }
  }
  char Buf[1 << 16];
  for (;;) {
    ssize_t N = ::read(Fd, Buf, sizeof(Buf));
    if (N > 0) {
      Owned.append(Buf, size_t(N));
      continue;
    }
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      ReadErrno = errno;
    break;
  }
  Data = Owned.data();
  Size = Owned.size();
  if (CloseFd)
    ::close(Fd);
  return 0;
}

} // namespace msprint
