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
// The same bytes then go through the strict model (model::parseProfile)
// and, when it accepts them, the JSON export, into a sink that keeps only
// the nesting of the JSON's brackets and stops the run if they do not
// balance; and through the site statistics reader (model::parseSites),
// whose accepted files are exported too, beside an empty profile. Any
// crash, sanitizer report, hang or leak is a bug.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"
#include "Profile.h"
#include "Report.h"
#include "Sites.h"
#include "Views.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
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

/// Discards the export but follows its strings and brackets: the JSON is
/// malformed if a bracket closes what was not open or one is left open.
class BracketSink final : public msprint::views::Sink {
public:
  void write(const char *Data, size_t Size) override {
    for (size_t I = 0; I < Size; ++I) {
      char C = Data[I];
      if (InString) {
        if (Escaped)
          Escaped = false;
        else if (C == '\\')
          Escaped = true;
        else if (C == '"')
          InString = false;
        else if (static_cast<unsigned char>(C) < 0x20)
          std::abort(); // A raw control character inside a string.
        continue;
      }
      if (C == '"') {
        InString = true;
      } else if (C == '{' || C == '[') {
        Open.push_back(C);
      } else if (C == '}' || C == ']') {
        if (Open.empty() || Open.back() != (C == '}' ? '{' : '['))
          std::abort();
        Open.pop_back();
      }
    }
  }
  using Sink::write;
  bool balanced() const { return Open.empty() && !InString; }

private:
  std::string Open;
  bool InString = false;
  bool Escaped = false;
};

void exportJson(const uint8_t *Data, size_t Size) {
  msprint::model::Profile P;
  std::string Error;
  if (!msprint::model::parseProfile(
          std::string_view(reinterpret_cast<const char *>(Data), Size),
          "fuzz.out", P, Error))
    return;
  P.findSnapshot("last");
  P.lastDetailedIndex();
  BracketSink Out;
  msprint::views::writeJson(P, Out);
  if (!Out.balanced())
    std::abort();
}

void exportSites(const uint8_t *Data, size_t Size) {
  msprint::model::SiteStats S;
  std::string Error;
  if (!msprint::model::parseSites(
          std::string_view(reinterpret_cast<const char *>(Data), Size),
          "fuzz.sites", S, Error))
    return;
  msprint::model::Profile P;
  BracketSink Out;
  msprint::views::writeJson(P, Out, &S);
  if (!Out.balanced())
    std::abort();
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
  exportJson(Data + 1, Size - 1);
  exportSites(Data + 1, Size - 1);
  return 0;
}
