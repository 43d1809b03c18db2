//===- JsonText.cpp - Writing JSON strings and numbers --------------------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "JsonText.h"

namespace msprint::views {

namespace {

/// Length of the well-formed UTF-8 sequence at S[I], or 0.
size_t utf8Length(std::string_view S, size_t I) {
  unsigned char C = static_cast<unsigned char>(S[I]);
  size_t Len;
  uint32_t Min, Cp;
  if (C >= 0xC2 && C <= 0xDF) {
    Len = 2, Min = 0x80, Cp = C & 0x1F;
  } else if (C >= 0xE0 && C <= 0xEF) {
    Len = 3, Min = 0x800, Cp = C & 0x0F;
  } else if (C >= 0xF0 && C <= 0xF4) {
    Len = 4, Min = 0x10000, Cp = C & 0x07;
  } else {
    return 0;
  }
  if (I + Len > S.size())
    return 0;
  for (size_t K = 1; K < Len; ++K) {
    unsigned char D = static_cast<unsigned char>(S[I + K]);
    if ((D & 0xC0) != 0x80)
      return 0;
    Cp = (Cp << 6) | (D & 0x3F);
  }
  if (Cp < Min || Cp > 0x10FFFF || (Cp >= 0xD800 && Cp <= 0xDFFF))
    return 0;
  return Len;
}

} // namespace

void appendJsonString(std::string &Out, std::string_view S) {
  static const char Hex[] = "0123456789abcdef";
  Out += '"';
  for (size_t I = 0; I < S.size();) {
    unsigned char C = static_cast<unsigned char>(S[I]);
    if (C >= 0x80) {
      if (size_t Len = utf8Length(S, I)) {
        Out.append(S.data() + I, Len);
        I += Len;
      } else {
        Out += "\\ufffd";
        ++I;
      }
      continue;
    }
    ++I;
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\t':
      Out += "\\t";
      break;
    case '<':
    case '>':
    case '&':
      Out += "\\u00";
      Out += Hex[C >> 4];
      Out += Hex[C & 15];
      break;
    default:
      if (C < 0x20) {
        Out += "\\u00";
        Out += Hex[C >> 4];
        Out += Hex[C & 15];
      } else {
        Out += char(C);
      }
    }
  }
  Out += '"';
}

void appendNumber(std::string &Out, uint64_t V) {
  char Buf[24];
  char *P = Buf + sizeof(Buf);
  do {
    *--P = char('0' + V % 10);
    V /= 10;
  } while (V);
  Out.append(P, size_t(Buf + sizeof(Buf) - P));
}

namespace {
void appendMemberKey(std::string &Out, std::string_view Key) {
  Out += ",\"";
  Out += Key;
  Out += "\":";
}
} // namespace

void appendJsonMember(std::string &Out, std::string_view Key,
                      std::string_view Value) {
  appendMemberKey(Out, Key);
  appendJsonString(Out, Value);
}

void appendJsonMember(std::string &Out, std::string_view Key, uint64_t Value) {
  appendMemberKey(Out, Key);
  appendNumber(Out, Value);
}

} // namespace msprint::views
