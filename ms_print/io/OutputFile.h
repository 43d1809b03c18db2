//===- OutputFile.h - Where a view or ms_diff writes ----------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Standard output, or a file created (or truncated) only when open() is
// called, so that a tool can refuse its input first and leave an existing
// file as it was. Writes go through an OutputBuffer; every failure (to
// open, to write, to close) is reported once, as
// "<tool>: cannot write '<file>': <reason>".
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_OUTPUTFILE_H
#define MSPRINT_OUTPUTFILE_H

#include "OutputBuffer.h"

#include <memory>
#include <string>

namespace msprint {

class OutputFile {
public:
  /// Tool names the messages ("ms_print", "ms_diff").
  explicit OutputFile(const char *Tool) : Tool(Tool) {}
  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  /// Opens Path, or standard output when Path is empty; false after the
  /// message.
  bool open(const std::string &Path);
  /// The descriptor open() gave.
  int fd() const { return Fd; }
  /// The buffer over fd().
  OutputBuffer &buffer() { return *Buffer; }
  /// Flushes and closes; false after the message when anything failed.
  bool close();

private:
  void report(int Errno) const;

  const char *Tool;
  std::string Path;
  int Fd = -1;
  std::unique_ptr<OutputBuffer> Buffer;
};

} // namespace msprint

#endif // MSPRINT_OUTPUTFILE_H
