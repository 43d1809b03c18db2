//===- TextWriter.h - Buffered text output over a Sink ----------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The writer's only formatting: strings, unsigned and signed decimals,
// upper-case hex and runs of spaces, into a fixed buffer that is flushed to
// the Sink when full. No printf, no allocation. The first failed write is
// remembered; later output is dropped.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_TEXTWRITER_H
#define MASSIF_CORE_TEXTWRITER_H

#include "Base.h"

#include <string.h>

namespace massif {

/// Appends text to a fixed buffer, truncating silently: messages built
/// without an allocator.
class FixedText {
public:
  FixedText(char *Buf, size_t Cap) : Buf(Buf), Cap(Cap) { Buf[0] = 0; }
  FixedText &add(const char *S) { return add(S, strlen(S)); }
  FixedText &add(const char *S, size_t N) {
    for (size_t I = 0; I < N && Len + 1 < Cap; ++I)
      Buf[Len++] = S[I];
    Buf[Len] = 0;
    return *this;
  }
  /// V in decimal, right-aligned in Width columns (C's %<Width>d).
  FixedText &addInt(int64_t V, unsigned Width = 0) {
    char Tmp[24];
    unsigned N = 0;
    uint64_t U = V < 0 ? 0 - uint64_t(V) : uint64_t(V);
    do {
      Tmp[N++] = char('0' + U % 10);
      U /= 10;
    } while (U);
    if (V < 0)
      Tmp[N++] = '-';
    for (unsigned I = N; I < Width; ++I)
      add(" ", 1);
    while (N)
      add(&Tmp[--N], 1);
    return *this;
  }
  size_t size() const { return Len; }
  const char *text() const { return Buf; }

private:
  char *Buf;
  size_t Cap;
  size_t Len = 0;
};

class TextWriter {
public:
  explicit TextWriter(const Sink &Out) : Out(Out) {}
  ~TextWriter() { flush(); }
  TextWriter(const TextWriter &) = delete;
  TextWriter &operator=(const TextWriter &) = delete;

  TextWriter &put(const char *S) { return put(S, strlen(S)); }
  TextWriter &put(const char *S, size_t N);
  TextWriter &put(char C) {
    if (Len == sizeof(Buf))
      flush();
    Buf[Len++] = C;
    return *this;
  }
  TextWriter &putUnsigned(uint64_t V);
  TextWriter &putSigned(int64_t V);
  /// "0x" and V in upper-case hex without padding, as Valgrind prints PCs.
  TextWriter &putHex(uint64_t V);
  TextWriter &spaces(size_t N);

  /// Writes out the buffer. Returns false if any write has failed.
  bool flush();
  bool ok() const { return Ok; }

private:
  Sink Out;
  size_t Len = 0;
  bool Ok = true;
  char Buf[8192];
};

} // namespace massif

#endif // MASSIF_CORE_TEXTWRITER_H
