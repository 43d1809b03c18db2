// Templates, inlining and vectors: the C++ case of the instruction-count
// comparison.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main() {
  std::vector<unsigned> V;
  unsigned X = 12345;
  for (int I = 0; I < 60000; I++) {
    X = X * 1103515245u + 12345u;
    V.push_back(X >> 8);
  }
  std::sort(V.begin(), V.end());
  unsigned long S = 0;
  for (unsigned E : V)
    S += E & 0xff;
  std::printf("%lu\n", S);
  void *volatile Marker = std::malloc(4242); // both profilers time this
  std::free(Marker);
  return 0;
}
