//===- SectionReader.h - One ELF section's bytes, read forward -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Reads ranges of one section of a file without mapping the file: plainly
// with pread, or, for a zlib-compressed section (SHF_COMPRESSED), through a
// stream of inflate that is kept between reads. Reads are cheap in
// increasing order of offset; a read behind the stream's position starts
// it again from the beginning. Memory: the stream's state and two 32 KiB
// buffers, whatever the section's size.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_NATIVE_SECTIONREADER_H
#define MASSIF_NATIVE_SECTIONREADER_H

#include <stddef.h>
#include <stdint.h>

namespace massif {
namespace native {

class SectionReader {
public:
  /// The section's data at FileOff, FileB bytes in the file. When
  /// Compressed, the data starts with its Elf64_Chdr.
  bool init(int Fd, uint64_t FileOff, uint64_t FileB, bool Compressed);
  void close();

  /// The size of the section's (uncompressed) contents.
  uint64_t sizeB() const { return SizeB; }
  /// Copies bytes [Off, Off + Len) of the contents to Dst.
  bool read(uint64_t Off, uint8_t *Dst, size_t Len);

private:
  bool restart();
  bool inflateInto(uint8_t *Dst, size_t Len);

  int Fd = -1;
  uint64_t DataOff = 0, DataB = 0; ///< the raw stream in the file
  uint64_t SizeB = 0;
  bool Compressed = false;
  void *Stream = nullptr; ///< z_stream, when started
  uint64_t InPos = 0;     ///< raw bytes handed to inflate
  uint64_t Pos = 0;       ///< contents produced so far
  uint8_t *In = nullptr, *Scratch = nullptr;
};

} // namespace native
} // namespace massif

#endif // MASSIF_NATIVE_SECTIONREADER_H
