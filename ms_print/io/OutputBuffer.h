//===- OutputBuffer.h - A buffered writer for stdout ----------------------===//
//
// Part of massif-native, under the MIT licence.
//
// ms_print writes tens of megabytes for a large profile, so output is
// accumulated in a string and handed to write(2) in large blocks. The
// buffer doubles as the formatting scratch area: callers append to text()
// and call flushIfFull() at convenient points.
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_OUTPUTBUFFER_H
#define MSPRINT_OUTPUTBUFFER_H

#include <string>
#include <string_view>

namespace msprint {

/// Collects output and writes it to a file descriptor in large blocks
/// (a negative descriptor discards it).
class OutputBuffer {
public:
  explicit OutputBuffer(int Fd) : Fd(Fd) { Buffer.reserve(FlushSize * 2); }
  ~OutputBuffer() { flush(); }
  OutputBuffer(const OutputBuffer &) = delete;
  OutputBuffer &operator=(const OutputBuffer &) = delete;

  /// The pending text; append to it directly.
  std::string &text() { return Buffer; }
  void append(std::string_view S) { Buffer.append(S.data(), S.size()); }
  void append(char C) { Buffer += C; }

  /// Writes the pending text once it exceeds the block size.
  void flushIfFull() {
    if (Buffer.size() >= FlushSize)
      flush();
  }
  /// Writes all pending text.
  void flush();
  /// The errno of the first failed write, else 0.
  int error() const { return Error; }

private:
  static constexpr size_t FlushSize = 1 << 20;
  int Fd;
  int Error = 0;
  std::string Buffer;
};

} // namespace msprint

#endif // MSPRINT_OUTPUTBUFFER_H
