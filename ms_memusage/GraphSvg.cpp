//===- GraphSvg.cpp - memusagestat's picture as SVG -----------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Turns the layout's libgd calls into SVG elements with the same pixel
// coverage: libgd fills whole pixels with both end points included, so a
// one-pixel stroke runs through pixel centres (x + 0.5) with square caps,
// filled areas span x .. x2 + 1, and crispEdges keeps browsers from
// smoothing them. Text uses the browser's monospace font, stretched to
// libgd's cell widths (6 and 8 pixels) so every label keeps its extent.
//
// A graph has one segment per record and colour; consecutive segments of a
// colour are merged into one polyline, and adjacent yellow slots into one
// rectangle, so the file grows with the plot's points, not its calls.
// Merged shapes are written when the plot ends, over the shapes drawn
// before it, in the order memusagestat paints each record.
//
//===----------------------------------------------------------------------===//

#include "GraphLayout.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace massif {
namespace memusage {

namespace {

/// Where a face's baseline sits below the top of its cell (libgd's
/// fonts put the bottom of the digits on row 10 and 12), and a font size
/// whose capitals are about as tall as libgd's (8 and 10 pixels).
int ascentOf(Face F) { return F == Face::Small ? 11 : 13; }
int fontSizeOf(Face F) { return F == Face::Small ? 11 : 14; }

/// The length of the UTF-8 sequence at S[I] if it is a character XML
/// allows (no overlong forms, surrogates, U+FFFE, U+FFFF), else 0.
size_t xmlCharLength(std::string_view S, size_t I) {
  auto At = [&](size_t K) { return static_cast<unsigned char>(S[I + K]); };
  unsigned char C = At(0);
  size_t Len = C < 0xc2 ? 0 : C < 0xe0 ? 2 : C < 0xf0 ? 3 : C < 0xf5 ? 4 : 0;
  if (Len == 0 || I + Len > S.size())
    return 0;
  unsigned char Lo = C == 0xe0 ? 0xa0 : C == 0xf0 ? 0x90 : 0x80;
  unsigned char Hi = C == 0xed ? 0x9f : C == 0xf4 ? 0x8f : 0xbf;
  if (At(1) < Lo || At(1) > Hi)
    return 0;
  for (size_t K = 2; K < Len; ++K)
    if ((At(K) & 0xc0) != 0x80)
      return 0;
  if (C == 0xef && At(1) == 0xbf && At(2) >= 0xbe)
    return 0;
  return Len;
}

/// The XML text of a label. libgd draws every byte with its font's glyph,
/// control characters included (memusagestat's -t label starts with tabs,
/// drawn as "HT"), so they become Unicode's control pictures; valid UTF-8
/// passes through and other bytes become U+FFFD.
std::string xmlText(std::string_view S) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    unsigned char C = S[I];
    if (C == '<' || C == '>' || C == '&') {
      Out += C == '<' ? "&lt;" : C == '>' ? "&gt;" : "&amp;";
    } else if (C < 0x20 || C == 0x7f) {
      unsigned Pic = C == 0x7f ? 0x2421 : 0x2400 + C;
      Out += char(0xe0 | Pic >> 12);
      Out += char(0x80 | (Pic >> 6 & 0x3f));
      Out += char(0x80 | (Pic & 0x3f));
    } else if (C < 0x80) {
      Out += char(C);
    } else if (size_t Len = xmlCharLength(S, I)) {
      Out.append(S.substr(I, Len));
      I += Len - 1;
    } else {
      Out += "\xef\xbf\xbd";
    }
  }
  return Out;
}

/// Streams SVG elements to a file.
class SvgCanvas final : public Canvas {
public:
  SvgCanvas(std::FILE *Out, int Width, int Height) : Out(Out) {
    std::fprintf(Out,
                 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                 "height=\"%d\" viewBox=\"0 0 %d %d\" "
                 "shape-rendering=\"crispEdges\" xml:space=\"preserve\" "
                 "font-family=\"DejaVu Sans Mono, monospace\">\n",
                 Width, Height, Width, Height);
  }

  void rectangle(int X1, int Y1, int X2, int Y2, Ink C) override {
    if (X1 == X2 || Y1 == Y2)
      return line(X1, Y1, X2, Y2, C);
    std::fprintf(Out,
                 "<rect x=\"%s\" y=\"%s\" width=\"%lld\" height=\"%lld\" "
                 "fill=\"none\" stroke=\"%s\"/>\n",
                 half(std::min(X1, X2)).c_str(), half(std::min(Y1, Y2)).c_str(),
                 span(X1, X2) - 1, span(Y1, Y2) - 1, colour(C).c_str());
  }

  void filledRectangle(int X1, int Y1, int X2, int Y2, Ink C) override {
    Box B{std::min(X1, X2), std::min(Y1, Y2), std::max(X1, X2),
          std::max(Y1, Y2)};
    Box &Open = Boxes[int(C)];
    bool Joins = Open.X1 <= Open.X2 && B.Y1 == Open.Y1 && B.Y2 == Open.Y2 &&
                 B.X1 <= Open.X2 + 1LL && B.X2 + 1LL >= Open.X1;
    if (Joins) {
      Open.X1 = std::min(Open.X1, B.X1);
      Open.X2 = std::max(Open.X2, B.X2);
      return;
    }
    flushBox(C);
    Open = B;
  }

