//===- Json.cpp - The JSON export of a profile ----------------------------===//
//
// Part of massif-native, under the MIT licence.
//
// Schema docs/schema/massif-profile.schema.json, version JsonSchemaVersion:
//
//   {"format": "massif-native-profile", "version": 1,
//    "desc": ..., "cmd": ..., "time_unit": "i"|"ms"|"B",
//    "peak": <index into snapshots, or null>,
//    "frames": [{"kind": "root"|"code"|"insignificant", "text": ...,
//                "address"?, "function"?, "file"?, "line"?, "object"?,
//                "places"?}, ...],
//    "snapshots": [{"snapshot": n, "time": t, "mem_heap_B": ...,
//                   "mem_heap_extra_B": ..., "mem_stacks_B": ...,
//                   "heap_tree": "empty"|"detailed"|"peak",
//                   "tree"?: {"bytes": b, "frame": <index into frames>,
//                             "children"?: [node, ...]}}, ...]}
//
// Frames are shared by every tree that shows the same line text, which
// keeps a profile with thousands of detailed snapshots small. One snapshot
// per line. Trees are written without recursion.
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

} // namespace

void writeJson(const Profile &P, Sink &Out) {
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
  for (const Snapshot &S : P.Snapshots)
    for (const Node &N : S.Nodes) {
      auto [It, New] = Frames.emplace(N.Text, uint32_t(Frames.size()));
      if (!New)
        continue;
      if (It->second)
        Buf += ',';
      Buf += '\n';
      appendFrame(Buf, N.Text);
      if (Buf.size() > (1 << 16)) {
        Out.write(Buf);
        Buf.clear();
      }
    }
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
  Buf += "]}\n";
  Out.write(Buf);
}

} // namespace msprint::views
