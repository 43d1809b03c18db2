//===- Main.cpp - massif-symbolizer: names for the runtime ----------------===//
//
// Part of massif-native, under the MIT licence.
//
// The process the native runtime starts to name its program's code
// addresses (Protocol.h says why and how): it reads requests from its
// standard input and answers on its standard output until its input ends.
// A malformed request ends it with status 2 and a line on stderr.
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"
#include "Symbolize.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

using namespace massif;
using namespace massif::symbolizer;

namespace {

[[noreturn]] void fail(const char *What) {
  fprintf(stderr, "massif-symbolizer: %s\n", What);
  exit(2);
}

/// Reads N bytes; false at the end of the input before the first.
bool readBytes(void *Out, size_t N) {
  size_t Got = fread(Out, 1, N, stdin);
  if (Got == N)
    return true;
  if (Got == 0 && feof(stdin))
    return false;
  fail("truncated request");
}

template <typename T> T readNumber() {
  T V;
  if (!readBytes(&V, sizeof(V)))
    fail("truncated request");
  return V;
}

template <typename T> void writeNumber(T V) { fwrite(&V, sizeof(V), 1, stdout); }

void writeString(const char *S) {
  if (!S) {
    writeNumber<uint32_t>(protocol::NullString);
    return;
  }
  uint32_t Len = (uint32_t)strlen(S);
  writeNumber(Len);
  fwrite(S, 1, Len, stdout);
}

/// The addresses of a 'D' or 'N' request.
uint64_t *readAddresses(uint32_t &N) {
  N = readNumber<uint32_t>();
  if (N > protocol::MaxBatch)
    fail("too many addresses in one request");
  static uint64_t Pcs[protocol::MaxBatch];
  if (N && !readBytes(Pcs, N * sizeof(uint64_t)))
    fail("truncated request");
  return Pcs;
}

void describeAll() {
  uint32_t N;
  const uint64_t *Pcs = readAddresses(N);
  prepare(Pcs, N);
  FrameInfo Frames[MaxInlineFrames];
  for (uint32_t I = 0; I < N; ++I) {
    uint32_t Count = describe(Pcs[I], Frames);
    writeNumber(Count);
    for (uint32_t F = 0; F < Count; ++F) {
      writeString(Frames[F].Function);
      writeString(Frames[F].File);
      writeString(Frames[F].Dir);
      writeString(Frames[F].Object);
      writeNumber(Frames[F].Line);
    }
  }
}

void nameAll() {
  uint32_t N;
  const uint64_t *Pcs = readAddresses(N);
  for (uint32_t I = 0; I < N; ++I)
    writeString(functionName(Pcs[I]));
}

} // namespace

int main(int Argc, char **) {
  if (Argc != 1)
    fail("the native runtime starts this program itself; it takes no "
         "arguments");
  // The runtime starts this with every signal blocked (its children
  // shared the program's memory until the exec).
  sigset_t None;
  sigemptyset(&None);
  sigprocmask(SIG_SETMASK, &None, nullptr);
  static char In[1 << 16], Out[1 << 16];
  setvbuf(stdin, In, _IOFBF, sizeof(In));
  setvbuf(stdout, Out, _IOFBF, sizeof(Out));
  for (;;) {
    uint8_t Op;
    if (!readBytes(&Op, 1))
      return 0;
    switch (Op) {
    case protocol::Hello: {
      uint32_t Pid = readNumber<uint32_t>();
      uint32_t Tid = readNumber<uint32_t>();
      setTarget((int)Pid, (int)Tid);
      break;
    }
    case protocol::ClosedObject: {
      uint64_t Base = readNumber<uint64_t>();
      uint32_t Len = readNumber<uint32_t>();
      if (Len == 0 || Len > 4096)
        fail("bad object path");
      char Path[4097];
      if (!readBytes(Path, Len))
        fail("truncated request");
      Path[Len] = 0;
      addClosedObject(Base, Path);
      break;
    }
    case protocol::Describe:
      describeAll();
      fflush(stdout);
      break;
    case protocol::Names:
      nameAll();
      fflush(stdout);
      break;
    default:
      fail("unknown request");
    }
  }
}