  void line(int X1, int Y1, int X2, int Y2, Ink C) override {
    std::vector<Point> &Open = Lines[int(C)];
    if (Open.empty() || Open.back() != Point(X1, Y1)) {
      flushLine(C);
      Open.emplace_back(X1, Y1);
    }
    if (Open.back() != Point(X2, Y2) || Open.size() == 1)
      Open.emplace_back(X2, Y2);
  }

  void dashedLine(int X1, int Y1, int X2, int Y2, Ink C) override {
    // libgd starts the pattern (3 pixels on, then 4 off, 4 on, ...) at the
    // end with the smaller coordinate along the longer axis.
    bool Flat = span(Y1, Y2) <= span(X1, X2);
    if (Flat ? X1 > X2 : Y1 > Y2) {
      std::swap(X1, X2);
      std::swap(Y1, Y2);
    }
    std::string A = Flat ? std::to_string(X1) : half(X1);
    std::string B = Flat ? std::to_string(X2 + 1LL) : half(X2);
    std::string P = Flat ? half(Y1) : std::to_string(Y1);
    std::string Q = Flat ? half(Y2) : std::to_string(Y2 + 1LL);
    std::fprintf(Out,
                 "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" "
                 "stroke-dasharray=\"4\" stroke-dashoffset=\"1\"/>\n",
                 A.c_str(), P.c_str(), B.c_str(), Q.c_str(), colour(C).c_str());
  }

  void text(Face F, int X, int Y, std::string_view S, Ink C) override {
    if (S.empty())
      return;
    std::fprintf(Out, "<text x=\"%d\" y=\"%lld\"", X, Y + 0LL + ascentOf(F));
    textBody(F, S, C);
  }

  void textUp(Face F, int X, int Y, std::string_view S, Ink C) override {
    if (S.empty())
      return;
    // Rotated a quarter turn left about the bottom-left corner of the
    // first cell, which is (X, Y + 1).
    std::fprintf(Out,
                 "<text transform=\"translate(%d %lld) rotate(-90)\" x=\"0\" "
                 "y=\"%d\"",
                 X, Y + 1LL, ascentOf(F));
    textBody(F, S, C);
  }

  void endPlot() override { flushAll(); }

  void finish() override {
    flushAll();
    std::fputs("</svg>\n", Out);
  }

private:
  using Point = std::pair<int, int>;
  struct Box {
    int X1 = 0, Y1 = 0, X2 = -1, Y2 = -1; // X2 < X1: none open
  };

  static long long span(int A, int B) {
    return A < B ? B - 0LL - A + 1 : A - 0LL - B + 1;
  }
  /// The centre of pixel V, exactly.
  static std::string half(int V) {
    long long Twice = 2LL * V + 1;
    return (Twice < 0 ? "-" : "") +
           std::to_string((Twice < 0 ? -Twice : Twice) / 2) + ".5";
  }
  static std::string colour(Ink C) {
    Rgb V = inkRgb(C);
    char Buf[8];
    std::snprintf(Buf, sizeof(Buf), "#%02x%02x%02x", V.R, V.G, V.B);
    return Buf;
  }

  void textBody(Face F, std::string_view S, Ink C) {
    std::fprintf(Out,
                 " font-size=\"%d\" textLength=\"%zu\" "
                 "lengthAdjust=\"spacingAndGlyphs\" fill=\"%s\">%s</text>\n",
                 fontSizeOf(F), S.size() * size_t(faceWidth(F)),
                 colour(C).c_str(), xmlText(S).c_str());
  }

  void flushBox(Ink C) {
    Box &B = Boxes[int(C)];
    if (B.X1 > B.X2)
      return;
    std::fprintf(Out,
                 "<rect x=\"%d\" y=\"%d\" width=\"%lld\" height=\"%lld\" "
                 "fill=\"%s\"/>\n",
                 B.X1, B.Y1, span(B.X1, B.X2), span(B.Y1, B.Y2),
                 colour(C).c_str());
    B = Box();
  }

  void flushLine(Ink C) {
    std::vector<Point> &Points = Lines[int(C)];
    if (Points.empty())
      return;
    std::fprintf(Out,
                 "<polyline fill=\"none\" stroke=\"%s\" "
                 "stroke-linecap=\"square\" stroke-linejoin=\"round\" "
                 "points=\"",
                 colour(C).c_str());
    for (size_t I = 0; I < Points.size(); ++I)
      std::fprintf(Out, "%s%s,%s", I ? " " : "", half(Points[I].first).c_str(),
                   half(Points[I].second).c_str());
    std::fputs("\"/>\n", Out);
    Points.clear();
  }

  /// Slots first, then the lines in the order memusagestat paints a
  /// record's: a tick, then the total, heap and stack lines.
  void flushAll() {
    for (int I = 0; I < NumInks; ++I)
      flushBox(static_cast<Ink>(I));
    for (Ink C : {Ink::Background, Ink::Yellow, Ink::Blue, Ink::Black, Ink::Red,
                  Ink::Green})
      flushLine(C);
  }

  std::FILE *Out;
  Box Boxes[NumInks];
  std::vector<Point> Lines[NumInks];
};

} // namespace

std::unique_ptr<Canvas> makeSvgCanvas(std::FILE *Out, int Width, int Height) {
  return std::make_unique<SvgCanvas>(Out, Width, Height);
}

} // namespace memusage
} // namespace massif
