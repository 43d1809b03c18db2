#include "comdat.h"
#include <cstdio>

int fromA(int N) { return descend(N); }

int main() {
  std::printf("%d %d\n", fromA(100), fromB(50));
  return 0;
}
