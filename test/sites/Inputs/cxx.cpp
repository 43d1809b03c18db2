// C++ allocations for compare_heaptrack.py: new and delete through
// inlined helpers, containers that grow, strings beyond their small
// buffer, objects kept to the end.
#include <map>
#include <memory>
#include <string>
#include <vector>

struct Node {
  int Value;
  std::string Name;
};

static std::vector<Node *> Kept;

static inline Node *make(int V) {
  return new Node{V, "a name long enough to leave the small buffer " +
                          std::to_string(V)};
}

__attribute__((noinline)) void churn(int N) {
  for (int I = 0; I < N; ++I) {
    Node *X = make(I);
    delete X;
  }
}

__attribute__((noinline)) void keep(int N) {
  for (int I = 0; I < N; ++I)
    Kept.push_back(make(I));
}

__attribute__((noinline)) int table(int N) {
  std::map<int, std::vector<int>> M;
  for (int I = 0; I < N; ++I)
    M[I % 17].push_back(I);
  return (int)M.size();
}

int main() {
  churn(50);
  keep(20);
  int Sum = table(300);
  std::unique_ptr<int[]> Buffer(new int[1000]);
  Buffer[0] = Sum;
  return Buffer[0] == 17 ? 0 : 1;
}
