// C++ allocation sites whose names hold templates, namespaces, operators
// and parentheses, for the JSON export's frame fields.
#include <cstddef>
#include <vector>

namespace pool {
template <typename T> struct Arena {
  std::vector<T *> Blocks;
  T *grow(std::size_t N) {
    Blocks.push_back(new T[N]);
    return Blocks.back();
  }
  T *operator()(std::size_t N) { return grow(N); }
  ~Arena() {
    for (T *B : Blocks)
      delete[] B;
  }
};
} // namespace pool

namespace {
long *anonymous(pool::Arena<long> &A) { return A(4000); }
} // namespace

int main() {
  pool::Arena<char> Chars;
  pool::Arena<long> Longs;
  for (int I = 0; I < 20; ++I) {
    Chars.grow(1000 + 100 * std::size_t(I));
    anonymous(Longs);
  }
  return 0;
}
