// --massif-out-file expansions, done when the file is written: %q{VAR}
// (an environment variable), %% (a per cent sign), %n (1, then 2 for the
// next use in the same name), and a relative name resolved against the
// directory the program started in although it moved elsewhere. (The
// program does not change TAG: Valgrind 3.19 reads the client's original
// environment array at exit and crashes after a setenv of the variable.)
// RUN: %conform --env=TAG=tagged --out-file=m.%%q{TAG}.out %s %t.q -- --time-unit=B
// RUN: %conform --out-file=m.%%%%.out %s %t.pc -- --time-unit=B
// RUN: %conform --out-file=m.%%n.%%n %s %t.n -- --time-unit=B
// RUN: %conform --args=chdir --out-file=sub/m.out %s %t.rel -- --time-unit=B
// RUN: test -f %t.q/native/m.tagged.out && test -f %t.q/vg/m.tagged.out
// RUN: test -f %t.pc/native/m.%%.out && test -f %t.n/native/m.1.2
// RUN: test -f %t.rel/native/sub/m.out && test -f %t.rel/vg/sub/m.out
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
  mkdir("sub", 0755);
  free(malloc(100));
  if (argc > 1 && !strcmp(argv[1], "chdir") && chdir("sub") != 0)
    return 2;
  free(malloc(200));
  return 0;
}
