#!/usr/bin/env python3
"""Writes a C unit whose line program is far over 64 KiB, so that the
runtime answers its addresses from its LineIndex, not libdw's table.

usage: gen-large-unit.py OUT.c

Thousands of small functions come first; the last allocates through an
inlined helper of a header. The lines the profile must print are written
to OUT.c.lines, one per frame: "helper LINE", "deepest LINE", "main LINE".
"""
import os
import sys

out = sys.argv[1]
header = os.path.join(os.path.dirname(out), "large-unit.h")
with open(header, "w") as h:
    h.write("#include <stdlib.h>\n"
            "static inline __attribute__((always_inline)) void *helper(size_t n) {\n"
            "  return malloc(n * 3);\n"  # line 3 of the header
            "}\n")
lines = ['#include "large-unit.h"', "volatile int Sink;"]
for i in range(4000):
    lines += ["__attribute__((noinline)) int f%d(int x) {" % i,
              "  int y = x * %d + Sink;" % (i + 3),
              "  if (y & 1)",
              "    y += %d;" % i,
              "  return y ^ (x >> 2);",
              "}"]
lines += ["void *Kept;",
          "__attribute__((noinline)) void deepest(int n) {",
          "  Kept = helper((size_t)n);"]
deepest_line = len(lines)
lines += ["  Sink = f3999(n);", "}", "int main(void) {", "  deepest(1000);"]
main_line = len(lines)
lines += ["  return f0(Sink) & 0;", "}"]
with open(out, "w") as f:
    f.write("\n".join(lines) + "\n")
with open(out + ".lines", "w") as f:
    f.write("helper 3\ndeepest %d\nmain %d\n" % (deepest_line, main_line))
