//===- OutFile.h - Output file names and the file sink ----------*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// --massif-out-file expansion with Massif's rules and error texts (%p, %n,
// %q{VAR}, %%; a relative name is resolved against the start-up working
// directory), and a buffered Sink that writes to a file descriptor with
// write(2). Neither allocates.
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_SUPPORT_OUTFILE_H
#define MASSIF_SUPPORT_OUTFILE_H

#include "Base.h"

namespace massif {

/// What an expansion may consult.
struct NameContext {
  uint64_t Pid;          ///< for %p
  const char *StartCwd;  ///< prefix of relative names; null leaves them be
  uint32_t *Sequence;    ///< %n counter: incremented, then printed
  const char *(*GetEnv)(const char *Name); ///< for %q{VAR}
};

/// Expands Pattern into Out[0..OutCap). On failure returns false and puts
/// Massif's reason (one or more lines, '\n'-separated, no trailing newline)
/// into Reason[0..ReasonCap).
bool expandFileName(const char *Pattern, const NameContext &C, char *Out,
                    size_t OutCap, char *Reason, size_t ReasonCap);

/// Writes all of Data to Fd, retrying after EINTR and short writes.
bool writeAll(int Fd, const char *Data, size_t Len);

/// Writes the NUL-terminated strings of Parts, in order, to Fd (for
/// diagnostics built without printf).
void writeLine(int Fd, const char *const *Parts, size_t NumParts);

/// writeLine of a single string.
inline void writeLine(int Fd, const char *Line) { writeLine(Fd, &Line, 1); }

/// Writes each '\n'-separated line of Text to Fd, after Prefix.
void writeLines(int Fd, const char *Prefix, const char *Text);

/// A Sink over a file descriptor with its own buffer.
class FdSink {
public:
  FdSink(int Fd, char *Buf, size_t Cap) : Fd(Fd), Buf(Buf), Cap(Cap) {}

  /// The massif::Sink view of this object.
  Sink sink() { return Sink{writeThunk, this}; }

  /// Writes out what is buffered; false after any failed write.
  bool flush();

  /// errno of the first failed write, or 0.
  int error() const { return Errno; }

private:
  static bool writeThunk(void *Ctx, const char *Data, size_t Len);
  bool append(const char *Data, size_t Len);

  int Fd;
  char *Buf;
  size_t Cap;
  size_t Len = 0;
  int Errno = 0;
};

} // namespace massif

#endif // MASSIF_SUPPORT_OUTFILE_H
