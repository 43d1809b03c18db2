//===- ByteReader.h - Bounded reads of DWARF's encodings -------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// A cursor over bytes in memory with the encodings DWARF uses: fixed-size
// little-endian values and LEB128. Reading past End never touches memory
// beyond it; it marks the reader as failed (ok() false) and yields zeros.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SUPPORT_BYTEREADER_H
#define MASSIF_SUPPORT_BYTEREADER_H

#include <stdint.h>
#include <string.h>

namespace massif {

struct ByteReader {
  const uint8_t *P;
  const uint8_t *End;

  bool ok() const { return P <= End; }
  uint8_t u8() { return P < End ? *P++ : (P = End + 1, 0); }
  template <typename T> T fixed() {
    T V = 0;
    if (P > End || size_t(End - P) < sizeof(T)) {
      P = End + 1;
      return 0;
    }
    memcpy(&V, P, sizeof(T));
    P += sizeof(T);
    return V;
  }
  uint64_t uleb() {
    uint64_t V = 0;
    for (unsigned Shift = 0; Shift < 64; Shift += 7) {
      uint8_t B = u8();
      V |= (uint64_t)(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
    return V;
  }
  int64_t sleb() {
    int64_t V = 0;
    unsigned Shift = 0;
    uint8_t B;
    do {
      B = u8();
      V |= (int64_t)(B & 0x7f) << Shift;
      Shift += 7;
    } while ((B & 0x80) && Shift < 64);
    if (Shift < 64 && (B & 0x40))
      V |= -((int64_t)1 << Shift);
    return V;
  }
  /// Moves on by N bytes.
  void skip(uint64_t N) {
    if (P > End || uint64_t(End - P) < N)
      P = End + 1;
    else
      P += N;
  }
  /// Moves past a NUL-terminated string.
  void skipString() {
    while (P < End && *P)
      ++P;
    u8();
  }
};

} // namespace massif

#endif // MASSIF_SUPPORT_BYTEREADER_H
