//===- Pprof.cpp - The pprof export (profile.proto, gzipped) --------------===//
//
// Part of massif-native, under the MIT licence.
//
// A pprof Profile message (github.com/google/pprof, proto/profile.proto),
// gzip-compressed as pprof writes its files, that `go tool pprof`, Pyroscope
// and Parca read:
//
//   sample_type [inuse_space/bytes], period_type space/bytes, period 1,
//   default_sample_type inuse_space; string_table[0] is "";
//   comments: the desc lines, the cmd and the time unit;
//   one Function per distinct (name, file) (names as in StackWalk.h);
//   one Location per distinct address and inlined chain: Massif writes
//   the calls inlined at one address as nested nodes with that address,
//   innermost first, which become that Location's lines, line[0] the
//   innermost; a recursive call from the same address starts a new
//   Location when the chain's first frame comes round again. Frames with
//   no address ("(below threshold)", the pseudo-frames) get a Location
//   per name;
//   Mapping 1 is the program (cmd's first word), which pprof shows as the
//   profile's File (its main binary); no location refers to it, since a
//   frame with "(FILE:LINE)" may be in any object with debug information;
//   then one Mapping per "(in OBJ)" object, spanning the addresses seen in
//   it; all marked as having function names, so that pprof does not
//   symbolize them again;
//   one Sample per stack (StackWalk.h), locations leaf first, value the
//   node's own bytes; "(heap admin)" and "(stacks)" samples carry
//   mem_heap_extra_B and mem_stacks_B so the total is the snapshot's.
//
// With --snapshot=all, every sample has the numeric labels snapshot=N and
// time=T (unit: the profile's time_unit), so -tagfocus=snapshot=N keeps
// one snapshot.
//
//===----------------------------------------------------------------------===//

#include "Protobuf.h"
#include "StackWalk.h"
#include "Views.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>
#include <zlib.h>

namespace msprint::views {

using namespace model;

namespace {

// Field numbers of profile.proto.
namespace field {
enum Profile : uint32_t {
  SampleType = 1,
  Sample = 2,
  Mapping = 3,
  Location = 4,
  Function = 5,
  StringTable = 6,
  PeriodType = 11,
  Period = 12,
  Comment = 13,
  DefaultSampleType = 14,
};
enum ValueType : uint32_t { VtType = 1, VtUnit = 2 };
enum Sample : uint32_t { SLocationId = 1, SValue = 2, SLabel = 3 };
enum Label : uint32_t { LKey = 1, LNum = 3, LNumUnit = 4 };
enum Mapping : uint32_t {
  MId = 1,
  MMemoryStart = 2,
  MMemoryLimit = 3,
  MFilename = 5,
  MHasFunctions = 7,
};
enum Location : uint32_t {
  LocId = 1,
  LocMappingId = 2,
  LocAddress = 3,
  LocLine = 4
};
enum Line : uint32_t { LnFunctionId = 1, LnLine = 2 };
enum Function : uint32_t { FId = 1, FName = 2, FSystemName = 3, FFilename = 4 };
} // namespace field

struct MappingInfo {
  uint64_t Start = UINT64_MAX;
  uint64_t Limit = 0;
  int64_t File = 0;
};

struct LineInfo {
  uint64_t Function = 0;
  int64_t Line = 0;
};

struct LocationInfo {
  uint64_t Mapping = 0;
  uint64_t Address = 0;
  std::vector<LineInfo> Lines;
};

/// The profile's tables as they fill up; ids are 1-based indexes.
class ProfileBuilder {
public:
  ProfileBuilder() { string(""); }

  int64_t string(std::string_view S) {
    auto [It, New] = StringIds.try_emplace(std::string(S), Strings.size());
    if (New)
      Strings.emplace_back(S);
    return int64_t(It->second);
  }

  uint64_t function(const std::string &Name, std::string_view File) {
    std::string Key = Name;
    Key += '\0';
    Key += File;
    auto [It, New] = FunctionIds.try_emplace(Key, Functions.size() + 1);
    if (New)
      Functions.emplace_back(string(Name), string(File));
    return It->second;
  }

  uint64_t mapping(std::string_view Object, uint64_t Address) {
    auto [It, New] =
        MappingIds.try_emplace(std::string(Object), Mappings.size() + 1);
    if (New) {
      Mappings.emplace_back();
      Mappings.back().File = string(Object);
    }
    MappingInfo &M = Mappings[It->second - 1];
    M.Start = std::min(M.Start, Address);
    M.Limit = std::max(M.Limit, Address + 1);
    return It->second;
  }

  /// The program's Mapping, empty: call first, so that it is Mapping 1.
  void mainMapping(std::string_view Program) {
    Mappings.emplace_back();
    Mappings.back().Start = 0;
    Mappings.back().File = string(Program);
  }

  /// The Location with Key, made by Make(LocationInfo &) the first time.
  template <typename Fn> uint64_t location(const std::string &Key, Fn Make) {
    auto It = LocationIds.find(Key);
    if (It != LocationIds.end())
      return It->second;
    LocationInfo L;
    Make(L);
    Locations.push_back(std::move(L));
    LocationIds.emplace(Key, Locations.size());
    return Locations.size();
  }

