//===- Graph.cpp - memusagestat's picture as PNG, and drawGraph -----------===//
//
// Part of massif-native, under the MIT licence.
//
// The PNG writer passes the layout's calls straight to libgd on a palette
// image set up as memusagestat sets up its own (same colours allocated in
// the same order, the background transparent), and gdImagePng encodes it
// with the same defaults, so the file matches memusagestat's. drawGraph
// reads the data file once and feeds both writers through a fan-out.
//
//===----------------------------------------------------------------------===//

#include "Graph.h"

#include "GraphLayout.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <gd.h>
#include <gdfontl.h>
#include <gdfonts.h>
#include <sys/stat.h>
#include <vector>

namespace massif {
namespace memusage {

namespace {

/// Draws on a libgd palette image.
class GdCanvas final : public Canvas {
public:
  GdCanvas(int Width, int Height) : Image(gdImageCreate(Width, Height)) {
    if (!Image)
      return;
    for (int I = 0; I < NumInks; ++I) {
      Rgb C = inkRgb(static_cast<Ink>(I));
      Colour[I] = gdImageColorAllocate(Image, C.R, C.G, C.B);
    }
    gdImageColorTransparent(Image, Colour[int(Ink::Background)]);
  }
  ~GdCanvas() override {
    if (Image)
      gdImageDestroy(Image);
  }
  GdCanvas(const GdCanvas &) = delete;
  GdCanvas &operator=(const GdCanvas &) = delete;

  gdImagePtr image() const { return Image; }

  void rectangle(int X1, int Y1, int X2, int Y2, Ink C) override {
    gdImageRectangle(Image, X1, Y1, X2, Y2, Colour[int(C)]);
  }
  void filledRectangle(int X1, int Y1, int X2, int Y2, Ink C) override {
    gdImageFilledRectangle(Image, X1, Y1, X2, Y2, Colour[int(C)]);
  }
  void line(int X1, int Y1, int X2, int Y2, Ink C) override {
    gdImageLine(Image, X1, Y1, X2, Y2, Colour[int(C)]);
  }
  void dashedLine(int X1, int Y1, int X2, int Y2, Ink C) override {
    gdImageDashedLine(Image, X1, Y1, X2, Y2, Colour[int(C)]);
  }
  void text(Face F, int X, int Y, std::string_view S, Ink C) override {
    std::string Z(S); // libgd wants a NUL-terminated, mutable string.
    gdImageString(Image, font(F), X, Y,
                  reinterpret_cast<unsigned char *>(Z.data()), Colour[int(C)]);
  }
  void textUp(Face F, int X, int Y, std::string_view S, Ink C) override {
    std::string Z(S);
    gdImageStringUp(Image, font(F), X, Y,
                    reinterpret_cast<unsigned char *>(Z.data()),
                    Colour[int(C)]);
  }

private:
  static gdFontPtr font(Face F) {
    return F == Face::Small ? gdFontGetSmall() : gdFontGetLarge();
  }

  gdImagePtr Image;
  int Colour[NumInks] = {};
};

/// Passes every call on to each writer, in order.
class FanOut final : public Canvas {
public:
  std::vector<Canvas *> Targets;

  void rectangle(int X1, int Y1, int X2, int Y2, Ink C) override {
    for (Canvas *T : Targets)
      T->rectangle(X1, Y1, X2, Y2, C);
  }
  void filledRectangle(int X1, int Y1, int X2, int Y2, Ink C) override {
    for (Canvas *T : Targets)
      T->filledRectangle(X1, Y1, X2, Y2, C);
  }
  void line(int X1, int Y1, int X2, int Y2, Ink C) override {
    for (Canvas *T : Targets)
      T->line(X1, Y1, X2, Y2, C);
  }
  void dashedLine(int X1, int Y1, int X2, int Y2, Ink C) override {
    for (Canvas *T : Targets)
      T->dashedLine(X1, Y1, X2, Y2, C);
  }
  void text(Face F, int X, int Y, std::string_view S, Ink C) override {
    for (Canvas *T : Targets)
      T->text(F, X, Y, S, C);
  }
  void textUp(Face F, int X, int Y, std::string_view S, Ink C) override {
    for (Canvas *T : Targets)
      T->textUp(F, X, Y, S, C);
  }
  void endPlot() override {
    for (Canvas *T : Targets)
      T->endPlot();
  }
  void finish() override {
    for (Canvas *T : Targets)
      T->finish();
  }
};

std::string cannotWrite(const std::string &Path, int Err) {
  return "cannot write graph file '" + Path + "': " + std::strerror(Err);
}

/// Closes Out and returns its first write error, or "". Half a picture is
/// worse than none: when writing failed, or Discard says the picture is
/// incomplete, a regular file is removed (never a device or a pipe).
std::string closeOutput(std::FILE *Out, const std::string &Path,
                        bool Discard = false) {
  struct stat St;
  bool Regular = fstat(fileno(Out), &St) == 0 && S_ISREG(St.st_mode);
  bool Failed = std::ferror(Out);
  int Err = errno;
  if (std::fclose(Out) != 0 && !Failed) {
    Failed = true;
    Err = errno;
  }
  if ((Failed || Discard) && Regular)
    std::remove(Path.c_str());
  return Failed ? cannotWrite(Path, Err ? Err : EIO) : "";
}

} // namespace

std::string drawGraph(const std::string &DataPath, const GraphOptions &O,
                      const std::string &PngPath, const std::string &SvgPath) {
  GraphData D;
  std::string Error = openGraphData(DataPath, O, D);
  if (!Error.empty())
    return Error;
  const int W = int(D.Width), H = int(D.Height);

  FanOut Both;
  std::unique_ptr<GdCanvas> Png;
  if (!PngPath.empty()) {
    Png = std::make_unique<GdCanvas>(W, H);
    if (!Png->image())
      return "cannot allocate a " + std::to_string(W) + "x" +
             std::to_string(H) + " image";
    Both.Targets.push_back(Png.get());
  }
  // The SVG streams out while the data is read, so it is opened first; the
  // PNG is opened once drawn, as memusagestat does.
  std::FILE *SvgFile = nullptr;
  std::unique_ptr<Canvas> Svg;
  if (!SvgPath.empty()) {
    SvgFile = std::fopen(SvgPath.c_str(), "w");
    if (!SvgFile)
      return cannotWrite(SvgPath, errno);
    Svg = makeSvgCanvas(SvgFile, W, H);
    Both.Targets.push_back(Svg.get());
  }

  Error = layOutGraph(D, O, Both);
  if (SvgFile) {
    Svg.reset();
    std::string CloseError = closeOutput(SvgFile, SvgPath, !Error.empty());
    if (Error.empty())
      Error = CloseError;
  }
  if (!Error.empty() || !Png)
    return Error;

  std::FILE *PngFile = std::fopen(PngPath.c_str(), "wb");
  if (!PngFile)
    return cannotWrite(PngPath, errno);
  gdImagePng(Png->image(), PngFile);
  return closeOutput(PngFile, PngPath);
}

} // namespace memusage
} // namespace massif
