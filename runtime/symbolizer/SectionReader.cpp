//===- SectionReader.cpp - One ELF section's bytes, read forward ----------===//
//
// Part of massif-native, under the MIT licence.
//
// zlib allocates its state with malloc; like libdw's, those blocks go to
// glibc because the symbolizer runs with the runtime's recursion guard set.
//
//===----------------------------------------------------------------------===//

#include "SectionReader.h"

#include "Arena.h"

#include <elf.h>
#include <unistd.h>
#include <zlib.h>

using namespace massif;
using namespace massif::symbolizer;

namespace {
constexpr size_t BufB = ReadBuffers::SizeB;

bool preadAll(int Fd, void *Dst, size_t Len, uint64_t Off) {
  uint8_t *P = (uint8_t *)Dst;
  while (Len) {
    ssize_t N = pread(Fd, P, Len, (off_t)Off);
    if (N <= 0)
      return false;
    P += N;
    Off += uint64_t(N);
    Len -= size_t(N);
  }
  return true;
}
} // namespace

bool SectionReader::init(int F, uint64_t FileOff, uint64_t FileB,
                         bool IsCompressed, const ReadBuffers &B) {
  Fd = F;
  Compressed = IsCompressed;
  Bufs = B;
  if (!Compressed) {
    DataOff = FileOff;
    DataB = SizeB = FileB;
    return true;
  }
  // The zlib stream's two-byte header is checked here and skipped: the
  // deflate data inflates raw, without the Adler-32 of every byte (12% of
  // the instructions of writing a profile that prints libc's frames); the
  // checksum at the end is never read.
  Elf64_Chdr Ch;
  uint8_t Zh[2];
  if (FileB < sizeof(Ch) + sizeof(Zh) ||
      !preadAll(Fd, &Ch, sizeof(Ch), FileOff) ||
      Ch.ch_type != ELFCOMPRESS_ZLIB ||
      !preadAll(Fd, Zh, sizeof(Zh), FileOff + sizeof(Ch)) ||
      (Zh[0] & 0x0F) != Z_DEFLATED || (Zh[0] >> 4) > MAX_WBITS - 8 ||
      (Zh[0] << 8 | Zh[1]) % 31 != 0 ||
      (Zh[1] & 0x20) != 0) // a preset dictionary
    return false;
  DataOff = FileOff + sizeof(Ch) + sizeof(Zh);
  DataB = FileB - sizeof(Ch) - sizeof(Zh);
  SizeB = Ch.ch_size;
  return Bufs.In && Bufs.Skip && Bufs.InOwner;
}

void SectionReader::close() {
  if (Stream) {
    inflateEnd((z_stream *)Stream);
    arenaDeallocate(Stream, sizeof(z_stream));
    Stream = nullptr;
  }
}

bool SectionReader::restart() {
  z_stream *Z = (z_stream *)Stream;
  if (!Z) {
    Z = (z_stream *)arenaAllocate(sizeof(z_stream));
    if (!Z || inflateInit2(Z, -MAX_WBITS) != Z_OK) {
      arenaDeallocate(Z, Z ? sizeof(z_stream) : 0);
      return false;
    }
    Stream = Z;
  } else if (inflateReset(Z) != Z_OK) {
    return false;
  }
  Z->avail_in = 0;
  InPos = Pos = 0;
  return true;
}

bool SectionReader::inflateInto(uint8_t *Dst, size_t Len) {
  z_stream *Z = (z_stream *)Stream;
  Z->next_out = Dst;
  Z->avail_out = (uInt)Len;
  while (Z->avail_out) {
    if (Z->avail_in == 0) {
      size_t N = DataB - InPos < BufB ? size_t(DataB - InPos) : BufB;
      if (N == 0 || !preadAll(Fd, Bufs.In, N, DataOff + InPos))
        return false;
      Z->next_in = Bufs.In;
      Z->avail_in = (uInt)N;
    }
    uInt Before = Z->avail_in;
    int Err = inflate(Z, Z_NO_FLUSH);
    InPos += Before - Z->avail_in;
    if (Err != Z_OK && !(Err == Z_STREAM_END && Z->avail_out == 0))
      return false;
  }
  Pos += Len;
  InflatedB += Len;
  return true;
}

bool SectionReader::read(uint64_t Off, uint8_t *Dst, size_t Len) {
  if (Off > SizeB || Len > SizeB - Off)
    return false;
  if (!Compressed)
    return preadAll(Fd, Dst, Len, DataOff + Off);
  if ((!Stream || Off < Pos) && !restart())
    return false;
  // The shared input buffer holds another reader's input: read ours again.
  if (*Bufs.InOwner != this)
    ((z_stream *)Stream)->avail_in = 0;
  *Bufs.InOwner = this;
  bool Ok = true;
  while (Ok && Pos < Off) {
    uint64_t Skip = Off - Pos;
    Ok = inflateInto(Bufs.Skip, Skip < BufB ? size_t(Skip) : BufB);
  }
  Ok = Ok && inflateInto(Dst, Len);
  if (!Ok)
    Pos = ~uint64_t(0); // the next read starts over
  return Ok;
}
