// After fork the child keeps the profile it inherited and adds its own
// allocations; each process writes its own file at exit (%p is expanded
// then), and the parent's file knows nothing of the child's blocks.
// RUN: rm -rf %t && mkdir -p %t && cd %t
// RUN: %mscc -O0 %s -o prog
// RUN: env MASSIF_OPTIONS="--time-unit=B --threshold=0 --detailed-freq=1 --massif-out-file=out.%%q{WHO}" ./prog
// RUN: %python %S/Inputs/last-snapshot.py out.parent > parent
// RUN: %python %S/Inputs/last-snapshot.py out.child > child
// RUN: %FileCheck %s --check-prefixes=BOTH,PARENT < parent
// RUN: %FileCheck %s --check-prefixes=BOTH,CHILD < child
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void *keep[4];

int main(void) {
  setenv("WHO", "parent", 1);
  keep[0] = malloc(1000); // BOTH-DAG: {{^ }}n0: 1000 0x{{[0-9A-F]+}}: main ({{.*}}fork.c:[[@LINE]])
  pid_t Pid = fork();
  if (Pid == 0) {
    setenv("WHO", "child", 1);
    keep[1] = malloc(222); // CHILD-DAG: {{^ }}n0: 222 0x{{[0-9A-F]+}}: main ({{.*}}fork.c:[[@LINE]])
    free(malloc(1));
    return 0;
  }
  waitpid(Pid, NULL, 0);
  keep[2] = malloc(333); // PARENT-DAG: {{^ }}n0: 333 0x{{[0-9A-F]+}}: main ({{.*}}fork.c:[[@LINE]])
  free(malloc(1));
  return 0;
}
// PARENT-NOT: 222
// CHILD-NOT: 333
