//===- ProfileReader.cpp - Reading a massif.out file as ms_print does -----===//
//
// Part of massif-native, under the MIT licence.
//
// The order of every check below is the script's, because it decides
// which message a malformed file gets: a field line is matched before the
// next one is read, the total is summed (and warned about) before the
// heap_tree line is read, a tree node is compared with the total before
// its children are read. A tree is walked with an explicit stack of
// frames, one per open node; a frame finishing plays the part of the
// recursive call returning, handing "(insignificant?, bytes)" to its
// parent.
//
//===----------------------------------------------------------------------===//

#include "ProfileReader.h"

#include "Diagnostics.h"
#include "OutputBuffer.h"
#include "PerlFormat.h"
#include "massif/format.h"

#include <cerrno>

namespace msprint {

namespace fmt = massif::format;

namespace {

/// Perl warns about deep recursion when a sub is entered at this depth.
constexpr size_t DeepRecursionDepth = 100;

const char Fancy[] = "------------------------------------------------------"
                     "--------------------------";

/// The field name in messages: a key without its '='.
std::string_view fieldName(std::string_view Key) {
  return Key.substr(0, Key.size() - 1);
}

bool startsWith(std::string_view S, std::string_view Prefix) {
  return S.size() >= Prefix.size() && S.compare(0, Prefix.size(), Prefix) == 0;
}

std::string_view skipSpaces(std::string_view S) {
  while (!S.empty() && isPerlSpace(S.front()))
    S.remove_prefix(1);
  return S;
}

/// What /^key:\s*(.*)$/ captures from a header line.
std::string_view headerValue(std::string_view Text, std::string_view Key) {
  return skipSpaces(Text.substr(Key.size()));
}

std::string_view takeDigits(std::string_view &S) {
  size_t N = 0;
  while (N < S.size() && S[N] >= '0' && S[N] <= '9')
    ++N;
  std::string_view Digits = S.substr(0, N);
  S.remove_prefix(N);
  return Digits;
}

/// A child count: the loop only needs to reach it, so huge values
/// saturate (the file ends long before).
uint64_t childCount(std::string_view Digits) {
  uint64_t V = 0;
  for (char C : Digits) {
    unsigned D = unsigned(C - '0');
    if (V > (UINT64_MAX - D) / 10)
      return UINT64_MAX;
    V = V * 10 + D;
  }
  return V;
}

void appendRowCells(std::string &Out, std::string_view N,
                    std::string_view Time, std::string_view Total,
                    std::string_view Heap, std::string_view Extra,
                    std::string_view Stacks) {
  appendRightAligned(Out, N, 3);
  Out += ' ';
  appendRightAligned(Out, Time, 14);
  Out += ' ';
  appendRightAligned(Out, Total, 16);
  Out += ' ';
  appendRightAligned(Out, Heap, 16);
  Out += ' ';
  appendRightAligned(Out, Extra, 13);
  Out += ' ';
  appendRightAligned(Out, Stacks, 12);
  Out += '\n';
}

} // namespace

const PerlNumber &numifyScalar(PerlScalar &S, Diagnostics &Diag,
                               std::string_view OpDesc, int PerlLine) {
  if (!S.IsNumified) {
    Numified N = perlNumify(S.Text);
    if (!N.LooksLikeNumber)
      Diag.warnNotNumeric(S.Text, OpDesc, PerlLine);
    if (N.RangeError)
      Diag.setErrno(ERANGE);
    S.Number = N.Value;
    S.IsNumified = true;
  }
  return S.Number;
}

PerlNumber snapshotTotal(const SnapshotFields &F, Diagnostics &Diag) {
  // $heap + $extra + $stacks: each "+" numifies its right operand first.
  PerlScalar Heap(F.Heap), Extra(F.Extra), Stacks(F.Stacks);
  const char *Op = "addition (+)";
  const PerlNumber &E = numifyScalar(Extra, Diag, Op, perl_line::TotalSum);
  const PerlNumber &H = numifyScalar(Heap, Diag, Op, perl_line::TotalSum);
  PerlNumber Sum = perlAdd(H, E);
  const PerlNumber &S = numifyScalar(Stacks, Diag, Op, perl_line::TotalSum);
  return perlAdd(Sum, S);
}

bool parseTreeLine(std::string_view Text, std::string_view &Children,
                   std::string_view &Bytes, std::string_view &Details) {
  std::string_view S = skipSpaces(Text);
  if (S.empty() || S.front() != 'n')
    return false;
  S.remove_prefix(1);
  Children = takeDigits(S);
  if (Children.empty() || S.empty() || S.front() != ':')
    return false;
  S = skipSpaces(S.substr(1));
  Bytes = takeDigits(S);
  if (Bytes.empty())
    return false;
  Details = S;
  return true;
}

ProfileReader::ProfileReader(const InputFile &In, Diagnostics &Diag,
                             PerlScalar &Threshold, OutputBuffer *Listing)
    : In(In), Diag(Diag), Threshold(Threshold), Listing(Listing),
      Reader(In.begin(), In.end()) {}

bool ProfileReader::getLine(Line &L) {
  bool Have = Reader.next(L);
  In.releaseBefore(Reader.position());
  Diag.setInputLine(Reader.lineNumber());
  // PerlIO sets errno to 0 when a read first finds the end of the file;
  // once the handle is at EOF it stops calling read(), so errno keeps
  // whatever happened since (the temporary file's ENOTTY).
  if (Reader.hitEof() && !EofSeen) {
    EofSeen = true;
    Diag.setErrno(In.readErrno());
  }
  return Have;
}

std::string_view ProfileReader::expectField(bool HaveLine, const Line &L,
                                            std::string_view Key) {
  if (HaveLine && startsWith(L.Text, Key))
    return L.Text.substr(Key.size());
  std::string Message = "Line " + std::to_string(Reader.lineNumber()) +
                        ": expected \"" + std::string(fieldName(Key)) +
                        "\" line, got";
  if (!HaveLine)
    Diag.die(Message + " end of file\n", perl_line::EqualsNumLine);
  Message += ":\n";
  Message.append(L.Text);
  if (L.HasNewline)
    Message += '\n';
  Diag.die(Message, perl_line::EqualsNumLine);
}

void ProfileReader::readHeader(ProfileSummary &Summary, Line &L,
                               bool &HaveLine) {
  while ((HaveLine = getLine(L)) && startsWith(L.Text, fmt::DescKey)) {
    Summary.Desc.append(L.Text.substr(sizeof(fmt::DescKey) - 1));
    if (L.HasNewline)
      Summary.Desc += '\n';
  }
  if (!HaveLine)
    Diag.warn("Use of uninitialized value $line in pattern match (m//)",
              perl_line::MissingCmd);
  if (!HaveLine || !startsWith(L.Text, fmt::CmdKey))
    Diag.die("Line " + std::to_string(Reader.lineNumber()) +
                 ": missing 'cmd' line\n",
             0);
  Summary.Cmd = headerValue(L.Text, fmt::CmdKey);

  HaveLine = getLine(L);
  if (!HaveLine)
    Diag.warn("Use of uninitialized value $line in pattern match (m//)",
              perl_line::MissingTimeUnit);
  if (!HaveLine || !startsWith(L.Text, fmt::TimeUnitKey))
    Diag.die("Line " + std::to_string(Reader.lineNumber()) +
                 ": missing 'time_unit' line\n",
             0);
  Summary.TimeUnit = headerValue(L.Text, fmt::TimeUnitKey);
  Summary.BodyStart = Reader.position();
  Summary.BodyLineNo = Reader.lineNumber();

  // The script now opens its temporary file; PerlIO's isatty() check on
  // it leaves errno at ENOTTY.
  if (!Diag.isSilent())
    Diag.setErrno(ENOTTY);

  std::string Time = "time(" + std::string(Summary.TimeUnit) + ")";
  TableHeader = Fancy;
  TableHeader += '\n';
  appendRowCells(TableHeader, "n", Time, "total(B)", "useful-heap(B)",
                 "extra-heap(B)", "stacks(B)");
  TableHeader += Fancy;
  TableHeader += '\n';
}

void ProfileReader::writeRow(const SnapshotFields &F,
                             const PerlNumber &Total) {
  std::string &Out = Listing->text();
  std::string Time = commify(F.Time);
  std::string TotalText = commify(Total.toString());
  std::string Heap = commify(F.Heap);
  std::string Extra = commify(F.Extra);
  std::string Stacks = commify(F.Stacks);
  appendRowCells(Out, F.Num, Time, TotalText, Heap, Extra, Stacks);
}

void ProfileReader::read(ProfileSummary &Summary) {
  Line L;
  bool HaveLine = false;
  readHeader(Summary, L, HaveLine);
  if (Listing)
    Listing->append(TableHeader);

  HaveLine = getLine(L);
  while (HaveLine) {
    SnapshotFields F;
    F.Num = expectField(true, L, fmt::SnapshotKey);
    HaveLine = getLine(L);
    F.Time = expectField(HaveLine, L, fmt::TimeKey);
    HaveLine = getLine(L);
    F.Heap = expectField(HaveLine, L, fmt::HeapKey);
    HaveLine = getLine(L);
    F.Extra = expectField(HaveLine, L, fmt::HeapExtraKey);
    HaveLine = getLine(L);
    F.Stacks = expectField(HaveLine, L, fmt::StacksKey);
    PerlNumber Total = snapshotTotal(F, Diag);
    HaveLine = getLine(L);
    F.HeapTree = expectField(HaveLine, L, fmt::HeapTreeKey);

    if (Listing)
      writeRow(F, Total);
    ++Summary.NumSnapshots;
    Summary.LastTime = F.Time;
    if (perlGt(Total, Summary.PeakTotal))
      Summary.PeakTotal = Total;

    if (F.HeapTree == fmt::TreeEmpty) {
      HaveLine = getLine(L);
    } else if (F.HeapTree.find(fmt::TreeDetailed) != std::string_view::npos ||
               F.HeapTree.find(fmt::TreePeak) != std::string_view::npos) {
      if (F.HeapTree == fmt::TreePeak) {
        Summary.HasPeak = true;
        Summary.PeakNum = F.Num;
      }
      readHeapTree(Total);
      HaveLine = getLine(L);
      if (HaveLine && Listing)
        Listing->append(TableHeader);
    } else {
      Diag.die("Line " + std::to_string(Reader.lineNumber()) +
                   ": expected 'empty' or '...' after 'heap_tree='\n",
               0);
    }
    if (Listing)
      Listing->flushIfFull();
  }
}

const PerlNumber &ProfileReader::thresholdNumber() {
  return numifyScalar(Threshold, Diag, "numeric eq (==)",
                      perl_line::ThresholdIsZero);
}

PerlNumber ProfileReader::percentOf(const PerlNumber &Bytes,
                                    const PerlNumber &Total) {
  // safe_div_0(100 * $bytes, $total)
  if (!Total.isTrue())
    return PerlNumber();
  PerlNumber Result;
  if (!perlDivide(perlMultiply(PerlNumber::integer(100), Bytes), Total,
                  Result))
    return PerlNumber(); // Unreachable: Total is non-zero.
  return Result;
}

void ProfileReader::readHeapTree(const PerlNumber &Total) {
  Stack.clear();
  Prefix.clear();
  enterNode(/*IsTop=*/true, "", Total);
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    if (F.NextChild < F.NumChildren) {
      bool Last = F.NextChild + 1 == F.NumChildren;
      ++F.NextChild;
      enterNode(/*IsTop=*/false, Last ? "  " : "| ", Total);
    } else {
      finishNode(Total);
    }
  }
}

