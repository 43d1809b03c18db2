"""Runs PROG MODE for each MODE with core dumps allowed, each in a fresh
directory under the current one, and prints how it ended: the signal, and
whether the kernel reports a core dump."""
import os
import resource
import subprocess
import sys

prog = os.path.abspath(sys.argv[1])
for mode in sys.argv[2:]:
    os.makedirs(mode, exist_ok=True)

    def allow_core():
        resource.setrlimit(resource.RLIMIT_CORE,
                           (resource.RLIM_INFINITY, resource.RLIM_INFINITY))

    p = subprocess.Popen([prog, mode], cwd=mode, preexec_fn=allow_core,
                         stderr=subprocess.DEVNULL)
    _, status = os.waitpid(p.pid, 0)
    if os.WIFSIGNALED(status):
        print(f"{mode}: signal {os.WTERMSIG(status)} core {bool(os.WCOREDUMP(status))}")
    else:
        print(f"{mode}: exit {os.WEXITSTATUS(status)}")
