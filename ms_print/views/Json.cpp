//===- Json.cpp - The JSON export of a profile ----------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Schema docs/schema/massif-profile.schema.json, version JsonSchemaVersion:
//
//   {"format": "massif-native-profile", "version": 2,
//    "desc": ..., "cmd": ..., "time_unit": "i"|"ms"|"B",
//    "peak": <index into snapshots, or null>,
//    "frames": [{"kind": "root"|"code"|"insignificant", "text": ...,
//                "address"?, "function"?, "file"?, "line"?, "object"?,
//                "places"?}, ...],
//    "snapshots": [{"snapshot": n, "time": t, "mem_heap_B": ...,
//                   "mem_heap_extra_B": ..., "mem_stacks_B": ...,
//                   "heap_tree": "empty"|"detailed"|"peak",
//                   "tree"?: {"bytes": b, "frame": <index into frames>,
//                             "children"?: [node, ...]}}, ...],
//    "sites": null | {"sizes": [{"min": s, "max": s, "calls": n}, ...],
//                     "total": counts,
//                     "list": [counts + {"frames": [<index into frames>,
//                                                   ...]}, ...]}}
//
//   counts = "calls", "bytes", "temporary", "temporary_bytes",
//            "leaked_blocks", "leaked_bytes"
//
// Frames are shared by every tree that shows the same line text, which
// keeps a profile with thousands of detailed snapshots small; the sites'
// frames are the same texts, so they share them too: the trees' frames
// come first, in order of first use, then those only sites use. "sites"
// is the site statistics file beside the profile (model/Sites.h), null
// without one. One snapshot and one site per line. Trees are written
// without recursion.
//
//===----------------------------------------------------------------------===//

#include "JsonText.h"
#include "Views.h"

#include <unordered_map>

