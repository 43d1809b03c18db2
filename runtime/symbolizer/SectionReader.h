//===- SectionReader.h - One ELF section's bytes, read forward -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Reads ranges of one section of a file without mapping the file: plainly
// with pread, or, for a zlib-compressed section (SHF_COMPRESSED), through a
// stream of inflate that is kept between reads. Reads are cheap in
// increasing order of offset; a read behind the stream's position starts
// it again from the beginning. Memory: the stream's state (zlib's 32 KiB
// window and its tables), whatever the section's size; the buffers a read
// uses are the caller's, so the readers of one file can share them: the
// input left after a read stays usable until another reader takes the
// buffer.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SYMBOLIZER_SECTIONREADER_H
#define MASSIF_SYMBOLIZER_SECTIONREADER_H

#include <stddef.h>
#include <stdint.h>

namespace massif {
namespace symbolizer {

/// Scratch memory for reads: compressed input, and output to skip.
struct ReadBuffers {
  static constexpr size_t SizeB = 32768;
  uint8_t *In, *Skip; ///< SizeB bytes each
  /// Where the readers sharing In note which of them its input belongs
  /// to: a reader whose input is still there goes on with it instead of
  /// reading it from the file again.
  const void **InOwner;
};

class SectionReader {
public:
  /// The section's data at FileOff, FileB bytes in the file. When
  /// Compressed, the data starts with its Elf64_Chdr; its reads use Bufs.
  bool init(int Fd, uint64_t FileOff, uint64_t FileB, bool Compressed,
            const ReadBuffers &Bufs);
  void close();

  /// The size of the section's (uncompressed) contents.
  uint64_t sizeB() const { return SizeB; }
  /// Copies bytes [Off, Off + Len) of the contents to Dst.
  bool read(uint64_t Off, uint8_t *Dst, size_t Len);
  /// Bytes inflated so far, skipped ones and those read again after a
  /// restart included (for tests and diagnostics).
  uint64_t inflatedB() const { return InflatedB; }

private:
  bool restart();
  bool inflateInto(uint8_t *Dst, size_t Len);

  int Fd = -1;
  uint64_t DataOff = 0, DataB = 0; ///< the raw stream in the file
  uint64_t SizeB = 0;
  bool Compressed = false;
  void *Stream = nullptr; ///< z_stream, when started
  uint64_t InPos = 0;     ///< raw bytes inflate has consumed
  uint64_t Pos = 0;       ///< contents produced so far
  uint64_t InflatedB = 0;
  ReadBuffers Bufs = {};
};

} // namespace symbolizer
} // namespace massif

#endif // MASSIF_SYMBOLIZER_SECTIONREADER_H
