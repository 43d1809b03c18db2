//===- Report.cpp - memusage's summary on standard error ------------------===//
//
// Part of massif-native, under the MIT licence.
//
// The summary memusage writes at exit, byte for byte: the totals line, the
// table of calls (in colour, failures on red), the mmap rows when tracing,
// and the histogram of request sizes with its bars of up to 50 '='. It goes
// through stdio's stderr, as memusage's does, so it follows whatever the
// program left in that stream's buffer.
//
//===----------------------------------------------------------------------===//

#include "Tally.h"

#include <stdio.h>

using namespace massif::memusage;

namespace {

#define ESC "\033"
#define ROW_START ESC "[00;34m"
#define ROW_END ESC "[0m"
#define FAILED_ON ESC "[01;41m"
#define BAR_ON ESC "[41;37m"
#define PLAIN ESC "[0;0m"

/// One row of the table: calls, bytes and failures, failures in red.
void writeRow(const char *Label, uint64_t Calls, uint64_t Bytes,
              uint64_t Failed) {
  fprintf(stderr, ROW_START "%s|" ROW_END " %10lu   %12llu   %s%12lu" ESC
          "[00;00m",
          Label, (unsigned long)Calls, (unsigned long long)Bytes,
          Failed ? FAILED_ON : "", (unsigned long)Failed);
}

/// One histogram line after its label: the count, its share of all calls
/// and a bar scaled to the largest bin.
void writeBar(uint64_t Count, uint64_t CallsTotal, uint64_t MaxCount) {
  fprintf(stderr, "%12lu ", (unsigned long)Count);
  int Percent = (int)(Count * 100 / CallsTotal);
  if (Percent == 0)
    fputs(" <1% " BAR_ON, stderr);
  else
    fprintf(stderr, "%3d%% " BAR_ON, Percent);
  for (int Bar = (int)(Count * 50 / MaxCount); Bar > 0; --Bar)
    fputc('=', stderr);
  fputs(PLAIN "\n", stderr);
}

} // namespace

void Tally::report() const {
  fprintf(stderr,
          "\n" ESC "[01;32mMemory usage summary:" PLAIN
          " heap total: %llu, heap peak: %lu, stack peak: %lu\n" ESC
          "[04;34m         total calls   total memory   failed calls" ROW_END
          "\n",
          (unsigned long long)GrandTotal, (unsigned long)PeakHeap,
          (unsigned long)PeakStack);
  writeRow(" malloc", Rows[CallMalloc].Calls, Rows[CallMalloc].Bytes,
             Rows[CallMalloc].Failed);
  fputc('\n', stderr);
  writeRow("realloc", Rows[CallRealloc].Calls, Rows[CallRealloc].Bytes,
             Rows[CallRealloc].Failed);
  fprintf(stderr, "  (nomove:%ld, dec:%ld, free:%ld)\n", (long)InPlace,
          (long)Decreasing, (long)ReallocFree);
  writeRow(" calloc", Rows[CallCalloc].Calls, Rows[CallCalloc].Bytes,
             Rows[CallCalloc].Failed);
  fputc('\n', stderr);
  fprintf(stderr, ROW_START "   free|" ROW_END " %10lu   %12llu\n",
          (unsigned long)Rows[CallFree].Calls,
          (unsigned long long)Rows[CallFree].Bytes);
  if (TraceMmap) {
    static const char *const Labels[] = {"mmap(r)", "mmap(w)", "mmap(a)"};
    for (unsigned C = CallMmapRead; C <= CallMmapAnon; ++C) {
      writeRow(Labels[C - CallMmapRead], Rows[C].Calls, Rows[C].Bytes,
             Rows[C].Failed);
      fputc('\n', stderr);
    }
    writeRow(" mremap", Rows[CallMremap].Calls, Rows[CallMremap].Bytes,
             Rows[CallMremap].Failed);
    fprintf(stderr, "  (nomove: %ld, dec:%ld)\n", (long)InPlaceMremap,
            (long)DecreasingMremap);
    writeRow(" munmap", Rows[CallMunmap].Calls, Rows[CallMunmap].Bytes,
             Rows[CallMunmap].Failed);
    fputc('\n', stderr);
  }

  fputs(ESC "[01;32mHistogram for block sizes:" PLAIN "\n", stderr);
  uint64_t MaxCount = Large;
  for (uint64_t Count : Histogram)
    if (Count > MaxCount)
      MaxCount = Count;
  for (size_t Bin = 0; Bin < HistogramBins; ++Bin) {
    if (Histogram[Bin] == 0)
      continue;
    fprintf(stderr, "%5d-%-5d", (int)(Bin * 16), (int)(Bin * 16 + 15));
    writeBar(Histogram[Bin], CallsTotal, MaxCount);
  }
  if (Large != 0) {
    fputs("   large   ", stderr);
    writeBar(Large, CallsTotal, MaxCount);
  }
}
