//===- GraphLayout.cpp - What memusagestat draws, for any canvas ----------===//
//
// Part of massif-native, under the MIT licence.
//
// Implements GraphLayout.h: reading memusage's data file and issuing the
// drawing calls of memusagestat, in its order (later calls paint over
// earlier ones, so the order is part of the picture). Records are streamed
// through stdio; a data file can hold millions of them.
//
//===----------------------------------------------------------------------===//

#include "GraphLayout.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <sys/stat.h>

namespace massif {
namespace memusage {

namespace {

using U64 = uint64_t;

constexpr U64 RecordB = 24;
constexpr U64 HeaderB = 2 * RecordB;
/// The plot area's margins: 40 pixels left and right, 20 above and below.
constexpr U64 MarginX = 40, MarginY = 20;

/// memusagestat hands its size_t positions to libgd's int parameters; the
/// conversion keeps the low 32 bits (modular on every compiler we support,
/// and by definition from C++20 on).
int toGd(U64 V) { return static_cast<int32_t>(static_cast<uint32_t>(V)); }

/// memusagestat divides by the time span unguarded and dies of SIGFPE when
/// records exist but the span is 0; we put such records at time 0 instead.
U64 divOrZero(U64 A, U64 B) { return B == 0 ? 0 : A / B; }

struct Record {
  U64 Heap, Stack, Time;
};

std::string quoted(const std::string &Path) { return "'" + Path + "'"; }

std::string cannotRead(const std::string &Path, int Err) {
  return "cannot read data file " + quoted(Path) + ": " + std::strerror(Err);
}

/// Reads the record at D's file position, little-endian whatever the host.
std::string readRecord(GraphData &D, Record &R) {
  unsigned char B[RecordB];
  if (std::fread(B, 1, RecordB, D.File) != RecordB)
    return std::ferror(D.File)
               ? cannotRead(D.Path, errno)
               : "data file " + quoted(D.Path) + " shrank while being read";
  auto LE = [&](int At, int Bytes) {
    U64 V = 0;
    for (int I = Bytes - 1; I >= 0; --I)
      V = V << 8 | B[At + I];
    return V;
  };
  R = {LE(0, 8), LE(8, 8), LE(20, 4) << 32 | LE(16, 4)};
  return "";
}

/// A value axis: memusagestat labels it in bytes, KiB or MiB by its peak.
struct Scale {
  U64 Divisor = 1;
  const char *Suffix = "";

