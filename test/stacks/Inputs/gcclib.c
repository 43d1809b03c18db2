// A library as a distribution ships it: gcc -O2, no frame pointers. It
// allocates itself (malloc, strdup, a static helper gcc may inline) and
// calls back into the instrumented program, which allocates in turn.
#include <stdlib.h>
#include <string.h>

typedef void *(*gl_callback)(int);

struct gl_node {
  struct gl_node *next;
  char *name;
  void *payload;
};

static struct gl_node *gl_head;

static char *gl_copy_name(const char *s, int i) {
  char *c = strdup(s);
  c[0] = (char)('a' + i % 26);
  return c;
}

// A wrapper the program names with --alloc-fn.
void *gl_wrapper(size_t n) { return malloc(n); }

__attribute__((noinline)) static void gl_visit(gl_callback cb, int i) {
  struct gl_node *x = malloc(sizeof *x);
  x->name = gl_copy_name("payload", i);
  x->payload = cb(16 * (i + 1));
  x->next = gl_head;
  gl_head = x;
}

void gl_collect(gl_callback cb, int n) {
  for (int i = 0; i < n; i++)
    gl_visit(cb, i);
}

int gl_sorts;

// libc's qsort between the library and the program's comparator (not a
// tail call, so that gl_sort keeps its frame).
void gl_sort(int *v, int n, int (*cmp)(const void *, const void *)) {
  qsort(v, (size_t)n, sizeof *v, cmp);
  gl_sorts++;
}

void gl_release(void) {
  while (gl_head) {
    struct gl_node *x = gl_head;
    gl_head = x->next;
    free(x->name);
    free(x);
  }
}
