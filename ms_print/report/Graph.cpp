//===- Graph.cpp - The ASCII graph and the snapshot counts ----------------===//
//
// Part of massif-native, under the MIT licence.
//
// Implements Graph.h. A bar's height is the number of rows y in 1..Y with
// total >= y * K (K = peak / Y), a prefix of the rows because y * K grows
// with y, so it is found by binary search with Perl's arithmetic instead
// of Y comparisons. The snapshot fields are re-read with a light scanner:
// the file is known to be well formed, and a tree line never starts like
// a field line (it starts with blanks or 'n').
//
//===----------------------------------------------------------------------===//

#include "Graph.h"

#include "Canvas.h"
#include "Diagnostics.h"
#include "InputFile.h"
#include "Options.h"
#include "OutputBuffer.h"
#include "PerlFormat.h"
#include "ProfileReader.h"
#include "massif/format.h"

namespace msprint {

namespace fmt = massif::format;

namespace {

bool startsWith(std::string_view S, std::string_view Prefix) {
  return S.size() >= Prefix.size() && S.compare(0, Prefix.size(), Prefix) == 0;
}

/// Scales Value by Divisor while it is >= Limit, stepping through Units.
AxisLabel scaledLabel(const PerlNumber &Value, const char *const *Units,
                      size_t NumUnits, int64_t Divisor) {
  PerlNumber Scaled = Value;
  std::string Unit = Units[0];
  for (size_t I = 1; I < NumUnits; ++I) {
    if (perlGe(Scaled, PerlNumber::integer(1000))) {
      Unit = Units[I];
      perlDivide(Scaled, PerlNumber::integer(Divisor), Scaled);
    }
  }
  return {maxLabelText(Value, Scaled), Unit};
}

/// The number of rows y in 1..Height with Total >= y * K.
int64_t barHeight(const PerlNumber &Total, const PerlNumber &K,
                  int64_t Height) {
  int64_t Lo = 0, Hi = Height;
  while (Lo < Hi) {
    int64_t Mid = Lo + (Hi - Lo + 1) / 2;
    if (perlGe(Total, perlMultiply(PerlNumber::integer(Mid), K)))
      Lo = Mid;
    else
      Hi = Mid - 1;
  }
  return Lo;
}

/// Walks the snapshots of a checked file, yielding their fields.
class SnapshotScanner {
public:
  SnapshotScanner(const ProfileSummary &Summary, const InputFile &In)
      : In(In), Reader(Summary.BodyStart, In.end()) {}

