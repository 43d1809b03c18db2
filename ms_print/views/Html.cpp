//===- Html.cpp - placeholder, replaced by the html view ----===//
//
// Part of massif-native, under the MIT licence.
//
//===----------------------------------------------------------------------===//

#include "Views.h"

#include <cstdio>
#include <cstdlib>

namespace msprint::views {

void writeHtml(const model::Profile &, Sink &) {
  std::fputs("ms_print: --html is not built yet\n", stderr);
  std::exit(1);
}

} // namespace msprint::views
