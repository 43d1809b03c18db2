//===- Collapsed.cpp - placeholder, replaced by the collapsed view ----===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "Views.h"

#include <cstdio>
#include <cstdlib>

namespace msprint::views {

void writeCollapsed(const model::Profile &, const SnapshotChoice &, Sink &) {
  std::fputs("ms_print: --format=collapsed is not built yet\n", stderr);
  std::exit(1);
}

} // namespace msprint::views
