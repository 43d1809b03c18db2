//===- Diagnostics.cpp - Perl's warnings, deaths and exit statuses --------===//
//
// Part of massif-native, under the MIT licence.
//
// Message assembly for Diagnostics.h. Warnings go straight to stderr with
// write(2), unbuffered like Perl's STDERR, so they interleave with nothing
// and appear even if the process then dies.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include "OutputBuffer.h"

#include <cctype>
#include <cerrno>
#include <clocale>
#include <cstdlib>
#include <cstring>
#include <langinfo.h>
#include <unistd.h>

namespace msprint {

namespace {

/// Perl's isPRINT_LC for a byte above 0x7f. Perl takes LC_CTYPE from the
/// environment: in a UTF-8 locale it classifies bytes as Latin-1 (0xa0 and
/// up are printable), otherwise it asks the locale's isprint().
bool highBytePrintable(unsigned char C) {
  static const int Mode = [] {
    if (!std::setlocale(LC_CTYPE, ""))
      return 0;
    const char *Set = nl_langinfo(CODESET);
    return (Set && (std::strcmp(Set, "UTF-8") == 0 ||
                    std::strcmp(Set, "utf8") == 0))
               ? 1
               : 2;
  }();
  if (Mode == 1)
    return C >= 0xa0;
  if (Mode == 2)
    return std::isprint(C) != 0;
  return false;
}

} // namespace

namespace {
int StderrFd = 2;
Diagnostics::DeathHandler OnDeath = nullptr;
} // namespace

void Diagnostics::setStderrFd(int Fd) { StderrFd = Fd; }

void Diagnostics::setDeathHandler(DeathHandler Handler) { OnDeath = Handler; }

void Diagnostics::writeStderr(std::string_view Text) {
  if (StderrFd < 0)
    return;
  const char *P = Text.data();
  size_t Left = Text.size();
  while (Left > 0) {
    ssize_t N = ::write(StderrFd, P, Left);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return;
    }
    P += N;
    Left -= size_t(N);
  }
}

void Diagnostics::appendLocation(std::string &Out, int PerlLine) const {
  Out += " at ";
  Out += ScriptPath;
  Out += " line ";
  Out += std::to_string(PerlLine);
  if (InputOpen && InputLine > 0) {
    Out += ", <INPUTFILE> line ";
    Out += std::to_string(InputLine);
  }
  Out += ".\n";
}

void Diagnostics::warn(std::string_view Message, int PerlLine) {
  if (Silent)
    return;
  std::string Text(Message);
  appendLocation(Text, PerlLine);
  writeStderr(Text);
}

void Diagnostics::warnNotNumeric(std::string_view Text,
                                 std::string_view OpDesc, int PerlLine) {
  if (Silent)
    return;
  std::string Message = "Argument \"";
  Message += displayArgument(Text);
  Message += "\" isn't numeric in ";
  Message += OpDesc;
  warn(Message, PerlLine);
}

void Diagnostics::die(std::string_view Message, int PerlLine) {
  std::string Text(Message);
  if (Text.empty() || Text.back() != '\n')
    appendLocation(Text, PerlLine);
  if (Stdout)
    Stdout->flush();
  writeStderr(Text);
  if (OnDeath)
    OnDeath(dieStatus(Errno));
  std::_Exit(dieStatus(Errno));
}

void Diagnostics::dieBare(int PerlLine) { die("Died", PerlLine); }

std::string Diagnostics::displayArgument(std::string_view Text) {
  // Perl renders at most 56 characters of escapes into a 64-byte buffer
  // and marks the cut with "...". High bytes print as themselves when the
  // locale calls them printable, else as M- and their low seven bits.
  constexpr size_t Limit = 56;
  std::string Out;
  size_t I = 0;
  for (; I < Text.size() && Out.size() < Limit; ++I) {
    unsigned Ch = static_cast<unsigned char>(Text[I]);
    if (Ch >= 0x80 && highBytePrintable(static_cast<unsigned char>(Ch))) {
      Out += char(Ch);
      continue;
    }
    if (Ch >= 0x80) {
      Out += "M-";
      Ch &= 0x7f;
    }
    switch (Ch) {
    case '\n':
      Out += "\\n";
      break;
    case '\r':
      Out += "\\r";
      break;
    case '\f':
      Out += "\\f";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\0':
      Out += "\\0";
      break;
    default:
      if (Ch >= 0x20 && Ch < 0x7f) {
        Out += char(Ch);
      } else {
        Out += '^';
        Out += char(Ch ^ 64);
      }
    }
  }
  if (I < Text.size())
    Out += "...";
  return Out;
}

} // namespace msprint
