#include <stdlib.h>

void *make_words(int n); /* words.cpp */

static void *table(void) { return malloc(4000); }

int main(void) {
  void *volatile t = table();
  void *volatile w = make_words(10);
  (void)t;
  (void)w;
  return 0;
}
