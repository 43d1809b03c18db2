//===- MsPrintFuzzer.cpp - libFuzzer target for ms_print ------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Feeds arbitrary bytes to the whole of ms_print (the checking pass, the
// graph and the rendering pass) as a massif.out file. The first byte picks
// the command-line options, so thresholds and graph sizes are explored
// too. The input reaches ms_print through a memfd named "&<fd>", which
// its Perl-style open reads as a file descriptor. Errors that end the
// real program (Perl's die) throw back here instead; output is discarded.
// Any crash, sanitizer report, hang or leak is a bug.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"
#include "Report.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace {

struct Died {
  int Status;
};

[[noreturn]] void throwDeath(int Status) { throw Died{Status}; }

int inputFd() {
  static int Fd = [] {
    msprint::Diagnostics::setDeathHandler(throwDeath);
    msprint::Diagnostics::setStderrFd(-1);
    return ::memfd_create("msprint-fuzz", 0);
  }();
  return Fd;
}

std::vector<std::string> optionsFor(uint8_t Selector) {
  static const char *const Thresholds[] = {nullptr, "--threshold=0",
                                           "--threshold=0.99",
                                           "--threshold=5",
                                           "--threshold=1.2.3",
                                           "--threshold=100",
                                           "--threshold=.",
                                           "--threshold=30%"};
  static const char *const Sizes[][2] = {{nullptr, nullptr},
                                         {"--x=4", "--y=4"},
                                         {"--x=5", "--y=1000"},
                                         {"--x=1000", "--y=7"}};
  std::vector<std::string> Args;
  if (const char *T = Thresholds[Selector & 7])
    Args.push_back(T);
  const auto &Size = Sizes[(Selector >> 3) & 3];
  if (Size[0]) {
    Args.push_back(Size[0]);
    Args.push_back(Size[1]);
  }
  return Args;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  int Fd = inputFd();
  if (Fd < 0 || Size == 0)
    return 0;
  std::vector<std::string> Args = optionsFor(Data[0]);
  if (::ftruncate(Fd, 0) != 0 ||
      ::pwrite(Fd, Data + 1, Size - 1, 0) != ssize_t(Size - 1) ||
      ::lseek(Fd, 0, SEEK_SET) != 0)
    return 0;
  Args.push_back("&" + std::to_string(Fd));
  try {
    msprint::runMsPrint(Args, /*StdoutFd=*/-1);
  } catch (const Died &) {
  }
  return 0;
}
