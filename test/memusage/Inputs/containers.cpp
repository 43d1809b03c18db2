// What a C++ program allocates: containers growing and shrinking, strings,
// a map, exceptions thrown and caught (their objects come from malloc),
// and iostream output. Built with -O2, as real projects are.
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

std::vector<std::string> words(int Count) {
  std::vector<std::string> Out;
  for (int I = 0; I < Count; ++I)
    Out.push_back("word number " + std::to_string(I * 7919) +
                  std::string(I % 40, 'x'));
  return Out;
}

int parse(const std::string &Text) {
  if (Text.empty())
    throw std::invalid_argument("empty text cannot be parsed");
  return static_cast<int>(Text.size());
}

} // namespace

int main() {
  std::map<std::string, std::vector<int>> Index;
  for (const std::string &W : words(300))
    Index[W.substr(0, 14)].push_back(static_cast<int>(W.size()));
  std::vector<std::unique_ptr<int[]>> Blocks;
  for (int I = 1; I < 50; ++I)
    Blocks.emplace_back(new int[I * 37]());
  Blocks.resize(10);
  Blocks.shrink_to_fit();
  int Failures = 0;
  for (int I = 0; I < 5; ++I) {
    try {
      parse(I % 2 ? "" : "ok");
    } catch (const std::exception &E) {
      ++Failures;
    }
  }
  std::cout << Index.size() << " keys, " << Failures << " failures\n";
  return Failures == 2 ? 0 : 1;
}
