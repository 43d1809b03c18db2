"""Runs stall.c with the symbolizer killed, stopped for good, or stopped for
a while (slow), and checks that the program ends as it would have, when it
would have, with its profile written.

usage: symbolizer-stall.py PROG MS_PRINT MODE TIMEOUT_S
MODE: none, kill, stop, slow (stopped for half of TIMEOUT_S).

The program allocates through its --alloc-fn, which starts the symbolizer
(the model names every new stack's frames), says "ready" and waits for a
line. Then the symbolizer is found among the run's processes (its session)
and treated as MODE says, the line is sent, and the program allocates at
new sites, whose names it asks for, and exits with status 7.
"""
import os
import signal
import subprocess
import sys
import threading
import time

prog, ms_print, mode, timeout_s = sys.argv[1:5]
timeout_s = float(timeout_s)


def session_symbolizers(sid):
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
            with open("/proc/%s/cmdline" % name, "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if int(fields[3]) == sid and cmd.startswith(b"massif-symbolizer"):
            found.append(int(name))
    return found


env = dict(os.environ,
           MASSIF_OPTIONS="--time-unit=B --alloc-fn=makeBlock "
                          "--massif-out-file=massif.out." + mode,
           MASSIF_SYMBOLIZER_TIMEOUT=str(timeout_s))
p = subprocess.Popen([prog], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, env=env, start_new_session=True)
assert p.stdout.readline() == b"ready\n", "the program did not start"
symbolizers = session_symbolizers(p.pid)
if len(symbolizers) != 1:
    sys.exit("want one symbolizer in the run, found %s" % symbolizers)
sym = symbolizers[0]
if mode == "kill":
    os.kill(sym, signal.SIGKILL)
elif mode in ("stop", "slow"):
    os.kill(sym, signal.SIGSTOP)
if mode == "slow":
    threading.Timer(timeout_s / 2, os.kill, (sym, signal.SIGCONT)).start()
start = time.monotonic()
out, err = p.communicate(b"go\n", timeout=timeout_s + 30)
elapsed = time.monotonic() - start
err = err.decode()
print("status %d" % p.returncode)
print("stdout: %s" % out.decode().strip())
for line in err.splitlines():
    print("stderr: %s" % line)
# How long the program waited, in units of the bound: under one when the
# symbolizer answered or was gone; one when it was waited for in vain.
print("waited %s the bound" % ("under" if elapsed < timeout_s * 0.95 else
                               "about" if elapsed < timeout_s + 5 else
                               "over"))
deadline = time.monotonic() + 5
while session_symbolizers(p.pid) and time.monotonic() < deadline:
    time.sleep(0.05)
print("symbolizers left: %d" % len(session_symbolizers(p.pid)))
report = subprocess.run([ms_print, "massif.out." + mode], capture_output=True,
                        text=True, check=True).stdout
for site in ("first", "second", "third"):
    named = any(" %s (" % site in l for l in report.splitlines())
    print("%s: %s" % (site, "named" if named else "not named"))
