//===- TextWriter.cpp - Buffered text output over a Sink ------------------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "TextWriter.h"

namespace massif {

TextWriter &TextWriter::put(const char *S, size_t N) {
  while (N) {
    if (Len == sizeof(Buf))
      flush();
    size_t Chunk = sizeof(Buf) - Len;
    if (Chunk > N)
      Chunk = N;
    memcpy(Buf + Len, S, Chunk);
    Len += Chunk;
    S += Chunk;
    N -= Chunk;
  }
  return *this;
}

TextWriter &TextWriter::putUnsigned(uint64_t V) {
  char Tmp[20];
  size_t N = 0;
  do {
    Tmp[N++] = char('0' + V % 10);
    V /= 10;
  } while (V);
  while (N)
    put(Tmp[--N]);
  return *this;
}

TextWriter &TextWriter::putSigned(int64_t V) {
  if (V < 0) {
    put('-');
    return putUnsigned(0 - uint64_t(V));
  }
  return putUnsigned(uint64_t(V));
}

TextWriter &TextWriter::putHex(uint64_t V) {
  static constexpr char Digits[] = "0123456789ABCDEF";
  char Tmp[16];
  size_t N = 0;
  do {
    Tmp[N++] = Digits[V & 15];
    V >>= 4;
  } while (V);
  put("0x", 2);
  while (N)
    put(Tmp[--N]);
  return *this;
}

TextWriter &TextWriter::spaces(size_t N) {
  while (N--)
    put(' ');
  return *this;
}

bool TextWriter::flush() {
  if (Len && Ok && Out.Write)
    Ok = Out.Write(Out.Ctx, Buf, Len);
  Len = 0;
  return Ok;
}

} // namespace massif
