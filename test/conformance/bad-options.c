// A bad option stops the program before it runs, with status 1 and
// Massif's own lines on stderr: "Bad option:" and Massif's reason, or
// "Unknown option:", then "Use --help ...". The runtime adds one line of
// its own after Massif's reason, saying what the option accepts ("--depth
// accepts an integer from 1 to 200"); the lines compared leave it out.
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.depth -- --depth=abc
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.depth0 -- --depth=0
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.snap -- --max-snapshots=0x10
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.admin -- --heap-admin=2000
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.heap -- --heap=maybe
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.stacks -- --stacks=1
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.thr -- --threshold=abc
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.thr200 -- --threshold=200
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.thre -- --threshold=1e2
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.peak -- --peak-inaccuracy=x
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.unit -- --time-unit=s
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.freq -- --detailed-freq=0
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.align -- --alignment=24
// RUN: %conform --files=0 '--stderr=^(?!--\S+ accepts)' %s %t.unknown -- --no-such-option=1
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  puts("main ran");
  free(malloc(10));
  return 0;
}
