#!/usr/bin/env python3
"""Writes the symbolization benchmark's program: FILES C files of SITES/FILES
functions each, every function a distinct allocation site (a call whose
return address the benchmark symbolizes); one site in four sits inside an
always_inline helper, so inlined frames are resolved too.

    gen_sites.py OUTDIR SITES FILES
"""
import os
import sys

out, sites, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
per = sites // files
os.makedirs(out, exist_ok=True)
for f in range(files):
    with open(os.path.join(out, "sites%d.c" % f), "w") as c:
        c.write("#include <stdint.h>\n")
        c.write("void site_record(uintptr_t Pc);\n")
        c.write("__attribute__((noinline)) uintptr_t site_here(void);\n")
        c.write("static inline __attribute__((always_inline)) void "
                "helper%d(void) { site_record(site_here()); }\n" % f)
        for i in range(per):
            n = f * per + i
            body = ("helper%d();" % f) if i % 4 == 0 else "site_record(site_here());"
            c.write("__attribute__((noinline)) void site%d(void) { %s }\n" % (n, body))
        c.write("void run_sites%d(void) {\n" % f)
        for i in range(per):
            c.write("  site%d();\n" % (f * per + i))
        c.write("}\n")
with open(os.path.join(out, "sites_main.h"), "w") as h:
    for f in range(files):
        h.write("void run_sites%d(void);\n" % f)
    h.write("static void run_all_sites(void) {\n")
    for f in range(files):
        h.write("  run_sites%d();\n" % f)
    h.write("}\n")