  explicit Scale(U64 Peak) {
    if (Peak >= 100 * 1024 * 1024)
      Divisor = 1024 * 1024, Suffix = "M";
    else if (Peak >= 1024)
      Divisor = 1024, Suffix = "k";
  }
  std::string label(U64 Scaled) const {
    return std::to_string(Scaled) + Suffix;
  }
};

/// The row of a value on a value axis whose top is Peak.
U64 rowOf(U64 H, U64 Value, U64 Peak) {
  return (H - MarginY) - ((H - 2 * MarginY) * Value) / Peak;
}

} // namespace

Canvas::~Canvas() = default;

Rgb inkRgb(Ink C) {
  static const Rgb Table[NumInks] = {{224, 224, 224}, {255, 0, 0},
                                     {0, 130, 0},     {0, 0, 255},
                                     {154, 205, 50},  {0, 0, 0}};
  return Table[static_cast<int>(C)];
}

GraphData::~GraphData() {
  if (File)
    std::fclose(File);
}

std::string openGraphData(const std::string &DataPath, const GraphOptions &O,
                          GraphData &D) {
  D.Path = DataPath;
  // Read-only: memusagestat opens it read-write to repair it, which fails
  // on files we could still draw.
  D.File = std::fopen(DataPath.c_str(), "rbe");
  struct stat St;
  if (!D.File || fstat(fileno(D.File), &St) != 0)
    return cannotRead(DataPath, errno);
  // What reading it would say, before the size check says something odd.
  if (S_ISDIR(St.st_mode))
    return cannotRead(DataPath, EISDIR);
  U64 SizeB = U64(St.st_size);
  if (SizeB % RecordB != 0 || SizeB < HeaderB)
    return "data file " + quoted(DataPath) + " has incorrect size (" +
           std::to_string(SizeB) + " bytes, " +
           (SizeB % RecordB != 0 ? "not a whole number of 24-byte records)"
                                 : "less than its two 24-byte header "
                                   "records)");
  D.NumRecords = SizeB / RecordB - 2;

  Record First, Second;
  std::string Error = readRecord(D, First);
  if (Error.empty())
    Error = readRecord(D, Second);
  if (!Error.empty())
    return Error;
  D.PeakTotal = First.Stack;
  D.PeakHeap = Second.Heap;
  D.PeakStack = Second.Stack;
  D.StartTime = First.Time;
  D.EndTime = Second.Time;

  // Both peaks 0 means the program died before memusage wrote them:
  // recompute them, and the end time, from the records.
  if (D.PeakHeap == 0 && D.PeakStack == 0) {
    Record R;
    for (U64 I = 0; I < D.NumRecords; ++I) {
      if (!(Error = readRecord(D, R)).empty())
        return Error;
      D.PeakHeap = std::max(D.PeakHeap, R.Heap);
      D.PeakStack = std::max(D.PeakStack, R.Stack);
      // The running peaks' sum, not any one record's, as memusagestat.
      D.PeakTotal = std::max(D.PeakTotal, D.PeakHeap + D.PeakStack);
      D.EndTime = R.Time;
    }
  }
  // memusagestat keeps atoi's int (strtol's long cut to 32 bits), takes 0
  // as 800 for both axes, raises small sizes to 100x80, and lets libgd
  // refuse what it cannot allocate, then crashes; we refuse it ourselves,
  // after the data file's checks as there.
  auto AsAtoi = [](long V) { return long(toGd(U64(V))); };
  long W = AsAtoi(O.XSize) == 0 ? 800 : AsAtoi(O.XSize);
  long H = AsAtoi(O.YSize) == 0 ? 800 : AsAtoi(O.YSize);
  if (W < 0 || H < 0 ||
      U64(std::max(W, 100L)) * U64(std::max(H, 80L)) > U64(INT_MAX))
    return "graph size " + std::to_string(O.XSize) + "x" +
           std::to_string(O.YSize) + " is out of range";
  W = std::max(W, 100L);
  H = std::max(H, 80L);
  D.Width = U64(W);
  D.Height = U64(H);
  return "";
}

std::string layOutGraph(GraphData &D, const GraphOptions &O, Canvas &Out) {
  const U64 W = D.Width, H = D.Height, Total = D.NumRecords;
  // With -T all lines share the total's scale.
  const U64 MaxHeap = O.Total ? D.PeakTotal : D.PeakHeap;
  const U64 MaxStack = O.Total ? D.PeakTotal : D.PeakStack;
  const U64 Span = D.EndTime - D.StartTime;
  const Scale HeapScale(MaxHeap), StackScale(MaxStack);
  auto LeftOf = [](const std::string &S) { return toGd(39 - S.size() * 6); };

  Out.rectangle(toGd(MarginX), toGd(MarginY), toGd(W - MarginX),
                toGd(H - MarginY), Ink::Blue);
  Out.text(Face::Small, 38, toGd(H - 14), "0", Ink::Blue);
  Out.text(Face::Small, MaxHeap < 1024 ? 32 : 26, toGd(H - 26),
           HeapScale.label(0), Ink::Red);
  Out.text(Face::Small, toGd(W - 37), toGd(H - 26), StackScale.label(0),
           Ink::Green);
  if (O.HasTitle) {
    std::string_view Title(O.Title.c_str()); // C stops at the first NUL.
    Out.text(Face::Large, toGd((W - Title.size() * 8) / 2), 2, Title,
             Ink::Green);
  }
  const int LegendY = toGd(H / 2 - 10);
  Out.textUp(Face::Small, 1, LegendY, "allocated", Ink::Red);
  Out.textUp(Face::Small, 11, LegendY, "memory", Ink::Red);
  Out.textUp(Face::Small, toGd(W - 39), LegendY, "used", Ink::Green);
  Out.textUp(Face::Small, toGd(W - 27), LegendY, "stack", Ink::Green);

  std::string Label = HeapScale.label(MaxHeap / HeapScale.Divisor);
  Out.text(Face::Small, LeftOf(Label), 14, Label, Ink::Red);
  Out.text(Face::Small, toGd(W - 37), 14,
           StackScale.label(MaxStack / StackScale.Divisor), Ink::Green);

  // Grid lines at quarters of each peak; the stack's is drawn only where
  // it does not coincide with the heap's, but labelled always.
  for (U64 Quarter = 1; Quarter <= 3; ++Quarter) {
    U64 HeapRise = 0, StackRise = 0;
    if (MaxHeap > 0) {
      U64 Scaled = MaxHeap / 4 * Quarter / HeapScale.Divisor;
      HeapRise = (H - 2 * MarginY) * Scaled / (MaxHeap / HeapScale.Divisor);
      Out.dashedLine(toGd(MarginX), toGd(H - MarginY - HeapRise),
                     toGd(W - MarginX), toGd(H - MarginY - HeapRise), Ink::Red);
      Label = HeapScale.label(Scaled);
      Out.text(Face::Small, LeftOf(Label), toGd(H - 26 - HeapRise), Label,
               Ink::Red);
    }
    U64 StackScaled = MaxStack / 4 * Quarter / StackScale.Divisor;
    if (MaxStack > 0)
      StackRise =
          (H - 2 * MarginY) * StackScaled / (MaxStack / StackScale.Divisor);
    if (HeapRise != StackRise)
      Out.dashedLine(toGd(MarginX), toGd(H - MarginY - StackRise),
                     toGd(W - MarginX), toGd(H - MarginY - StackRise),
                     Ink::Green);
    Out.text(Face::Small, toGd(W - 37), toGd(H - 26 - StackRise),
             StackScale.label(StackScaled), Ink::Green);
  }
  Out.text(Face::Small, toGd(W - 50), toGd(H - 14), std::to_string(Total),
           Ink::Blue);

  // The x axis: call number Cnt (or its time) maps into the plot width.
  const U64 PlotW = W - 2 * MarginX;
  const U64 TickStep = std::max<U64>(1, Total / 20);
  auto XOfCall = [&](U64 Cnt) { return MarginX + (PlotW * Cnt) / Total; };
  auto XOfTime = [&](U64 T) {
    return MarginX + divOrZero(PlotW * (T - D.StartTime), Span);
  };
  if (O.TimeBased) {
    // memusagestat's literal starts with four tabs, which libgd draws
    // as the font's "HT" glyphs.
    Out.text(Face::Small, toGd(MarginX + (W - 39 * 6 - 2 * MarginX) / 2),
             toGd(H - 12),
             "\t\t\t\t      # memory handling function calls / time",
             Ink::Blue);
    // Every other twentieth of the time span is banded yellow.
    for (U64 Band = 0; Band < 20; Band += 2)
      Out.filledRectangle(toGd(MarginX + (Band * PlotW) / 20), toGd(H - 19),
                          toGd(39 + ((Band + 1) * PlotW) / 20), toGd(H - 14),
                          Ink::Yellow);
  } else {
    Out.text(Face::Small, toGd(MarginX + (W - 32 * 6 - 2 * MarginX) / 2),
             toGd(H - 12), "# memory handling function calls", Ink::Blue);
  }

  if (fseeko(D.File, off_t(HeaderB), SEEK_SET) != 0)
    return cannotRead(D.Path, errno);
  U64 LastHeap = H - MarginY, LastStack = LastHeap, LastTotal = LastHeap;
  U64 LastX = MarginX, Previously = D.StartTime, NextTick = TickStep;
  for (U64 Cnt = 1; Cnt <= Total; ++Cnt) {
    Record R;
    std::string Error = readRecord(D, R);
    if (!Error.empty())
      return Error;
    U64 X;
    if (O.TimeBased) {
      X = XOfTime(R.Time);
      if (Cnt == NextTick) {
        Out.line(toGd(X), toGd(H - MarginY), toGd(X), toGd(H - 15), Ink::Blue);
        NextTick += TickStep;
      }
    } else {
      // The call's slot is yellow when the previous call fell in the
      // first half of a tenth of the time span.
      if (divOrZero((Previously - D.StartTime) * 100, Span) % 10 < 5)
        Out.filledRectangle(toGd(XOfCall(Cnt - 1)), toGd(H - 19),
                            toGd(XOfCall(Cnt) - 1), toGd(H - 14), Ink::Yellow);
      Previously = R.Time;
      LastX = XOfCall(Cnt - 1);
      X = XOfCall(Cnt);
    }
    if (O.Total && MaxHeap > 0) {
      U64 Row = rowOf(H, R.Heap + R.Stack, MaxHeap);
      Out.line(toGd(LastX), toGd(LastTotal), toGd(X), toGd(Row), Ink::Black);
      LastTotal = Row;
    }
    if (MaxHeap > 0) {
      U64 Row = rowOf(H, R.Heap, MaxHeap);
      Out.line(toGd(LastX), toGd(LastHeap), toGd(X), toGd(Row), Ink::Red);
      LastHeap = Row;
    }
    if (MaxStack > 0) {
      U64 Row = rowOf(H, R.Stack, MaxStack);
      Out.line(toGd(LastX), toGd(LastStack), toGd(X), toGd(Row), Ink::Green);
      LastStack = Row;
    }
    LastX = X;
  }
  Out.endPlot();

  if (!O.TimeBased) {
    for (U64 Cnt = 0; Cnt < Total; Cnt += TickStep)
      Out.line(toGd(XOfCall(Cnt)), toGd(H - MarginY), toGd(XOfCall(Cnt)),
               toGd(H - 15), Ink::Blue);
    Out.line(toGd(W - MarginX), toGd(H - MarginY), toGd(W - MarginX),
             toGd(H - 15), Ink::Blue);
  }
  Out.finish();
  return "";
}

} // namespace memusage
} // namespace massif
