//===- ProfileLoader.cpp - Reading a massif.out file into a Profile -------===//
//
// Part of massif-native, under the MIT licence.
//
// The grammar Massif writes (docs/FILE-FORMAT.md): header lines desc:,
// cmd:, time_unit:, then per snapshot snapshot=, time=, mem_heap_B=,
// mem_heap_extra_B=, mem_stacks_B=, heap_tree=, and for a detailed one its
// tree, "n<children>: <bytes> <text>" lines indented by depth. Lines
// starting with '#' and blank lines are skipped; a '#' inside a line is
// kept (a function name may hold one), unlike the report, which strips
// it as the script does.
//
//===----------------------------------------------------------------------===//

#include "Profile.h"

#include "InputFile.h"
#include "LineCursor.h"

#include "massif/format.h"


namespace msprint::model {

namespace fmt = massif::format;

Profile::Profile() = default;
Profile::~Profile() = default;
Profile::Profile(Profile &&) noexcept = default;
Profile &Profile::operator=(Profile &&) noexcept = default;

size_t Profile::peakIndex() const {
  size_t Best = SIZE_MAX;
  for (size_t I = 0; I < Snapshots.size(); ++I) {
    if (Snapshots[I].Tree == TreeKind::Peak)
      return I;
    if (Best == SIZE_MAX || Snapshots[I].total() > Snapshots[Best].total())
      Best = I;
  }
  return Best;
}

size_t Profile::lastDetailedIndex() const {
  for (size_t I = Snapshots.size(); I-- > 0;)
    if (Snapshots[I].detailed())
      return I;
  return SIZE_MAX;
}

size_t Profile::findSnapshot(std::string_view Which) const {
  if (Which == "peak")
    return peakIndex();
  if (Which == "last")
    return Snapshots.empty() ? SIZE_MAX : Snapshots.size() - 1;
  if (Which.empty() || Which.size() > 19)
    return SIZE_MAX;
  uint64_t N = 0;
  for (char C : Which) {
    if (C < '0' || C > '9')
      return SIZE_MAX;
    N = N * 10 + uint64_t(C - '0');
  }
  for (size_t I = 0; I < Snapshots.size(); ++I)
    if (Snapshots[I].Number == N)
      return I;
  return SIZE_MAX;
}

namespace {

class Parser : LineCursor {
public:
  Parser(std::string_view Text, std::string_view Name, Profile &P)
      : LineCursor(Text, Name), P(P) {}

  bool run(std::string &Error);

private:
  /// The next line that is neither blank nor a comment.
  bool next() {
    while (nextLine()) {
      size_t First = Cur.find_first_not_of(" \t");
      if (First != std::string_view::npos && Cur[First] != '#')
        return true;
    }
    return false;
  }

  /// Whether the current line starts with Key; Value is the rest.
  bool keyed(std::string_view Key, std::string_view &Value) const {
    if (Cur.substr(0, Key.size()) != Key)
      return false;
    Value = Cur.substr(Key.size());
    return true;
  }

  /// Reads "Key<value>" from the next line.
  bool field(std::string_view Key, std::string_view &Value) {
    if (!next())
      return fail("the file ends where a '" + std::string(Key) +
                  "' line was expected");
    if (!keyed(Key, Value))
      return fail("expected a '" + std::string(Key) + "' line, found '" +
                  shown(Cur) + "'");
    return true;
  }

  bool numberField(std::string_view Key, uint64_t &Out) {
    std::string_view V;
    if (!field(Key, V))
      return false;
    if (!toNumber(V, Out))
      return fail("'" + std::string(Key) + "' is not a whole number: '" +
                  shown(V) + "'");
    return true;
  }

  bool header();
  bool snapshot();
  bool tree(Snapshot &S);

