// C++ allocation through new, new[], std::vector and std::map, so trees
// carry long demangled names (templates, namespaces, operator new).
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace shapes {
template <typename T> struct Grid {
  std::vector<std::vector<T>> Rows;
  explicit Grid(size_t N) : Rows(N, std::vector<T>(N)) {}
};
} // namespace shapes

int main() {
  std::vector<std::unique_ptr<shapes::Grid<double>>> Grids;
  for (int I = 1; I <= 6; ++I)
    Grids.push_back(std::make_unique<shapes::Grid<double>>(I * 20));
  std::map<std::string, std::vector<int>> Index;
  for (int I = 0; I < 200; ++I)
    Index["key-" + std::to_string(I)].resize(I + 1);
  int *Raw = new int[5000];
  Raw[0] = 1;
  Grids.erase(Grids.begin(), Grids.begin() + 3);
  delete[] Raw;
  return 0;
}