namespace msprint::views {

using namespace model;

namespace {

const char *kindName(FrameKind K) {
  switch (K) {
  case FrameKind::Root:
    return "root";
  case FrameKind::Insignificant:
    return "insignificant";
  case FrameKind::Code:
    break;
  }
  return "code";
}

const char *treeName(TreeKind K) {
  switch (K) {
  case TreeKind::Detailed:
    return "detailed";
  case TreeKind::Peak:
    return "peak";
  case TreeKind::Empty:
    break;
  }
  return "empty";
}

void appendFrame(std::string &Out, std::string_view Text) {
  FrameText F = parseFrameText(Text);
  Out += "{\"kind\":\"";
  Out += kindName(F.Kind);
  Out += "\",\"text\":";
  appendJsonString(Out, Text);
  if (F.Kind == FrameKind::Code) {
    if (!F.Address.empty())
      appendJsonMember(Out, "address", F.Address);
    appendJsonMember(Out, "function", F.Function);
    if (!F.File.empty()) {
      appendJsonMember(Out, "file", F.File);
      appendJsonMember(Out, "line", F.Line);
    }
    if (!F.Object.empty())
      appendJsonMember(Out, "object", F.Object);
  } else if (F.Kind == FrameKind::Insignificant) {
    appendJsonMember(Out, "places", F.Places);
  }
  Out += '}';
}

/// Writes S's tree; Frames maps a node's text to its frame index.
void appendTree(std::string &Out, const Snapshot &S,
                const std::unordered_map<std::string_view, uint32_t> &Frames) {
  // Ends of the subtrees still open, innermost last.
  std::vector<uint32_t> Open;
  for (uint32_t I = 0; I < S.Nodes.size(); ++I) {
    const Node &N = S.Nodes[I];
    if (Out.back() == '}') // A previous sibling.
      Out += ',';
    Out += "{\"bytes\":";
    appendNumber(Out, N.Bytes);
    appendJsonMember(Out, "frame", Frames.at(N.Text));
    if (N.End > I + 1) {
      Out += ",\"children\":[";
      Open.push_back(N.End);
      continue;
    }
    Out += '}';
    while (!Open.empty() && Open.back() == I + 1) {
      Out += "]}";
      Open.pop_back();
    }
  }
}

void appendCounts(std::string &Out, const SiteCounts &C) {
  Out += "\"calls\":";
  appendNumber(Out, C.Calls);
  appendJsonMember(Out, "bytes", C.Bytes);
  appendJsonMember(Out, "temporary", C.Temporary);
  appendJsonMember(Out, "temporary_bytes", C.TemporaryBytes);
  appendJsonMember(Out, "leaked_blocks", C.LeakedBlocks);
  appendJsonMember(Out, "leaked_bytes", C.LeakedBytes);
}

void appendSites(std::string &Out, const SiteStats &S,
                 const std::unordered_map<std::string_view, uint32_t> &Frames,
                 Sink &Sink) {
  Out += "{\"sizes\":[";
  for (size_t B = 0; B < S.Sizes.size(); ++B) {
    Out += B ? ",{\"min\":" : "{\"min\":";
    appendNumber(Out, SiteStats::bucketLow(B));
    appendJsonMember(Out, "max", SiteStats::bucketHigh(B));
    appendJsonMember(Out, "calls", S.Sizes[B]);
    Out += '}';
  }
  Out += "],\n\"total\":{";
  appendCounts(Out, S.Total);
  Out += "},\n\"list\":[";
  bool First = true;
  for (const Site &Site : S.Sites) {
    Out += First ? "\n{" : ",\n{";
    First = false;
    appendCounts(Out, Site.Counts);
    Out += ",\"frames\":[";
    for (size_t F = 0; F < Site.Frames.size(); ++F) {
      if (F)
        Out += ',';
      appendNumber(Out, Frames.at(Site.Frames[F]));
    }
    Out += "]}";
    if (Out.size() > (1 << 16)) {
      Sink.write(Out);
      Out.clear();
    }
  }
  Out += "]}";
}

} // namespace

void writeJson(const Profile &P, Sink &Out, const SiteStats *Sites) {
  std::unordered_map<std::string_view, uint32_t> Frames;
  std::string Buf = "{\"format\":\"massif-native-profile\",\"version\":";
  appendNumber(Buf, JsonSchemaVersion);
  Buf += ",\n\"desc\":";
  appendJsonString(Buf, P.Desc);
  Buf += ",\n\"cmd\":";
  appendJsonString(Buf, P.Cmd);
  Buf += ",\n\"time_unit\":";
  appendJsonString(Buf, P.TimeUnit);
  Buf += ",\n\"peak\":";
  size_t Peak = P.peakIndex();
  if (Peak == SIZE_MAX)
    Buf += "null";
  else
    appendNumber(Buf, Peak);
  Buf += ",\n\"frames\":[";
  auto frame = [&](std::string_view Text) {
    auto [It, New] = Frames.emplace(Text, uint32_t(Frames.size()));
    if (!New)
      return;
    if (It->second)
      Buf += ',';
    Buf += '\n';
    appendFrame(Buf, Text);
    if (Buf.size() > (1 << 16)) {
      Out.write(Buf);
      Buf.clear();
    }
  };
  for (const Snapshot &S : P.Snapshots)
    for (const Node &N : S.Nodes)
      frame(N.Text);
  if (Sites)
    for (const Site &Site : Sites->Sites)
      for (std::string_view Text : Site.Frames)
        frame(Text);
  Buf += "],\n\"snapshots\":[";
  bool First = true;
  for (const Snapshot &S : P.Snapshots) {
    Buf += First ? "\n" : ",\n";
    First = false;
    Buf += "{\"snapshot\":";
    appendNumber(Buf, S.Number);
    appendJsonMember(Buf, "time", S.Time);
    appendJsonMember(Buf, "mem_heap_B", S.HeapBytes);
    appendJsonMember(Buf, "mem_heap_extra_B", S.ExtraBytes);
    appendJsonMember(Buf, "mem_stacks_B", S.StackBytes);
    appendJsonMember(Buf, "heap_tree", treeName(S.Tree));
    if (!S.Nodes.empty()) {
      Buf += ",\"tree\":";
      appendTree(Buf, S, Frames);
    }
    Buf += '}';
    if (Buf.size() > (1 << 16)) {
      Out.write(Buf);
      Buf.clear();
    }
  }
  Buf += "],\n\"sites\":";
  if (Sites)
    appendSites(Buf, *Sites, Frames, Out);
  else
    Buf += "null";
  Buf += "}\n";
  Out.write(Buf);
}

} // namespace msprint::views
