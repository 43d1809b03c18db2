//===- InputFile.h - Opening the profile and reading it line by line ------===//
//
// Part of massif-native, under the MIT licence.
//
// The script opens its input with Perl's two-argument open("< $file"), so
// surrounding whitespace is ignored, " -" means stdin and "&N" or "&=N"
// reads file descriptor N; this is reproduced. A regular file is mapped
// into memory (the report reads it more than once); anything else is read
// whole. LineReader is the script's get_line(): it strips everything from
// the first '#' of each line, skips lines that are then blank, counts
// physical lines as Perl's $. does, and records when reading reaches the
// end of the file (Perl's errno becomes 0 then, which decides die's exit
// status).
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_INPUTFILE_H
#define MSPRINT_INPUTFILE_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace msprint {

/// The whole input, mapped or read into memory.
class InputFile {
public:
  InputFile() = default;
  ~InputFile();
  InputFile(const InputFile &) = delete;
  InputFile &operator=(const InputFile &) = delete;

  /// Opens Arg as Perl's open(FH, "< $Arg") would. Returns 0 on success,
  /// else the errno of the failure.
  int open(const std::string &Arg);
  /// Opens the file at Path as named (no Perl rules), or stdin for "-".
  int openPath(const std::string &Path);
  /// The whole file at Path (openPath), or null with Error saying "cannot
  /// open" or "cannot read" it and why.
  static std::unique_ptr<InputFile> readPath(const std::string &Path,
                                             std::string &Error);

  const char *begin() const { return Data; }
  const char *end() const { return Data + Size; }
  std::string_view text() const { return std::string_view(Data, Size); }
  /// errno from a failed read (e.g. EISDIR for a directory), else 0.
  int readErrno() const { return ReadErrno; }
  /// True when the input is a terminal (PerlIO then leaves errno alone).
  bool isTty() const { return IsTty; }

  /// Tells the kernel this process no longer needs the mapped pages
  /// before Pos. They are read back from the file if touched again, so
  /// views into them stay valid; resident memory stays small however
  /// large the file. Cheap to call often: acts every few megabytes.
  void releaseBefore(const char *Pos) const {
    if (!Mapping)
      return;
    if (Pos < Released)
      Released = Data; // A new pass started from the top.
    if (Pos - Released >= ReleaseStep)
      release(Pos);
  }

private:
  static constexpr ptrdiff_t ReleaseStep = 8 << 20;
  int load(int Fd, bool CloseFd);
  void release(const char *Pos) const;

  const char *Data = "";
  size_t Size = 0;
  void *Mapping = nullptr;
  size_t MappingSize = 0;
  std::string Owned;
  int ReadErrno = 0;
  bool IsTty = false;
  mutable const char *Released = nullptr;
};

/// One line as get_line() returns it.
struct Line {
  /// The text with any '#' comment removed and without the newline.
  std::string_view Text;
  /// Whether the physical line ended with '\n' (the last may not).
  bool HasNewline = false;
};

/// The script's get_line() over an in-memory file.
class LineReader {
public:
  LineReader(const char *Begin, const char *End) : Pos(Begin), End(End) {}

  /// Reads the next non-blank line; false at end of file.
  bool next(Line &L) {
    while (Pos < End) {
      const char *Start = Pos;
      const char *Nl =
          static_cast<const char *>(__builtin_memchr(Start, '\n', End - Start));
      const char *LineEnd = Nl ? Nl : End;
      Pos = Nl ? Nl + 1 : End;
      ++LineNo;
      if (!Nl)
        HitEof = true;
      const char *Hash = static_cast<const char *>(
          __builtin_memchr(Start, '#', LineEnd - Start));
      const char *ContentEnd = Hash ? Hash : LineEnd;
      if (isBlank(Start, ContentEnd))
        continue;
      L.Text = std::string_view(Start, size_t(ContentEnd - Start));
      L.HasNewline = Nl != nullptr;
      return true;
    }
    HitEof = true;
    return false;
  }

  /// Perl's $.: physical lines read so far.
  uint64_t lineNumber() const { return LineNo; }
  /// True once a read went past the last byte.
  bool hitEof() const { return HitEof; }
  /// Where the next read starts.
  const char *position() const { return Pos; }

private:
  static bool isBlank(const char *B, const char *E) {
    for (; B < E; ++B) {
      char C = *B;
      if (!(C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v' ||
            C == '\n'))
        return false;
    }
    return true;
  }

  const char *Pos;
  const char *End;
  uint64_t LineNo = 0;
  bool HitEof = false;
};

} // namespace msprint

#endif // MSPRINT_INPUTFILE_H