  Profile &P;

};

bool Parser::header() {
  if (!next())
    return fail("the file is empty; expected a 'desc:' line");
  bool First = true;
  std::string_view V;
  while (Have && keyed(fmt::DescKey, V)) {
    if (!V.empty() && V.front() == ' ')
      V.remove_prefix(1);
    if (!First)
      P.Desc += '\n';
    P.Desc += V;
    First = false;
    next();
  }
  if (First)
    return fail("not a massif.out file: expected a 'desc:' line, found '" +
                shown(Cur) + "'");
  std::string_view Cmd;
  if (!Have || !keyed(fmt::CmdKey, Cmd))
    return fail("expected a 'cmd:' line");
  if (!Cmd.empty() && Cmd.front() == ' ')
    Cmd.remove_prefix(1);
  P.Cmd = std::string(Cmd);
  std::string_view Unit;
  if (!field(fmt::TimeUnitKey, Unit))
    return false;
  if (!Unit.empty() && Unit.front() == ' ')
    Unit.remove_prefix(1);
  if (Unit != fmt::TimeUnitInstructions && Unit != fmt::TimeUnitMilliseconds &&
      Unit != fmt::TimeUnitBytes)
    return fail("time_unit is '" + std::string(Unit) +
                "'; expected i, ms or B");
  P.TimeUnit = std::string(Unit);
  return true;
}

bool Parser::tree(Snapshot &S) {
  // Each entry: a node still waiting for children.
  struct Open {
    uint32_t Index;
    uint64_t Remaining;
  };
  std::vector<Open> Stack;
  do {
    if (!next())
      return fail("the file ends inside a heap tree");
    std::string_view T = Cur;
    size_t Indent = T.find_first_not_of(' ');
    T.remove_prefix(Indent);
    if (Indent != Stack.size())
      return fail("heap tree line indented by " + std::to_string(Indent) +
                  " where " + std::to_string(Stack.size()) +
                  " was expected");
    size_t Colon = T.find(':');
    uint64_t Children = 0, Bytes = 0;
    if (T.empty() || T[0] != 'n' || Colon == std::string_view::npos ||
        !toNumber(T.substr(1, Colon - 1), Children))
      return fail("expected a heap tree line 'n<children>: <bytes> ...', "
                  "found '" +
                  shown(T) + "'");
    std::string_view Rest = T.substr(Colon + 1);
    size_t B = Rest.find_first_not_of(' ');
    if (B == std::string_view::npos)
      return fail("heap tree line without a byte count");
    Rest.remove_prefix(B);
    size_t Sp = Rest.find(' ');
    if (!toNumber(Rest.substr(0, Sp), Bytes))
      return fail("heap tree byte count is not a whole number");
    std::string_view Text =
        Sp == std::string_view::npos ? std::string_view() : Rest.substr(Sp + 1);
    if (S.Nodes.size() >= UINT32_MAX - 1)
      return fail("heap tree too large");
    Node N;
    N.Bytes = Bytes;
    N.Depth = uint32_t(Stack.size());
    N.Text = Text;
    uint32_t Index = uint32_t(S.Nodes.size());
    S.Nodes.push_back(N);
    if (!Stack.empty())
      --Stack.back().Remaining;
    if (Children)
      Stack.push_back({Index, Children});
    else
      S.Nodes[Index].End = Index + 1;
    while (!Stack.empty() && Stack.back().Remaining == 0) {
      S.Nodes[Stack.back().Index].End = uint32_t(S.Nodes.size());
      Stack.pop_back();
    }
  } while (!Stack.empty());
  return true;
}

bool Parser::snapshot() {
  Snapshot S;
  std::string_view V;
  if (!keyed(fmt::SnapshotKey, V))
    return fail("expected a 'snapshot=' line, found '" +
                shown(Cur) + "'");
  if (!toNumber(V, S.Number))
    return fail("'snapshot=' is not a whole number");
  if (!numberField(fmt::TimeKey, S.Time) ||
      !numberField(fmt::HeapKey, S.HeapBytes) ||
      !numberField(fmt::HeapExtraKey, S.ExtraBytes) ||
      !numberField(fmt::StacksKey, S.StackBytes) || !field(fmt::HeapTreeKey, V))
    return false;
  if (V == fmt::TreeEmpty)
    S.Tree = TreeKind::Empty;
  else if (V == fmt::TreeDetailed)
    S.Tree = TreeKind::Detailed;
  else if (V == fmt::TreePeak)
    S.Tree = TreeKind::Peak;
  else
    return fail("heap_tree is '" + std::string(V) +
                "'; expected empty, detailed or peak");
  if (S.detailed() && !tree(S))
    return false;
  P.Snapshots.push_back(std::move(S));
  return true;
}

bool Parser::run(std::string &Error) {
  bool Ok = header();
  while (Ok && next())
    Ok = snapshot();
  if (!Ok)
    Error = Err;
  return Ok;
}

} // namespace

bool parseProfile(std::string_view Text, std::string_view Name, Profile &P,
                  std::string &Error) {
  P = Profile();
  Parser Ps(Text, Name, P);
  return Ps.run(Error);
}

bool loadProfile(const std::string &Path, Profile &P, std::string &Error) {
  std::unique_ptr<InputFile> File = InputFile::readPath(Path, Error);
  if (!File || !parseProfile(File->text(), Path, P, Error))
    return false;
  P.Source = std::move(File);
  return true;
}

} // namespace msprint::model