void ProfileReader::enterNode(bool IsTop, std::string_view Midfix,
                              const PerlNumber &Total) {
  if (Stack.size() + 1 == DeepRecursionDepth)
    Diag.warn("Deep recursion on subroutine \"main::read_heap_tree\"",
              perl_line::RecursiveCall);
  Line L;
  bool HaveLine = getLine(L);
  std::string_view Children, BytesText, Details;
  if (!HaveLine || !parseTreeLine(L.Text, Children, BytesText, Details)) {
    if (!HaveLine)
      Diag.warn("Use of uninitialized value $line in concatenation (.) or "
                "string",
                perl_line::TreeNodeLine);
    std::string Message = "Line " + std::to_string(Reader.lineNumber()) +
                          ": expected a tree node line, got:\n";
    if (HaveLine) {
      Message.append(L.Text);
      if (L.HasNewline)
        Message += '\n';
    }
    Message += '\n';
    Diag.die(Message, 0);
  }

  // "100 * $bytes" numifies the byte count; strtod's ERANGE on a huge
  // digit string becomes Perl's errno.
  Numified BytesNum = perlNumify(BytesText);
  if (BytesNum.RangeError)
    Diag.setErrno(ERANGE);
  const PerlNumber &Bytes = BytesNum.Value;
  PerlNumber Percent;
  if (Listing)
    Percent = percentOf(Bytes, Total);
  if (!perlLe(Bytes, Total))
    Diag.dieBare(perl_line::NodeNotLarger);
  bool Significant = true;
  if (!IsTop) {
    const PerlNumber &Thr = thresholdNumber();
    if (Listing && !perlEq(PerlNumber(), Thr))
      Significant = perlCompare(Total, PerlNumber()) != NumOrder::Equal &&
                    perlGe(Percent, Thr);
  }

  if (Listing && Significant) {
    std::string &Out = Listing->text();
    Out += Prefix;
    if (!IsTop)
      Out += "->";
    appendPercent(Out, Percent);
    Out += "% (";
    appendCommified(Out, BytesText);
    Out += "B)";
    Out.append(Details.data(), Details.size());
    Out += '\n';
  }

  // The loop's "$i < $n_children" numifies the child count.
  if (Children.size() > 18 && perlNumify(Children).RangeError)
    Diag.setErrno(ERANGE);

  Frame &F = Stack.emplace_back();
  F.NumChildren = childCount(Children);
  F.NextChild = 0;
  F.Significant = Significant;
  F.NumInsignificant = 0;
  F.InsignificantBytes = PerlNumber();
  F.Bytes = Bytes;
  F.PrefixLenBefore = Prefix.size();
  Prefix.append(Midfix.data(), Midfix.size());
}

void ProfileReader::finishNode(const PerlNumber &Total) {
  const Frame &F = Stack.back();
  if (Listing && F.Significant) {
    std::string &Out = Listing->text();
    if (F.NumInsignificant > 0) {
      Out += Prefix;
      Out += "->";
      appendPercent(Out, percentOf(F.InsignificantBytes, Total));
      Out += "% (";
      appendCommified(Out, F.InsignificantBytes.toString());
      Out += "B) in ";
      Out += std::to_string(F.NumInsignificant);
      Out += "+ places, all below ms_print's threshold (";
      appendPercent(Out, Threshold.Number);
      Out += "%)\n";
      Out += Prefix;
      Out += '\n';
    }
    if (F.NumChildren == 0) {
      Out += Prefix;
      Out += '\n';
    }
    Listing->flushIfFull();
  }
  Prefix.resize(F.PrefixLenBefore);
  if (Stack.size() > 1 && Listing && !F.Significant) {
    Frame &Parent = Stack[Stack.size() - 2];
    ++Parent.NumInsignificant;
    Parent.InsignificantBytes = perlAdd(Parent.InsignificantBytes, F.Bytes);
  }
  Stack.pop_back();
}

} // namespace msprint