  /// A Location of one line, no address: the pseudo-frames.
  uint64_t namedLocation(const std::string &Name) {
    return location(Name, [&](LocationInfo &L) {
      L.Lines.push_back({function(Name, ""), 0});
    });
  }

  /// Adds Bytes to the sample of Stack (location ids, leaf first) in the
  /// current snapshot.
  void sample(const std::vector<uint64_t> &Stack, uint64_t Bytes) {
    auto [It, New] = SampleIds.try_emplace(Stack, Samples.size());
    if (New)
      Samples.push_back({Stack, Bytes});
    else
      Samples[It->second].Bytes += Bytes;
  }

  /// Ends the current snapshot's samples, encoding them with its labels
  /// (none when Labels is false).
  void endSnapshot(const Snapshot &S, bool Labels, int64_t TimeUnit) {
    ProtoWriter Label[2];
    if (Labels) {
      Label[0].int64(field::LKey, string("snapshot"));
      Label[0].int64(field::LNum, int64_t(S.Number));
      Label[1].int64(field::LKey, string("time"));
      Label[1].int64(field::LNum, int64_t(S.Time));
      if (TimeUnit)
        Label[1].int64(field::LNumUnit, TimeUnit);
    }
    ProtoWriter W;
    for (const PendingSample &P : Samples) {
      W.clear();
      W.packed(field::SLocationId, P.Stack);
      W.packed(field::SValue, std::vector<uint64_t>{P.Bytes});
      if (Labels) {
        W.message(field::SLabel, Label[0]);
        W.message(field::SLabel, Label[1]);
      }
      SampleFields.message(field::Sample, W);
    }
    Samples.clear();
    SampleIds.clear();
  }

  /// The whole Profile message.
  std::string encode(int64_t SampleType, int64_t PeriodType, int64_t Unit,
                     const std::vector<int64_t> &Comments) {
    ProtoWriter Out, W;
    auto valueType = [&](uint32_t Field, int64_t Type) {
      W.clear();
      W.int64(field::VtType, Type);
      W.int64(field::VtUnit, Unit);
      Out.message(Field, W);
    };
    valueType(field::SampleType, SampleType);
    Out.append(SampleFields);
    for (size_t I = 0; I < Mappings.size(); ++I) {
      const MappingInfo &M = Mappings[I];
      W.clear();
      W.uint64(field::MId, I + 1);
      W.uint64(field::MMemoryStart, M.Start);
      W.uint64(field::MMemoryLimit, M.Limit);
      W.int64(field::MFilename, M.File);
      W.uint64(field::MHasFunctions, 1);
      Out.message(field::Mapping, W);
    }
    ProtoWriter Line;
    for (size_t I = 0; I < Locations.size(); ++I) {
      const LocationInfo &L = Locations[I];
      W.clear();
      W.uint64(field::LocId, I + 1);
      if (L.Mapping)
        W.uint64(field::LocMappingId, L.Mapping);
      if (L.Address)
        W.uint64(field::LocAddress, L.Address);
      for (const LineInfo &LI : L.Lines) {
        Line.clear();
        Line.uint64(field::LnFunctionId, LI.Function);
        if (LI.Line)
          Line.int64(field::LnLine, LI.Line);
        W.message(field::LocLine, Line);
      }
      Out.message(field::Location, W);
    }
    for (size_t I = 0; I < Functions.size(); ++I) {
      W.clear();
      W.uint64(field::FId, I + 1);
      W.int64(field::FName, Functions[I].first);
      W.int64(field::FSystemName, Functions[I].first);
      if (Functions[I].second)
        W.int64(field::FFilename, Functions[I].second);
      Out.message(field::Function, W);
    }
    for (const std::string &S : Strings)
      Out.bytes(field::StringTable, S);
    valueType(field::PeriodType, PeriodType);
    Out.int64(field::Period, 1);
    Out.packed(field::Comment, Comments);
    Out.int64(field::DefaultSampleType, SampleType);
    return Out.take();
  }

private:
  struct PendingSample {
    std::vector<uint64_t> Stack;
    uint64_t Bytes;
  };

