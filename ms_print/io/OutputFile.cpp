//===- OutputFile.cpp - Where a view or ms_diff writes --------------------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "OutputFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace msprint {

OutputFile::~OutputFile() {
  if (Fd >= 0)
    close();
}

void OutputFile::report(int Errno) const {
  std::fprintf(stderr, "%s: cannot write '%s': %s\n", Tool,
               Path.empty() ? "standard output" : Path.c_str(),
               std::strerror(Errno));
}

bool OutputFile::open(const std::string &P) {
  Path = P;
  Fd = 1;
  if (!Path.empty())
    Fd = ::open(Path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (Fd < 0) {
    report(errno);
    return false;
  }
  Buffer = std::make_unique<OutputBuffer>(Fd);
  return true;
}

bool OutputFile::close() {
  Buffer->flush();
  int Error = Buffer->error();
  if (Fd != 1 && ::close(Fd) != 0 && !Error)
    Error = errno;
  Fd = -1;
  if (Error)
    report(Error);
  return Error == 0;
}

} // namespace msprint
