//===- LineCursor.h - The lines of a text file, for the loaders -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// What the massif.out loader and the site statistics loader share: the
// file's lines one at a time (a CR before a newline dropped), their
// numbers for messages, and the pieces of their messages.
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_MODEL_LINECURSOR_H
#define MSPRINT_MODEL_LINECURSOR_H

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

namespace msprint::model {

class LineCursor {
public:
  LineCursor(std::string_view Text, std::string_view Name)
      : Pos(Text.data()), End(Text.data() + Text.size()), Name(Name) {}

  /// Makes the next line current, whatever it holds; false at the end of
  /// the file (then Cur is empty and Have false).
  bool nextLine() {
    if (Pos >= End) {
      Have = false;
      Cur = {};
      return false;
    }
    const char *Nl =
        static_cast<const char *>(std::memchr(Pos, '\n', size_t(End - Pos)));
    const char *LineEnd = Nl ? Nl : End;
    Cur = std::string_view(Pos, size_t(LineEnd - Pos));
    Pos = Nl ? Nl + 1 : End;
    ++LineNo;
    if (!Cur.empty() && Cur.back() == '\r')
      Cur.remove_suffix(1);
    Have = true;
    return true;
  }

  /// Sets the error, "NAME:LINE: What" (an empty file has a line 1), and
  /// returns false.
  bool fail(const std::string &What) {
    Err = std::string(Name) + ":" + std::to_string(LineNo ? LineNo : 1) +
          ": " + What;
    return false;
  }

  /// Up to 60 bytes of Text for an error message, with control and
  /// non-ASCII bytes as \xNN (a binary file must not reach the terminal).
  static std::string shown(std::string_view Text) {
    static const char Hex[] = "0123456789abcdef";
    std::string S;
    for (char C : Text.substr(0, 60)) {
      unsigned char U = static_cast<unsigned char>(C);
      if (U >= 0x20 && U < 0x7f) {
        S += C;
      } else {
        S += "\\x";
        S += Hex[U >> 4];
        S += Hex[U & 15];
      }
    }
    if (Text.size() > 60)
      S += "...";
    return S;
  }

  /// S, all decimal digits, as a number that fits 64 bits.
  static bool toNumber(std::string_view S, uint64_t &Out) {
    if (S.empty())
      return false;
    uint64_t N = 0;
    for (char C : S) {
      if (C < '0' || C > '9')
        return false;
      uint64_t D = uint64_t(C - '0');
      if (N > (std::numeric_limits<uint64_t>::max() - D) / 10)
        return false;
      N = N * 10 + D;
    }
    Out = N;
    return true;
  }

  std::string_view Cur;
  bool Have = false;
  uint64_t LineNo = 0;
  std::string Err;

private:
  const char *Pos;
  const char *End;
  std::string_view Name;
};

} // namespace msprint::model

#endif
