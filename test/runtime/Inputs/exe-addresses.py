"""Checks the code addresses a profile prints for the executable's own
frames against the executable file, as Valgrind prints them: a
position-independent executable is loaded at 0x108000 under Valgrind, so
each printed address less 0x108000 (nothing for a fixed-address one) must
be an address of the printed function in the file.

    exe-addresses.py PROFILE EXECUTABLE pie|fixed

Prints one line per distinct address checked; fails when there is none
or one names another function (addr2line -f -i lists the inline chain)."""
import re
import subprocess
import sys

PIE_BASE = 0x108000
LINE = re.compile(r"0x([0-9A-F]+): (\S+) \(")

profile, exe, kind = sys.argv[1:4]
base = PIE_BASE if kind == "pie" else 0
seen = {}
for line in open(profile):
    m = LINE.search(line)
    if not m:
        continue
    addr = int(m.group(1), 16)
    if addr >= 0x4000000:  # a shared library's, or a random base: not ours
        continue
    seen.setdefault(addr, set()).add(m.group(2))
if not seen:
    sys.exit("no address of the executable in " + profile)
ok = True
for addr, names in sorted(seen.items()):
    out = subprocess.run(["addr2line", "-f", "-i", "-e", exe, hex(addr - base)],
                         capture_output=True, text=True).stdout.split("\n")
    functions = set(out[0::2])
    good = names <= functions
    ok &= good
    print("%s 0x%X %s" % ("ok" if good else "BAD", addr, " ".join(sorted(names))))
sys.exit(0 if ok else 1)
