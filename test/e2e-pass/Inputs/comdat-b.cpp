#include "comdat.h"

int fromB(int N) { return descendInline(N); }