  std::vector<std::string> Strings;
  std::unordered_map<std::string, size_t> StringIds;
  std::vector<std::pair<int64_t, int64_t>> Functions;
  std::unordered_map<std::string, uint64_t> FunctionIds;
  std::vector<MappingInfo> Mappings;
  std::unordered_map<std::string, uint64_t> MappingIds;
  std::vector<LocationInfo> Locations;
  std::unordered_map<std::string, uint64_t> LocationIds;
  std::vector<PendingSample> Samples;
  std::map<std::vector<uint64_t>, size_t> SampleIds;
  ProtoWriter SampleFields;
};

/// Adds S's samples to B.
void addSnapshot(const Snapshot &S, ProfileBuilder &B) {
  std::vector<FrameText> Frames;
  Frames.reserve(S.Nodes.size());
  for (const Node &N : S.Nodes)
    Frames.push_back(parseFrameText(N.Text));
  std::vector<uint64_t> Stack;
  std::string Key;
  /// Location ids by the first and last node of their chain.
  std::unordered_map<uint64_t, uint64_t> ChainLocations;
  forEachStack(S, [&](const std::vector<uint32_t> &Path, uint64_t Bytes) {
    Stack.clear();
    if (Path.empty())
      Stack.push_back(B.namedLocation(frameName(Frames[0])));
    for (size_t I = 0; I < Path.size();) {
      const FrameText &First = Frames[Path[I]];
      if (First.Kind != FrameKind::Code || First.Address.empty()) {
        Stack.push_back(B.namedLocation(frameName(First)));
        ++I;
        continue;
      }
      // The chain of frames inlined at First's address, innermost first.
      size_t J = I + 1;
      while (J < Path.size() && Frames[Path[J]].Kind == FrameKind::Code &&
             Frames[Path[J]].Address == First.Address &&
             S.Nodes[Path[J]].Text != S.Nodes[Path[I]].Text)
        ++J;
      // The same chain in this tree is the same Location: skip the key.
      uint64_t Chain = uint64_t(Path[I]) << 32 | Path[J - 1];
      auto Known = ChainLocations.find(Chain);
      if (Known != ChainLocations.end()) {
        Stack.push_back(Known->second);
        I = J;
        continue;
      }
      Key.assign(First.Address);
      for (size_t K = I; K < J; ++K) {
        Key += '\n';
        Key += Frames[Path[K]].location();
      }
      Stack.push_back(B.location(Key, [&](LocationInfo &L) {
        L.Address = First.addressValue();
        if (!First.Object.empty())
          L.Mapping = B.mapping(First.Object, L.Address);
        for (size_t K = I; K < J; ++K) {
          const FrameText &F = Frames[Path[K]];
          L.Lines.push_back(
              {B.function(frameName(F), F.File), int64_t(F.Line)});
        }
      }));
      ChainLocations.emplace(Chain, Stack.back());
      I = J;
    }
    B.sample(Stack, Bytes);
  });
  if (S.ExtraBytes)
    B.sample({B.namedLocation(HeapAdminFrame)}, S.ExtraBytes);
  if (S.StackBytes)
    B.sample({B.namedLocation(StacksFrame)}, S.StackBytes);
}

/// Writes Data gzip-compressed to Out; uncompressed (which pprof reads
/// too) if zlib cannot start.
void writeGzip(const std::string &Data, Sink &Out) {
  z_stream Z{};
  if (deflateInit2(&Z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    Out.write(Data);
    return;
  }
  const char *In = Data.data();
  size_t Left = Data.size();
  char Buffer[1 << 14];
  int Status = Z_OK;
  while (Status == Z_OK) {
    if (Z.avail_in == 0 && Left) {
      // zlib counts in uInt: feed a huge profile in slices.
      size_t Slice = std::min(Left, size_t(1) << 30);
      Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(In));
      Z.avail_in = uInt(Slice);
      In += Slice;
      Left -= Slice;
    }
    Z.next_out = reinterpret_cast<Bytef *>(Buffer);
    Z.avail_out = sizeof(Buffer);
    Status = deflate(&Z, Left ? Z_NO_FLUSH : Z_FINISH);
    Out.write(Buffer, sizeof(Buffer) - Z.avail_out);
  }
  deflateEnd(&Z);
}

} // namespace

void writePprof(const Profile &P, const SnapshotChoice &Which, Sink &Out) {
  ProfileBuilder B;
  int64_t Space = B.string("space"), Bytes = B.string("bytes"),
          InUse = B.string("inuse_space");
  std::vector<int64_t> Comments;
  size_t Start = 0;
  for (size_t End; (End = P.Desc.find('\n', Start)) != std::string::npos;
       Start = End + 1)
    Comments.push_back(B.string("desc: " + P.Desc.substr(Start, End - Start)));
  Comments.push_back(B.string("desc: " + P.Desc.substr(Start)));
  Comments.push_back(B.string("cmd: " + P.Cmd));
  Comments.push_back(B.string("time_unit: " + P.TimeUnit));
  if (!Which.All && Which.Indexes.size() == 1) {
    const Snapshot &S = P.Snapshots[Which.Indexes[0]];
    Comments.push_back(B.string("snapshot=" + std::to_string(S.Number) +
                                " time=" + std::to_string(S.Time)));
  }
  std::string_view Program = P.Cmd;
  Program = Program.substr(0, Program.find(' '));
  if (!Program.empty())
    B.mainMapping(Program);
  int64_t TimeUnit = P.TimeUnit.empty() ? 0 : B.string(P.TimeUnit);
  for (size_t I : Which.Indexes) {
    addSnapshot(P.Snapshots[I], B);
    B.endSnapshot(P.Snapshots[I], Which.All, TimeUnit);
  }
  writeGzip(B.encode(InUse, Space, Bytes, Comments), Out);
}

} // namespace msprint::views
