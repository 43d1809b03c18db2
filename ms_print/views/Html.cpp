//===- Html.cpp - The HTML page of a profile ------------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// One self-contained page: the markup, style and script of html/ (embedded
// at build time as HtmlAssets.h by html/EmbedPage.cmake) around the
// profile's JSON export, which sits in
// <script type="application/json" id="profile">. The JSON's strings escape
// '<', '>' and '&', so nothing in a profile can end that element; the
// script parses it once and draws everything in the browser. The page
// loads nothing from the network and works from a file:// URL.
//
//===----------------------------------------------------------------------===//

#include "HtmlAssets.h"
#include "Views.h"

namespace msprint::views {

namespace {
void writeBytes(Sink &Out, const unsigned char *Bytes, size_t Size) {
  Out.write(reinterpret_cast<const char *>(Bytes), Size);
}
} // namespace

void writeHtml(const model::Profile &P, Sink &Out,
               const model::SiteStats *Sites) {
  writeBytes(Out, html::HtmlPageHead, html::HtmlPageHeadSize);
  writeJson(P, Out, Sites);
  writeBytes(Out, html::HtmlPageTail, html::HtmlPageTailSize);
}

} // namespace msprint::views
