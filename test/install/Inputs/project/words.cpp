#include <string>
#include <vector>

extern "C" void *make_words(int n) {
  auto *v = new std::vector<std::string>;
  for (int i = 0; i < n; ++i)
    v->push_back(std::string(100, 'a' + i));
  return v;
}
