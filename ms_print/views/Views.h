//===- Views.h - The views and exports of a massif.out file ---------------===//
//
// Part of massif-native, under the MIT licence.
//
// ms_print's own options (not the script's) select a view instead of the
// report:
//
//   --html                 one self-contained HTML page (Html.cpp)
//   --format=json          every snapshot and tree, schema in
//                          docs/schema/massif-profile.schema.json (Json.cpp)
//   --format=collapsed     "frame;frame;frame bytes" lines for flamegraph.pl,
//                          inferno and speedscope (Collapsed.cpp)
//   --format=pprof         a gzipped pprof profile.proto (Pprof.cpp)
//   --format=hotspots      heaptrack's questions from the site statistics:
//                          the top sites by calls, temporary allocations,
//                          leaks and bytes, a summary, the sizes
//                          (Hotspots.cpp)
//   --format=text          the report (the default)
//   --snapshot=WHICH       peak (default), last (with a tree), all (with a
//                          tree), or a snapshot= number; for collapsed and
//                          pprof, and a snapshot without a tree is refused
//                          (Cli.cpp; docs/VIEWS.md)
//   --sites=FILE|none      for json, html and hotspots: the site statistics
//                          file to read instead of the one beside the input
//                          (format::sitesPathOf), or none
//   --top=N                for hotspots: sites per list (default 10, 0 all)
//   -o FILE, --output=FILE where the view goes (default stdout)
//
// Each writer gets the loaded profile (and the site statistics) and writes
// bytes to Out; a writer never fails on a loaded profile, except for an
// absent snapshot or site statistics, which Cli.cpp rejects before
// calling it.
//
//===----------------------------------------------------------------------===//

#ifndef MSPRINT_VIEWS_VIEWS_H
#define MSPRINT_VIEWS_VIEWS_H

#include "Profile.h"
#include "Sites.h"

#include <cstdint>
#include <string>
#include <vector>

namespace msprint::views {

/// The snapshots a collapsed or pprof export covers.
struct SnapshotChoice {
  /// Indexes into Profile::Snapshots, in file order.
  std::vector<size_t> Indexes;
  /// True for --snapshot=all.
  bool All = false;
};

/// Receives a view's bytes. Implemented over a file descriptor in Cli.cpp
/// and over a string in the tests.
class Sink {
public:
  virtual ~Sink() = default;
  virtual void write(const char *Data, size_t Size) = 0;
  void write(std::string_view S) { write(S.data(), S.size()); }
};

/// The JSON export (schema version JsonSchemaVersion), with the site
/// statistics of the run when Sites is given ("sites": null otherwise).
inline constexpr int JsonSchemaVersion = 2;
void writeJson(const model::Profile &P, Sink &Out,
               const model::SiteStats *Sites = nullptr);

/// The HTML page; its data is the JSON export.
void writeHtml(const model::Profile &P, Sink &Out,
               const model::SiteStats *Sites = nullptr);

/// The sites per list of --format=hotspots unless --top= says.
inline constexpr size_t HotspotsDefaultTop = 10;

/// heaptrack_print's lists from the site statistics S of the profile P:
/// at most Top sites per list (0: all).
void writeHotspots(const model::Profile &P, const model::SiteStats &S,
                   size_t Top, Sink &Out);

/// Collapsed stacks of the chosen snapshots, outermost frame first.
void writeCollapsed(const model::Profile &P, const SnapshotChoice &Which,
                    Sink &Out);

/// A pprof profile (profile.proto, gzip-compressed) of the chosen
/// snapshots.
void writePprof(const model::Profile &P, const SnapshotChoice &Which,
                Sink &Out);

/// ms_print's own options: true (with the exit status in Status) when
/// Args ask for --help, --version or a view, which then ran; false when
/// Args are for the report.
bool runViewCommand(const std::vector<std::string> &Args, int &Status);

} // namespace msprint::views

#endif // MSPRINT_VIEWS_VIEWS_H
