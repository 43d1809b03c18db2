// A bad --massif-out-file is reported when the file would be written, after
// the program ran: Massif's reason, exit status 1, no file. The lines
// compared are those after "==PID== " (Valgrind) or "massif: " (native).
// An output path that cannot be created leaves the program's exit status
// alone under both (the native message differs on purpose: it names the
// system's reason, see docs/DESIGN-runtime.md).
// RUN: %conform --files=0 --stderr=. --out-file= %s %t.empty -- --time-unit=B
// RUN: %conform --files=0 --stderr=. --out-file=~/m.out %s %t.tilde -- --time-unit=B
// RUN: %conform --files=0 --stderr=. --out-file=m.%%z %s %t.pz -- --time-unit=B
// RUN: %conform --files=0 --stderr=. --out-file=m.%% %s %t.pend -- --time-unit=B
// RUN: %conform --files=0 --stderr=. --out-file=m.%%q %s %t.q -- --time-unit=B
// RUN: %conform --files=0 --stderr=. --out-file=m.%%q{NO_END %s %t.qend -- --time-unit=B
// RUN: %conform --files=0 --stderr=. --out-file=m.%%q{MASSIF_TEST_UNSET} %s %t.unset -- --time-unit=B
// RUN: %conform --files=0 --out-file=no/such/dir/m.out %s %t.nodir -- --time-unit=B
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  free(malloc(100));
  printf("main ran\n");
  return 7;
}
