// The descent in a shared library (stacks-shared-library.test).
#define DESCEND_LINKAGE
#include "descend.inc"
