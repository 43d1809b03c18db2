// A set-user-ID root program built with mscc, run by an unprivileged user:
// whoever sets its environment must not get a file written with root's
// privileges. In secure mode (AT_SECURE: set-user-ID, set-group-ID, file
// capabilities) the runtime ignores MASSIF_OPTIONS and the environment,
// says so once, and writes massif.out.<pid> in the working directory as
// the user who ran the program, never over an existing file and never
// through a symbolic link planted at that name.
// REQUIRES: root
// RUN: rm -rf %t && mkdir -p %t && chmod 755 %t && cd %t
// RUN: %mscc -O0 %s -o prog && chmod 4755 prog
// RUN: mkdir -m 700 private && mkdir -m 1777 cwd && touch victim && chmod 644 victim
// RUN: cd cwd && env MASSIF_OPTIONS="--time-unit=B --massif-out-file=%t/private/x" setpriv --reuid=65534 --regid=65534 --clear-groups ../prog > out 2> err
// RUN: %FileCheck %s --check-prefix=OUT --input-file=%t/cwd/out
// RUN: %FileCheck %s --check-prefix=ERR --input-file=%t/cwd/err
// RUN: not test -e %t/private/x
// RUN: ls %t/cwd/massif.out.* | wc -l | %FileCheck %s --check-prefix=ONE
// RUN: stat -c %%u %t/cwd/massif.out.* | %FileCheck %s --check-prefix=USER
// RUN: %FileCheck %s --check-prefix=DEFAULTS < %t/cwd/massif.out.*
// A link at the name the profile would take: not followed, not replaced.
// RUN: rm -f %t/cwd/massif.out.*
// RUN: cd %t/cwd && sh -c 'ln -s ../victim massif.out.$$ && exec setpriv --reuid=65534 --regid=65534 --clear-groups ../prog' > out2 2> err2
// RUN: %FileCheck %s --check-prefix=LINK --input-file=%t/cwd/err2
// RUN: test ! -s %t/victim
// OUT: euid 0, uid 65534
// ERR: massif: warning: the program runs with privileges (set-user-ID, set-group-ID or capabilities): MASSIF_OPTIONS and the environment are ignored, and the profile is written as massif.out.<pid> in the working directory by the user who ran it, never over an existing file
// ERR-NOT: massif:
// ONE: 1
// USER: 65534
// DEFAULTS: desc: (none)
// DEFAULTS: time_unit: i
// LINK: massif: error: cannot open output file '{{.*}}/cwd/massif.out.{{[0-9]+}}': File exists
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
  free(malloc(100));
  printf("euid %d, uid %d\n", (int)geteuid(), (int)getuid());
  return 0;
}
