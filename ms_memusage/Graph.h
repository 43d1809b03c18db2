//===- Graph.h - memusagestat's picture of a memusage data file -*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// The one entry point ms_memusage uses for -p and --svg. glibc's memusage
// script runs memusagestat on its data file to draw a PNG with libgd; we
// draw the same picture with the same libgd calls (so the PNG matches
// memusagestat's pixel for pixel) and the same geometry again as SVG for
// browsers. GraphLayout.h holds the geometry, Graph.cpp the PNG writer and
// the orchestration, GraphSvg.cpp the SVG writer.
//
//===----------------------------------------------------------------------===//

#ifndef MS_MEMUSAGE_GRAPH_H
#define MS_MEMUSAGE_GRAPH_H

#include <string>

namespace massif {
namespace memusage {

/// memusagestat's options, as memusage passes them on.
struct GraphOptions {
  /// -t: the x axis is linear in time (default: in the number of calls).
  bool TimeBased = false;
  /// -T: also draw the total (heap + stack) line, on one common scale.
  bool Total = false;
  /// --title given (an empty title is drawn as nothing, like memusagestat's).
  bool HasTitle = false;
  /// --title=STRING; drawn only up to its first NUL, as C would.
  std::string Title;
  /// -x, -y as atol reads them; drawGraph cuts them to int as atoi does
  /// and applies memusagestat's rules: 0 means 800 for either axis (its
  /// -y 0 gives 800, not 600), sizes below 100x80 are raised to it, and
  /// sizes libgd cannot allocate (negative, or more than INT_MAX pixels,
  /// where memusagestat crashes) are an error.
  long XSize = 800, YSize = 600;
};

/// Draws the picture of memusage's data file DataPath into PngPath (if
/// non-empty) and SvgPath (if non-empty). The data file is only read, never
/// repaired in place as memusagestat does. Returns "" on success, else one
/// line naming the problem (no trailing newline), e.g. "cannot read data
/// file 'x': No such file or directory"; no output file is created when
/// the data file is unusable.
std::string drawGraph(const std::string &DataPath, const GraphOptions &O,
                      const std::string &PngPath, const std::string &SvgPath);

} // namespace memusage
} // namespace massif

#endif // MS_MEMUSAGE_GRAPH_H
