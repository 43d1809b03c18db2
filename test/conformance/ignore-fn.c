// --ignore-fn, including blocks moved between ignored and counted
// functions by realloc (Massif's exact rules, phantom bytes included).
// RUN: %conform %s %t.none -- --time-unit=B --detailed-freq=1
// RUN: %conform %s %t.ign -- --time-unit=B --detailed-freq=1 --ignore-fn=ignored_alloc
// RUN: %conform %s %t.both -- --time-unit=B --detailed-freq=1 --ignore-fn=ignored_alloc --ignore-fn=ignored_realloc
#include <stdlib.h>

void *ignored_alloc(size_t n) { return malloc(n); }
void *ignored_realloc(void *p, size_t n) { return realloc(p, n); }
void *counted(size_t n) { return malloc(n); }

int main(void) {
  void *a = ignored_alloc(400);
  void *b = counted(100);
  a = realloc(a, 800);       // ignored block realloc'ed from main
  void *c = malloc(32);
  b = ignored_realloc(b, 50); // counted block realloc'ed in an ignored fn
  void *d = ignored_alloc(64);
  free(d);
  free(c);
  free(b);
  free(a);
  return 0;
}
