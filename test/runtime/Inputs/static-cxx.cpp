// A C++ program for static linking: containers, an exception, a thread.
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

int main() {
  std::map<std::string, std::vector<int>> M;
  for (int I = 0; I < 50; ++I)
    M[std::to_string(I) + "-key-long-enough-to-allocate"].resize(I + 1);
  try {
    throw std::runtime_error("boom");
  } catch (const std::exception &E) {
    std::printf("caught %s\n", E.what());
  }
  std::thread T([] { std::vector<int> V(1000); });
  T.join();
  std::printf("%zu keys\n", M.size());
  return 0;
}
