#include "comdat.h"

int fromB(int N) { return descend(N); }
