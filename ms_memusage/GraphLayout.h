//===- GraphLayout.h - What memusagestat draws, for any canvas --*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The geometry of the graph, computed once and handed to a Canvas as libgd
// drawing calls; the PNG writer (Graph.cpp) passes them to libgd, the SVG
// writer (GraphSvg.cpp) turns them into elements. The data file it reads is
// memusage's, a sequence of 24-byte little-endian records:
//
//   offset 0   uint64 heap    bytes in use on the heap
//          8   uint64 stack   bytes of stack in use
//         16   uint32 time    low, then high half of the TSC
//   record 0 = {0, peak heap+stack, start time}
//   record 1 = {peak heap, peak stack, end time}
//   record 2.. one per memory call (and per SIGPROF tick)
//
// The picture, W x H pixels (corners inclusive, y down), transparent grey:
//
//  x:  0      40                                          W-40      W
//  y=0 +--------------- title (large font, green) -----------------+
//      | peak +---------------------------------------------+ peak |
//      | heap |- - grid at 1/4, 1/2, 3/4 of each peak - - - | stack|
//      | (red)|                                             |(grn) |
//      | "allocated   heap (red), stack (green) and total     "used|
//      | memory"      (black, -T) lines, one segment per      stack"
//      | upward       record, x by call number or (-t) time   upward
// H-20 |   0  +---------------------------------------------+ 0    |
//      |   0    yellow bands, blue ticks               record count|
//    H +------------------ x-axis label (blue) --------------------+
//
// memusagestat computes positions in size_t and gives libgd their int
// truncation; the layout keeps that arithmetic, so absurd data (values
// above the recorded peaks, time going backwards) lands where it does
// there and libgd clips it.
//
//===----------------------------------------------------------------------===//

#ifndef MS_MEMUSAGE_GRAPHLAYOUT_H
#define MS_MEMUSAGE_GRAPHLAYOUT_H

#include "Graph.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace massif {
namespace memusage {

/// memusagestat's colours, in its allocation order, which is libgd's
/// palette order. Background is the transparent colour.
enum class Ink : uint8_t { Background, Red, Green, Blue, Yellow, Black };
constexpr int NumInks = 6;

struct Rgb {
  uint8_t R, G, B;
};
Rgb inkRgb(Ink C);

/// libgd's built-in fonts: gdFontSmall (6x13) and gdFontLarge (8x16).
enum class Face : uint8_t { Small, Large };
constexpr int faceWidth(Face F) { return F == Face::Small ? 6 : 8; }
constexpr int faceHeight(Face F) { return F == Face::Small ? 13 : 16; }

/// What the layout draws on, in libgd's terms: pixel (0,0) is the top-left
/// one and both corners of a shape are included.
class Canvas {
public:
  virtual ~Canvas();
  virtual void rectangle(int X1, int Y1, int X2, int Y2, Ink C) = 0;
  virtual void filledRectangle(int X1, int Y1, int X2, int Y2, Ink C) = 0;
  virtual void line(int X1, int Y1, int X2, int Y2, Ink C) = 0;
  virtual void dashedLine(int X1, int Y1, int X2, int Y2, Ink C) = 0;
  /// Text left to right, its first cell's top-left pixel at (X, Y).
  virtual void text(Face F, int X, int Y, std::string_view S, Ink C) = 0;
  /// Text bottom to top (gdImageStringUp): cell i covers columns
  /// X..X+height-1 and rows Y-(i+1)*width+1..Y-i*width.
  virtual void textUp(Face F, int X, int Y, std::string_view S, Ink C) = 0;
  /// The data lines are all drawn; a writer that merges segments flushes.
  virtual void endPlot() {}
  /// The picture is complete.
  virtual void finish() {}
};

/// An open, checked data file and the picture's size.
struct GraphData {
  GraphData() = default;
  GraphData(const GraphData &) = delete;
  GraphData &operator=(const GraphData &) = delete;
  ~GraphData();

  std::string Path;
  std::FILE *File = nullptr;
  /// Records after the two header records.
  uint64_t NumRecords = 0;
  uint64_t PeakHeap = 0, PeakStack = 0, PeakTotal = 0;
  uint64_t StartTime = 0, EndTime = 0;
  /// The image size, after memusagestat's rules; both fit libgd's int.
  uint64_t Width = 0, Height = 0;
};

/// Opens and checks DataPath, reads its header (recomputing the peaks from
/// the records when the program died before writing them, as memusagestat
/// does, but without writing them back) and settles the image size.
/// Returns "" or an error line.
std::string openGraphData(const std::string &DataPath, const GraphOptions &O,
                          GraphData &D);

/// Draws the whole picture of D on Out. Returns "" or an error line (the
/// file changed under us).
std::string layOutGraph(GraphData &D, const GraphOptions &O, Canvas &Out);

/// The SVG writer (GraphSvg.cpp): streams a Width x Height picture to Out,
/// which the caller opened and closes, checking it for write errors.
std::unique_ptr<Canvas> makeSvgCanvas(std::FILE *Out, int Width, int Height);

} // namespace memusage
} // namespace massif

#endif // MS_MEMUSAGE_GRAPHLAYOUT_H
