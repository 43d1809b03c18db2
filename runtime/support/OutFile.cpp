//===- OutFile.cpp - Output file names and the file sink ------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Expansion follows Valgrind's VG_(expand_file_name): it is done when the
// file is written, so a forked child's %p is its own pid; %n is a
// per-process counter shared by every expansion that uses it.
//
//===----------------------------------------------------------------------===//

#include "OutFile.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

using namespace massif;
using namespace massif;

namespace {

/// Appends text to a bounded buffer, remembering overflow.
struct Builder {
  char *Out;
  size_t Cap;
  size_t Len = 0;
  bool Overflow = false;

  void add(const char *S, size_t N) {
    if (Len + N + 1 > Cap) {
      Overflow = true;
      return;
    }
    memcpy(Out + Len, S, N);
    Len += N;
    Out[Len] = 0;
  }
  void add(const char *S) { add(S, strlen(S)); }
  void addNumber(uint64_t V) {
    char Digits[24];
    size_t N = 0;
    do {
      Digits[sizeof(Digits) - 1 - N++] = char('0' + V % 10);
      V /= 10;
    } while (V);
    add(Digits + sizeof(Digits) - N, N);
  }
};

bool fail(char *Reason, size_t ReasonCap, const char *A, const char *B = "",
          const char *C = "") {
  Builder R{Reason, ReasonCap};
  if (ReasonCap)
    Reason[0] = 0;
  R.add(A);
  R.add(B);
  R.add(C);
  return false;
}

} // namespace

bool massif::expandFileName(const char *Pattern, const NameContext &C,
                            char *Out, size_t OutCap, char *Reason,
                            size_t ReasonCap) {
  if (!Pattern || !*Pattern)
    return fail(Reason, ReasonCap, "No filename given");
  if (Pattern[0] == '~')
    return fail(Reason, ReasonCap,
                "Filename begins with '~'\n"
                "You probably expected the shell to expand the '~', but it\n"
                "didn't.  The rules for '~'-expansion vary from shell to "
                "shell.\n"
                "You might have more luck using $HOME instead.");

  Builder B{Out, OutCap};
  if (OutCap)
    Out[0] = 0;
  if (Pattern[0] != '/' && C.StartCwd) {
    B.add(C.StartCwd);
    B.add("/");
  }
  for (const char *P = Pattern; *P; ++P) {
    if (*P != '%') {
      B.add(P, 1);
      continue;
    }
    ++P;
    if (*P == '%') {
      B.add("%");
    } else if (*P == 'p') {
      B.addNumber(C.Pid);
    } else if (*P == 'n') {
      B.addNumber(++*C.Sequence);
    } else if (*P == 'q') {
      ++P;
      if (*P != '{')
        return fail(Reason, ReasonCap, "Expected '{' after '%q'");
      const char *Name = P + 1;
      const char *Close = strchr(Name, '}');
      if (!Close)
        return fail(Reason, ReasonCap, "Missing '}' in %q specifier");
      char Var[256];
      size_t VarB = (size_t)(Close - Name);
      if (VarB >= sizeof(Var))
        VarB = sizeof(Var) - 1;
      memcpy(Var, Name, VarB);
      Var[VarB] = 0;
      const char *Value = C.GetEnv ? C.GetEnv(Var) : nullptr;
      if (!Value)
        return fail(Reason, ReasonCap, "Environment variable '", Var,
                    "' is not set");
      B.add(Value);
      P = Close;
    } else {
      return fail(Reason, ReasonCap, "Expected 'p' or 'q' or '%' after '%'");
    }
  }
  if (B.Overflow)
    return fail(Reason, ReasonCap, "File name too long");
  return true;
}

bool massif::writeAll(int Fd, const char *Data, size_t Len) {
  while (Len > 0) {
    ssize_t Done = write(Fd, Data, Len);
    if (Done < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    Data += Done;
    Len -= (size_t)Done;
  }
  return true;
}

void massif::writeLine(int Fd, const char *const *Parts, size_t NumParts) {
  char Line[1024];
  Builder B{Line, sizeof(Line)};
  Line[0] = 0;
  for (size_t I = 0; I < NumParts; ++I)
    B.add(Parts[I]);
  B.add("\n");
  if (B.Overflow) { // write the pieces unbuffered rather than cut them
    for (size_t I = 0; I < NumParts; ++I)
      writeAll(Fd, Parts[I], strlen(Parts[I]));
    writeAll(Fd, "\n", 1);
    return;
  }
  writeAll(Fd, Line, B.Len);
}

void massif::writeLines(int Fd, const char *Prefix, const char *Text) {
  size_t PrefixLen = strlen(Prefix);
  for (const char *Line = Text;;) {
    const char *End = strchr(Line, '\n');
    size_t Len = End ? (size_t)(End - Line) : strlen(Line);
    char Buf[1024];
    if (PrefixLen + Len + 1 <= sizeof(Buf)) { // one write per line
      memcpy(Buf, Prefix, PrefixLen);
      memcpy(Buf + PrefixLen, Line, Len);
      Buf[PrefixLen + Len] = '\n';
      writeAll(Fd, Buf, PrefixLen + Len + 1);
    } else { // in pieces rather than cut
      writeAll(Fd, Prefix, PrefixLen);
      writeAll(Fd, Line, Len);
      writeAll(Fd, "\n", 1);
    }
    if (!End)
      break;
    Line = End + 1;
  }
}

bool FdSink::append(const char *Data, size_t N) {
  if (Errno)
    return false;
  if (Len + N > Cap) {
    if (!flush())
      return false;
    if (N > Cap) { // too big to buffer: write it through
      if (!writeAll(Fd, Data, N)) {
        Errno = errno ? errno : EIO;
        return false;
      }
      return true;
    }
  }
  memcpy(Buf + Len, Data, N);
  Len += N;
  return true;
}

bool FdSink::flush() {
  if (Errno)
    return false;
  if (Len && !writeAll(Fd, Buf, Len)) {
    Errno = errno ? errno : EIO;
    return false;
  }
  Len = 0;
  return true;
}

bool FdSink::writeThunk(void *Ctx, const char *Data, size_t N) {
  return static_cast<FdSink *>(Ctx)->append(Data, N);
}