  bool next(SnapshotFields &F) {
    Line L;
    while (Reader.next(L)) {
      In.releaseBefore(Reader.position());
      std::string_view T = L.Text;
      switch (T.front()) {
      case 's':
        if (startsWith(T, fmt::SnapshotKey))
          F.Num = T.substr(sizeof(fmt::SnapshotKey) - 1);
        break;
      case 't':
        if (startsWith(T, fmt::TimeKey))
          F.Time = T.substr(sizeof(fmt::TimeKey) - 1);
        break;
      case 'm':
        if (startsWith(T, fmt::HeapKey))
          F.Heap = T.substr(sizeof(fmt::HeapKey) - 1);
        else if (startsWith(T, fmt::HeapExtraKey))
          F.Extra = T.substr(sizeof(fmt::HeapExtraKey) - 1);
        else if (startsWith(T, fmt::StacksKey))
          F.Stacks = T.substr(sizeof(fmt::StacksKey) - 1);
        break;
      case 'h':
        if (startsWith(T, fmt::HeapTreeKey)) {
          F.HeapTree = T.substr(sizeof(fmt::HeapTreeKey) - 1);
          return true;
        }
        break;
      default:
        break; // A tree line.
      }
    }
    return false;
  }

private:
  const InputFile &In;
  LineReader Reader;
};

} // namespace

std::string maxLabelText(const PerlNumber &Value, const PerlNumber &Scaled) {
  std::string Out;
  if (perlLt(Value, PerlNumber::integer(1000)))
    appendInteger(Out, Value, 5);
  else if (perlLt(Scaled, PerlNumber::integer(10)))
    appendFixed(Out, Scaled, 5, 3, false);
  else if (perlLt(Scaled, PerlNumber::integer(100)))
    appendFixed(Out, Scaled, 5, 2, false);
  else
    appendFixed(Out, Scaled, 5, 1, false);
  return Out;
}

AxisLabel bytesLabel(const PerlNumber &Value) {
  static const char *const Units[] = {"B",  "KB", "MB", "GB", "TB",
                                      "PB", "EB", "ZB", "YB"};
  return scaledLabel(Value, Units, 9, 1024);
}

AxisLabel instructionsLabel(const PerlNumber &Value) {
  static const char *const Units[] = {"i",  "ki", "Mi", "Gi", "Ti",
                                      "Pi", "Ei", "Zi", "Yi"};
  return scaledLabel(Value, Units, 9, 1024);
}

AxisLabel millisecondsLabel(const PerlNumber &Value) {
  PerlNumber Scaled = Value;
  std::string Unit = "ms";
  if (perlGe(Scaled, PerlNumber::integer(1000))) {
    Unit = "s";
    perlDivide(Scaled, PerlNumber::integer(1000), Scaled);
  }
  if (perlGe(Scaled, PerlNumber::integer(3600))) {
    Unit = "h";
    perlDivide(Scaled, PerlNumber::integer(3600), Scaled);
  }
  return {maxLabelText(Value, Scaled), Unit};
}

void printGraph(const InputFile &In, const ProfileSummary &Summary,
                const Options &Opts, Diagnostics &Diag, OutputBuffer &Out) {
  if (Summary.NumSnapshots == 0)
    Diag.dieBare(perl_line::NoSnapshots);
  PerlScalar EndTimeScalar(Summary.LastTime);
  PerlNumber EndTime = numifyScalar(EndTimeScalar, Diag, "numeric ge (>=)",
                                    perl_line::EndTimeNegative);
  if (!perlGe(EndTime, PerlNumber()))
    Diag.dieBare(perl_line::EndTimeNegative);

  const int64_t Width = Opts.GraphX, Height = Opts.GraphY;
  Canvas Graph(Width, Height);
  PerlNumber Peak = Summary.PeakTotal;
  if (perlEq(PerlNumber(), Peak))
    Peak = PerlNumber::integer(1);
  if (perlEq(PerlNumber(), EndTime))
    EndTime = PerlNumber::integer(1);
  PerlNumber K;
  perlDivide(Peak, PerlNumber::integer(Height), K);
  const PerlNumber GraphX = PerlNumber::integer(Width);

  PerlScalar PeakNum = Summary.HasPeak
                           ? PerlScalar(Summary.PeakNum)
                           : PerlScalar::fromNumber(PerlNumber::integer(-1));
  Diagnostics Quiet;
  Quiet.setSilent(true);
  std::string DetailedList;
  PerlNumber X, PrevX;
  int64_t PrevYMax = 0;
  char PrevChar = ':';
  SnapshotScanner Scanner(Summary, In);
  SnapshotFields F;
  for (uint64_t I = 0; Scanner.next(F); ++I) {
    PrevX = X;
    PerlScalar TimeScalar(F.Time);
    const PerlNumber &Time = numifyScalar(TimeScalar, Diag, "division (/)",
                                          perl_line::ColumnDivision);
    PerlNumber Fraction;
    if (!perlDivide(Time, EndTime, Fraction))
      Diag.die("Illegal division by zero", perl_line::ColumnDivision);
    X = perlAdd(perlInt(perlMultiply(Fraction, GraphX)),
                PerlNumber::integer(1));
    if (perlEq(Time, EndTime)) {
      // The last snapshot would land one column past the graph.
      if (!perlEq(X, PerlNumber::integer(Width + 1)))
        Diag.dieBare(perl_line::LastColumn);
      X = GraphX;
    }
    if (PrevYMax > 0)
      Graph.drawHorizontal(PrevX, X, PrevYMax, PrevChar, Diag);

    bool Detailed = F.HeapTree != fmt::TreeEmpty;
    const PerlNumber &PeakIndex = numifyScalar(
        PeakNum, Diag, "numeric eq (==)", perl_line::PeakCompare);
    bool IsPeak = perlEq(PerlNumber::integer(WideInt(I)), PeakIndex);
    char C = IsPeak ? '#' : Detailed ? '@' : ':';
    int64_t YMax = barHeight(snapshotTotal(F, Quiet), K, Height);
    Graph.drawBar(X, YMax, C, Diag);
    PrevYMax = YMax;
    PrevChar = C;

    if (Detailed) {
      if (!DetailedList.empty())
        DetailedList += ", ";
      DetailedList += std::to_string(I);
      if (IsPeak)
        DetailedList += " (peak)";
    }
  }

  AxisLabel YLabel = bytesLabel(Peak);
  AxisLabel XLabel;
  if (Summary.TimeUnit == fmt::TimeUnitInstructions)
    XLabel = instructionsLabel(EndTime);
  else if (Summary.TimeUnit == fmt::TimeUnitMilliseconds)
    XLabel = millisecondsLabel(EndTime);
  else if (Summary.TimeUnit == fmt::TimeUnitBytes)
    XLabel = bytesLabel(EndTime);
  else
    Diag.die("bad time_unit: " + std::string(Summary.TimeUnit) + "\n", 0);

  std::string &Text = Out.text();
  Text += "    ";
  appendRightAligned(Text, YLabel.Unit, 2);
  Text += '\n';
  for (int64_t Row = Height; Row >= 0; --Row) {
    if (Row == Height)
      Text += YLabel.Text;
    else if (Row == 0)
      Text += "   0 ";
    else
      Text += "     ";
    for (int64_t Col = 0; Col <= Width; ++Col)
      Text += Graph.cell(Col, Row);
    if (Row == 0)
      Text += XLabel.Unit;
    Text += '\n';
  }
  if (Width - 5 < 0)
    Diag.warn("Negative repeat count does nothing", perl_line::NegativeRepeat);
  Text += "     0";
  if (Width > 5)
    Text.append(size_t(Width - 5), ' ');
  appendRightAligned(Text, XLabel.Text, 5);
  Text += '\n';

  Text += "\nNumber of snapshots: " + std::to_string(Summary.NumSnapshots) +
          "\n Detailed snapshots: [" + DetailedList + "]\n\n";
}

} // namespace msprint
