//===- Sort.h - An in-place sort without the standard library ---*- C++ -*-===//
//
// Part of massif-native, under the MIT licence.
//
// Heap sort: O(n log n), no extra memory, not stable. The writer only sorts
// by keys that are unique (or whose equal elements print identically).
//
//===----------------------------------------------------------------------===//

#ifndef MASSIF_CORE_SORT_H
#define MASSIF_CORE_SORT_H

#include <stddef.h>

namespace massif {

/// Sorts Items[0..N) so that Less(Items[I], Items[I+1]) or they are equal.
template <typename T, typename LessFn>
void heapSort(T *Items, size_t N, const LessFn &Less) {
  auto SiftDown = [&](size_t Root, size_t End) {
    for (;;) {
      size_t Child = 2 * Root + 1;
      if (Child >= End)
        return;
      if (Child + 1 < End && Less(Items[Child], Items[Child + 1]))
        ++Child;
      if (!Less(Items[Root], Items[Child]))
        return;
      T Tmp = Items[Root];
      Items[Root] = Items[Child];
      Items[Child] = Tmp;
      Root = Child;
    }
  };
  if (N < 2)
    return;
  for (size_t I = N / 2; I-- > 0;)
    SiftDown(I, N);
  for (size_t End = N - 1; End > 0; --End) {
    T Tmp = Items[0];
    Items[0] = Items[End];
    Items[End] = Tmp;
    SiftDown(0, End);
  }
}

} // namespace massif

#endif // MASSIF_CORE_SORT_H
