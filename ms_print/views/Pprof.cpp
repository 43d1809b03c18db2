//===- Pprof.cpp - placeholder, replaced by the pprof view ----===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "Views.h"

#include <cstdio>
#include <cstdlib>

namespace msprint::views {

void writePprof(const model::Profile &, const SnapshotChoice &, Sink &) {
  std::fputs("ms_print: --format=pprof is not built yet\n", stderr);
  std::exit(1);
}

} // namespace msprint::views
