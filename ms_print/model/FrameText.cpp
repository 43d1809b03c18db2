//===- FrameText.cpp - The parts of a heap tree line's text ---------------===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "FrameText.h"

#include "massif/format.h"

namespace msprint::model {

namespace {

bool startsWith(std::string_view S, std::string_view P) {
  return S.substr(0, P.size()) == P;
}

bool isHex(char C) {
  return (C >= '0' && C <= '9') || (C >= 'A' && C <= 'F') ||
         (C >= 'a' && C <= 'f');
}

/// Splits "fn (file:line)" or "fn (in obj)" into F; leaves F.Function as
/// the whole of Rest when the last group is neither.
void splitLocation(std::string_view Rest, FrameText &F) {
  F.Function = Rest;
  if (Rest.size() < 4 || Rest.back() != ')')
    return;
  size_t Open = Rest.rfind(" (");
  if (Open == std::string_view::npos)
    return;
  std::string_view Group = Rest.substr(Open + 2, Rest.size() - Open - 3);
  if (startsWith(Group, "in ") && Group.size() > 3) {
    F.Object = Group.substr(3);
    F.Function = Rest.substr(0, Open);
    return;
  }
  size_t Colon = Group.rfind(':');
  if (Colon == std::string_view::npos || Colon == 0 ||
      Colon + 1 == Group.size())
    return;
  uint64_t Line = 0;
  for (char C : Group.substr(Colon + 1)) {
    if (C < '0' || C > '9' || Line > UINT32_MAX / 10)
      return;
    Line = Line * 10 + uint64_t(C - '0');
  }
  if (Line > UINT32_MAX)
    return;
  F.File = Group.substr(0, Colon);
  F.Line = uint32_t(Line);
  F.Function = Rest.substr(0, Open);
}

} // namespace

uint64_t FrameText::addressValue() const {
  uint64_t V = 0;
  for (char C : Address.substr(Address.size() > 2 ? 2 : Address.size())) {
    unsigned D = C <= '9' ? unsigned(C - '0')
                          : unsigned((C | 0x20) - 'a' + 10);
    V = V * 16 + D;
  }
  return V;
}

std::string FrameText::location() const {
  std::string S(Function);
  if (!File.empty()) {
    S += " (";
    S += File;
    S += ':';
    S += std::to_string(Line);
    S += ')';
  } else if (!Object.empty()) {
    S += " (in ";
    S += Object;
    S += ')';
  }
  return S;
}

FrameText parseFrameText(std::string_view Text) {
  FrameText F;
  F.Function = Text;
  if (Text == massif::format::RootHeap || Text == massif::format::RootPages) {
    F.Kind = FrameKind::Root;
    return F;
  }
  if (startsWith(Text, "in ") &&
      Text.find("below massif's threshold") != std::string_view::npos) {
    F.Kind = FrameKind::Insignificant;
    for (char C : Text.substr(3)) {
      if (C < '0' || C > '9')
        break;
      F.Places = F.Places * 10 + uint64_t(C - '0');
    }
    return F;
  }
  // "0x<hex>: rest"
  if (startsWith(Text, "0x")) {
    size_t I = 2;
    while (I < Text.size() && isHex(Text[I]))
      ++I;
    if (I > 2 && I + 1 < Text.size() && Text[I] == ':' &&
        Text[I + 1] == ' ') {
      F.Address = Text.substr(0, I);
      splitLocation(Text.substr(I + 2), F);
      return F;
    }
  }
  splitLocation(Text, F);
  return F;
}

} // namespace msprint::model
