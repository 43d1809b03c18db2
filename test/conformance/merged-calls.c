// Call sites that code generation merges or places: with the counters in
// their layout form, the optimised build names and orders them as the
// plain build does under Valgrind.
//
// append: the two calls of grow end alike (a call, a test, a branch to the
// same two places) once the empty block between the first one and the
// loop is gone, and the machine-level tail merging makes them one call,
// whose line is 0 (it stands for two): "append (merged-calls.c:0)". The
// default counters keep that block (its count) and end the two blocks
// differently (a flush of another value, a zero for the loop's phi), so
// the calls stay two, at their own lines.
//
// run: three sites of store allocate 64 bytes each, so Massif orders them
// by code address. Block placement puts the switch's cases in another
// order when the counters' phis have split edges into blocks of their own
// (and two of the calls are one, line 0, as above).
//
// The default form differs on both; the layout form gives Valgrind's
// report (docs/DESIGN-pass.md, "Layout form").
// RUN: env MSCC_COUNTERS=layout %conform --cflags=-O2 %s %t -- --time-unit=B --detailed-freq=1 --threshold=0
// RUN: FileCheck %s --input-file=%t/report.txt
// CHECK: append ({{.*}}merged-calls.c:0)
// The last snapshot: case 2's call, case 3's, then the merged one of 1 and 5.
// CHECK: (192B) 0x{{.*}}: store (
// CHECK-NEXT: (64B) 0x{{.*}}: run ({{.*}}merged-calls.c:{{[1-9][0-9]*}})
// CHECK: (64B) 0x{{.*}}: run ({{.*}}merged-calls.c:{{[1-9][0-9]*}})
// CHECK: (64B) 0x{{.*}}: run ({{.*}}merged-calls.c:0)
#include <stdlib.h>
#include <string.h>

struct pool {
  char *ptr, *end, *start;
  int (*convert)(struct pool *, const char **, const char *);
  int failed;
};

__attribute__((noinline)) static int grow(struct pool *p) {
  size_t used = p->ptr ? (size_t)(p->ptr - p->start) : 0;
  size_t size = p->start ? (size_t)(p->end - p->start) * 2 : 16;
  char *n = malloc(size);
  if (!n)
    return 0;
  if (p->start)
    memcpy(n, p->start, used);
  p->start = n;
  p->ptr = n + used;
  p->end = n + size;
  return 1;
}

__attribute__((noinline)) void append(struct pool *pool, const char **s,
                                      const char *end) {
  if (!pool->ptr && !grow(pool)) {
    pool->failed = 1;
    return;
  }
  for (;;) {
    int r = pool->convert(pool, s, end);
    if (r == 0 || r == 1)
      break;
    if (!grow(pool)) {
      pool->failed = 1;
      return;
    }
  }
}

static int copy(struct pool *p, const char **s, const char *end) {
  while (*s < end && p->ptr < p->end)
    *p->ptr++ = *(*s)++;
  return *s == end ? 0 : 2;
}

struct state {
  void **slots;
  int n, depth, flags;
  void (*handler)(struct state *, int);
};

__attribute__((noinline)) static int store(struct state *st, int tag) {
  st->slots[st->n++] = malloc(64);
  return st->n > 1000 ? tag : 0;
}

static void note(struct state *st, int k) { st->flags += k; }

__attribute__((noinline)) int run(struct state *st, const int *toks) {
  for (;;) {
    int t = *toks++;
    switch (t) {
    case 0:
      return 0;
    case 1: {
      int d = st->depth + 1;
      st->depth = d;
      int r = store(st, d);
      if (r) {
        st->depth = 0;
        return r;
      }
      break;
    }
    case 2: {
      int r = store(st, 2);
      if (r)
        return r;
      if (st->handler)
        st->handler(st, 2);
      break;
    }
    case 3: {
      int r = store(st, 3);
      if (r)
        return r;
      st->flags++;
      break;
    }
    case 4:
      st->flags ^= 4;
      if (st->flags & 4)
        st->handler(st, 4);
      break;
    case 5: {
      int d = st->depth + 5;
      st->depth = d;
      int r = store(st, d);
      if (r) {
        st->depth = 0;
        return r;
      }
      break;
    }
    default:
      st->flags |= t;
      break;
    }
  }
}

int main(void) {
  struct pool p = {0, 0, 0, copy, 0};
  const char *s = "a name longer than the sixteen bytes of a first block";
  append(&p, &s, s + strlen(s));

  static void *slots[8];
  struct state st = {slots, 0, 0, 0, note};
  static const int toks[] = {2, 3, 1, 4, 0};
  return run(&st, toks) + p.failed;
}
