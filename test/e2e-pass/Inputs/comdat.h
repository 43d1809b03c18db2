// The descent as an inline function, a comdat group in each unit that uses
// it: the linker keeps one copy, and the probes' entries of the others go
// with them (stacks-comdat.test).
#define DESCEND_LINKAGE inline
#include "descend.inc"

int fromA(int N);
int fromB(int N);
