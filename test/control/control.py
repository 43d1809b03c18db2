#!/usr/bin/env python3
"""Runs phases.c's monitor commands three ways and compares the files.

    control.py MODE WORKDIR

MODE native: the mscc build asks itself (-DASK_ITSELF) for snapshot,
  detailed_snapshot and all_snapshots; the waiting build gets the same
  commands from ms_control while it runs; the files must be equal, and so
  must the programs' stdout and exit status (and a plain run's). Then the
  channel's refusals: wrong pid, a program without the runtime, a bad or
  ambiguous command, an unwritable file, another user (ms_control run as
  nobody; and root for nobody's program), a request planted by another
  user, a program that never reaches a safe point (timeout, cancelled).
MODE valgrind: the self-asking build natively and under Valgrind's Massif
  (plain clang -gdwarf-4 build): files equal, code addresses and dirs
  masked.
MODE vex: the waiting build under Valgrind's Massif and under msrun
  --engine=vex, the commands sent with vgdb: files, replies, exit status
  and stdout equal (masked); then the self-asking build on both.
MODE fork: fork.c's parent and child answer on channels of their own.
MODE xtmemory: xtmemory through ms_control vs Massif through vgdb, with
  --xtree-memory=none (the live blocks) and =full.

Tools come from the environment: CONTROL_MSCC, CONTROL_CLANG,
CONTROL_VALGRIND, CONTROL_MSRUN, CONTROL_MS_CONTROL, CONTROL_INCLUDE.
Exit status 0 when everything holds; 1 with the differences otherwise.
"""
import difflib
import mmap
import os
import re
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "phases.c")
ADDR = re.compile(r"0x[0-9A-F]+:")
FILES = ["snap.out", "det.out", "all.out"]
COMMANDS = [("snapshot", "snap.out"), ("detailed_snapshot", "det.out"),
            ("all_snapshots", "all.out")]
OPTS = ["--time-unit=B"]
FAILURES = []


def env(name):
    return os.environ["CONTROL_" + name]


def check(cond, what):
    if not cond:
        FAILURES.append(what)
    return cond


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    os.chmod(path, 0o777)  # the nobody runs write here too
    return path


def build(compiler, out, defines=(), extra=()):
    cmd = [compiler, "-gdwarf-4", "-g", "-O0", "-pthread", *extra, *defines,
           SRC, "-o", out]
    subprocess.run(cmd, check=True)


def read(path, mask_dir=None):
    with open(path) as f:
        text = f.read()
    text = ADDR.sub("0x........:", text)
    if mask_dir:
        text = text.replace(mask_dir, "<dir>")
    return text


def same(a, b, what, mask_a=None, mask_b=None):
    missing = [p for p in (a, b) if not os.path.exists(p)]
    if missing:
        FAILURES.append(f"{what}: no file {', '.join(missing)}")
        return False
    ta, tb = read(a, mask_a), read(b, mask_b)
    if ta != tb:
        diff = "".join(difflib.unified_diff(
            ta.splitlines(True), tb.splitlines(True), a, b))
        FAILURES.append(f"{what}: files differ\n{diff}")
        return False
    return True


def wait_for(path, seconds=60):
    end = time.time() + seconds
    while time.time() < end:
        if os.path.exists(path):
            return True
        time.sleep(0.02)
    return False


def start_waiting(cmd, cwd, env_extra=None, pre=()):
    e = dict(os.environ)
    e.update(env_extra or {})
    proc = subprocess.Popen([*pre, *cmd], cwd=cwd, env=e,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    if not wait_for(os.path.join(cwd, "ready")):
        proc.kill()
        sys.exit(f"control.py: {cmd} never became ready")
    with open(os.path.join(cwd, "ready")) as f:
        return proc, int(f.read())


def finish(proc, cwd):
    open(os.path.join(cwd, "go"), "w").close()
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


def ms_control(*args, pre=()):
    r = subprocess.run([*pre, env("MS_CONTROL"), *map(str, args)],
                       capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


def mode_native(work):
    mscc = env("MSCC")
    ask, wait = fresh(os.path.join(work, "ask")), fresh(
        os.path.join(work, "wait"))
    build(mscc, os.path.join(ask, "prog"), ["-DASK_ITSELF"])
    build(mscc, os.path.join(wait, "prog"))
    plain = fresh(os.path.join(work, "plain"))
    build(env("CLANG"), os.path.join(plain, "prog"), ["-DASK_ITSELF"],
          ["-I" + env("INCLUDE")])
    opts = {"MASSIF_OPTIONS": " ".join(OPTS + ["--massif-out-file=massif.out"])}

    a = subprocess.run(["./prog"], cwd=ask, capture_output=True, text=True,
                       env={**os.environ, **opts})
    p = subprocess.run(["./prog"], cwd=plain, capture_output=True, text=True)
    check(not any(os.path.exists(os.path.join(plain, f)) for f in FILES),
          "a plain build wrote files")
    check((p.returncode, p.stdout) == (7, "done, 0 interrupted\n"),
          f"plain run: {p.returncode} {p.stdout!r}")

    proc, pid = start_waiting(["./prog"], wait, opts)
    for cmd, f in COMMANDS:
        rc, out, err = ms_control(pid, cmd, f)
        check(rc == 0 and out == "" and err == "",
              f"ms_control {cmd}: {rc} {out!r} {err!r}")
    # Abbreviations, the default file, help.
    rc, out, err = ms_control(pid, "sn")
    check(rc == 0 and os.path.exists(os.path.join(wait, "massif.vgdb.out")),
          f"ms_control sn: {rc} {err!r}")
    rc, out, err = ms_control(pid, "help")
    check(rc == 0 and "massif monitor commands:" in out, f"help: {out!r}")
    # xtmemory's default name, expanded (%p, %n), and Valgrind's reply.
    rc, out, err = ms_control(pid, "xtm")
    xt = os.path.join(wait, f"xtmemory.kcg.{pid}.1")
    check(rc == 0 and out == f"=={pid}== xtree memory report: {xt}\n" and
          os.path.exists(xt) and
          open(xt).read().startswith("# callgrind format\n"),
          f"xtmemory: {rc} {out!r} {err!r}")
    # Refusals, one line each, non-zero.
    rc, out, err = ms_control(pid, "foo", "f")
    check(rc == 1 and err.startswith("ms_control: unknown command 'foo'") and
          err.count("\n") == 1 and out == "command 'foo f' not recognised\n"
          "In gdb,     try 'monitor help'\nIn a shell, try 'vgdb help'\n",
          f"bad command: {rc} {out!r} {err!r}")
    rc, out, err = ms_control(pid, "")
    check(rc == 1 and "ambiguous command" in err and out ==
          "<empty string> can match help snapshot detailed_snapshot "
          "all_snapshots xtmemory\n", f"empty command: {out!r} {err!r}")
    rc, out, err = ms_control(pid, "snapshot", "/nonexistent/x")
    check(rc == 1 and out == f"=={pid}== Error: can not open xtree output "
          "file `/nonexistent/x'\n", f"unwritable file: {rc} {out!r}")
    rc, out, err = ms_control("12x", "snapshot")
    check(rc == 1 and err == "ms_control: bad pid '12x'\n", f"bad pid: {err!r}")
    rc, out, err = ms_control(999999, "snapshot")
    check(rc == 1 and "no process with pid 999999" in err,
          f"no such pid: {err!r}")
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    rc, out, err = ms_control(pid, "snapshot", "/tmp/nobody.out", pre=nobody)
    check(rc == 1 and "refused" in err and err.count("\n") == 1 and
          not os.path.exists("/tmp/nobody.out"), f"as nobody: {err!r}")
    planted_ignored(pid, wait)
    code, out, err = finish(proc, wait)
    check(not os.path.exists(f"/tmp/massif-native-{os.getuid()}/{pid}.ctl"),
          "the channel's file outlived the program")
    check((code, out) == (a.returncode, a.stdout) == (7, "done, 0 interrupted\n"),
          f"exit/stdout: asked {(a.returncode, a.stdout)!r}, "
          f"controlled {(code, out)!r}")
    check(err == "" and a.stderr == "", f"stderr: {a.stderr!r} {err!r}")
    for f in FILES:
        same(os.path.join(ask, f), os.path.join(wait, f), "ask vs ms_control")
    same(os.path.join(ask, "snap.out"), os.path.join(wait, "massif.vgdb.out"),
         "snapshot vs sn (default file)")
    same(os.path.join(ask, "massif.out"), os.path.join(wait, "massif.out"),
         "final profile unchanged by the commands")

    # A program without the runtime; then the same with a channel file
    # left behind by a dead process of the same pid.
    sleeper = subprocess.Popen(["sleep", "30"])
    rc, out, err = ms_control(sleeper.pid, "snapshot")
    check(rc == 1 and "not an mscc-built program" in err,
          f"not mscc: {err!r}")
    stale = f"/tmp/massif-native-{os.getuid()}/{sleeper.pid}.ctl"
    with open(stale, "wb") as f:
        f.write(struct.pack("<iIi", 0, 0x4d534354, sleeper.pid).ljust(4096,
                                                                       b"\0"))
    os.chmod(stale, 0o600)
    start = time.time()
    rc, out, err = ms_control(sleeper.pid, "snapshot")
    os.unlink(stale)
    sleeper.kill()
    check(rc == 1 and "not an mscc-built program" in err and
          time.time() - start < 5, f"stale channel file: {err!r}")

    # Root for nobody's program: refused too.
    other = fresh(os.path.join(work, "other"))
    shutil.copy(os.path.join(wait, "prog"), other)
    proc, pid = start_waiting(["./prog"], other, opts, pre=nobody)
    rc, out, err = ms_control(pid, "snapshot", "x.out")
    check(rc == 1 and "belongs to uid 65534" in err and "refused" in err,
          f"root for nobody: {err!r}")
    code, out, err = finish(proc, other)
    check(code == 7 and not os.path.exists(os.path.join(other, "x.out")),
          f"nobody's program: {code} {err!r}")

    # Never at a safe point in time: cancelled, nothing written later.
    blocked = fresh(os.path.join(work, "blocked"))
    shutil.copy(os.path.join(wait, "prog"), blocked)
    proc, pid = start_waiting(["./prog", "block"], blocked, opts)
    rc, out, err = ms_control("--timeout=300", pid, "snapshot", "late.out")
    check(rc == 1 and "did not answer within 300 ms" in err and
          "enters the allocator" in err, f"timeout: {err!r}")
    code, out, err = finish(proc, blocked)
    check(code == 7 and out == "done, 0 interrupted\n" and
          not os.path.exists(os.path.join(blocked, "late.out")),
          f"after a cancelled command: {code} {out!r}")


def planted_ignored(pid, cwd):
    """A request owned by another user, in the user's directory, with the
    page's bit raised: the runtime must not run it."""
    d = f"/tmp/massif-native-{os.getuid()}"
    req = os.path.join(d, f"{pid}.req")
    with open(req, "w") as f:
        f.write("snapshot planted.out\n")
    os.chown(req, 65534, 65534)
    with open(os.path.join(d, f"{pid}.ctl"), "r+b") as f:
        page = mmap.mmap(f.fileno(), 4096)
        word = struct.unpack_from("<i", page, 0)[0]
        struct.pack_into("<i", page, 0, word | (1 << 16))
        page.close()
    wait_for_gone = time.time() + 30
    while os.path.exists(req) and time.time() < wait_for_gone:
        time.sleep(0.02)
    time.sleep(0.2)
    check(not os.path.exists(req) and
          not os.path.exists(os.path.join(cwd, "planted.out")) and
          not os.path.exists(os.path.join(d, f"{pid}.rep")),
          "a request planted by another user was run")


def mode_valgrind(work):
    ask, vg = fresh(os.path.join(work, "ask")), fresh(os.path.join(work, "vg"))
    build(env("MSCC"), os.path.join(ask, "prog"), ["-DASK_ITSELF"])
    build(env("CLANG"), os.path.join(vg, "prog"), ["-DASK_ITSELF"],
          ["-I" + env("INCLUDE")])
    a = subprocess.run(["./prog"], cwd=ask, capture_output=True, text=True,
                       env={**os.environ, "MASSIF_OPTIONS": " ".join(OPTS)})
    v = subprocess.run([env("VALGRIND"), "--tool=massif", *OPTS, "./prog"],
                       cwd=vg, capture_output=True, text=True)
    check((a.returncode, a.stdout) == (v.returncode, v.stdout) ==
          (7, "done, 0 interrupted\n"),
          f"exit/stdout: {(a.returncode, a.stdout)} {(v.returncode, v.stdout)}")
    for f in FILES:
        same(os.path.join(vg, f), os.path.join(ask, f), "Massif vs native",
             vg, ask)


def mode_vex(work):
    vg, vx = fresh(os.path.join(work, "vg")), fresh(os.path.join(work, "vex"))
    for d in (vg, vx):
        build(env("CLANG"), os.path.join(d, "prog"), [],
              ["-I" + env("INCLUDE")])
    runs = {}
    for d, cmd in ((vg, [env("VALGRIND"), "--tool=massif", *OPTS, "./prog"]),
                   (vx, [env("MSRUN"), "--engine=vex", *OPTS, "./prog"])):
        proc, pid = start_waiting(cmd, d)
        for c, f in COMMANDS:
            r = subprocess.run(["vgdb", f"--pid={pid}", c, f],
                               capture_output=True, text=True, timeout=60)
            check(r.returncode == 0, f"vgdb {c} in {d}: {r.stderr!r}")
        r = subprocess.run(["vgdb", f"--pid={pid}", "help"],
                           capture_output=True, text=True, timeout=60)
        runs[d] = [r.stdout]
        r = subprocess.run(["vgdb", f"--pid={pid}", "sn", "/nonexistent/x"],
                           capture_output=True, text=True, timeout=60)
        runs[d].append(r.stdout.replace(str(pid), "PID"))
        runs[d].extend(finish(proc, d)[:2])
    check(runs[vg] == runs[vx], f"vgdb replies/exit/stdout: {runs[vg]!r} "
          f"vs {runs[vx]!r}")
    for f in FILES:
        same(os.path.join(vg, f), os.path.join(vx, f), "Massif vs VEX", vg, vx)

    # The program's own requests, on both.
    vg, vx = fresh(os.path.join(work, "vg-ask")), fresh(
        os.path.join(work, "vex-ask"))
    outs = []
    for d, tool in ((vg, [env("VALGRIND"), "--tool=massif"]),
                    (vx, [env("MSRUN"), "--engine=vex"])):
        build(env("CLANG"), os.path.join(d, "prog"), ["-DASK_ITSELF"],
              ["-I" + env("INCLUDE")])
        r = subprocess.run([*tool, *OPTS, "./prog"], cwd=d,
                           capture_output=True, text=True)
        outs.append((r.returncode, r.stdout))
    check(outs[0] == outs[1] == (7, "done, 0 interrupted\n"),
          f"asking itself, exit/stdout: {outs!r}")
    for f in FILES:
        same(os.path.join(vg, f), os.path.join(vx, f),
             "Massif vs VEX, asked by the program", vg, vx)


def mode_fork(work):
    """fork.c: parent and child each answer on their own channel, each
    with its own heap; the child's end removes only its own channel."""
    d = fresh(os.path.join(work, "fork"))
    subprocess.run([env("MSCC"), "-g", "-O0", os.path.join(HERE, "fork.c"),
                    "-o", os.path.join(d, "prog")], check=True)
    proc = subprocess.Popen(["./prog"], cwd=d, env={
        **os.environ, "MASSIF_OPTIONS": "--time-unit=B"})
    pids = {}
    for role in ("parent", "child"):
        path = os.path.join(d, "ready." + role)
        if not wait_for(path):
            proc.kill()
            sys.exit(f"control.py: the {role} never became ready")
        with open(path) as f:
            pids[role] = int(f.read())
    for role in ("child", "parent"):
        rc, out, err = ms_control(pids[role], "snapshot", role + ".out")
        check(rc == 0, f"{role}: {rc} {err!r}")
    heap = {r: re.search(r"mem_heap_B=(\d+)", read(os.path.join(d, r + ".out")))
            for r in ("parent", "child")}
    check(heap["parent"] and heap["parent"].group(1) == "4000" and
          heap["child"] and heap["child"].group(1) == "3000",
          f"heaps: {[(r, m and m.group(1)) for r, m in heap.items()]}")
    open(os.path.join(d, "go.child"), "w").close()
    ctl = f"/tmp/massif-native-{os.getuid()}/%d.ctl"
    end = time.time() + 30
    while os.path.exists(ctl % pids["child"]) and time.time() < end:
        time.sleep(0.02)
    check(not os.path.exists(ctl % pids["child"]), "the child's channel stayed")
    rc, out, err = ms_control(pids["parent"], "snapshot", "parent2.out")
    check(rc == 0, f"parent after the child's end: {rc} {err!r}")
    open(os.path.join(d, "go.parent"), "w").close()
    check(proc.wait(timeout=60) == 0, "fork.c failed")
    check(not os.path.exists(ctl % pids["parent"]),
          "the parent's channel stayed")


def xtree_records(path):
    """A callgrind-format xtree report as its records, names spelled out
    (string compression undone), sorted: what it says, in any order."""
    names, records, cur = {}, [], []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^(fl|fn|cfi|cfn)=\((\d+)\)(?: (.*))?$", line)
            if m:
                kind = "fl" if m.group(1) in ("fl", "cfi") else "fn"
                key = (kind, m.group(2))
                if m.group(3) is not None:
                    names[key] = m.group(3)
                line = f"{m.group(1)}={names.get(key, '?')}"
            if line == "":
                if cur:
                    records.append("\n".join(cur))
                cur = []
            elif not line.startswith(("pid:", "totals:")) and \
                    "=" in line or line[:1].isdigit():
                cur.append(line)
    return sorted(records)


def mode_xtmemory(work):
    """The xtmemory file ms_control has written (native) and vgdb has
    (msrun --engine=vex) equal Massif's under vgdb, with the default
    --xtree-memory=none (the live blocks) and with =full; every reply is
    the "xtree memory report: <path>" line.

    The row order of a report of the live blocks is the order of Massif's
    block table, by the address Valgrind gave each block. The native engine
    models those addresses, but not the program's own mappings, which move
    Valgrind's heap: a thread's stack mapped before the first blocks does.
    So the program runs twice: built with -DONE_THREAD (no thread) every
    file must be equal; with its thread the native report of the live
    blocks must hold the same records, in any order (VEX, which knows
    Valgrind's addresses, is still compared whole)."""
    for one_thread in (True, False):
        for extra in ([], ["--xtree-memory=full"]):
            opts = OPTS + extra
            tag = ("full" if extra else "none") + \
                ("-1thread" if one_thread else "-2threads")
            defines = ["-DONE_THREAD"] if one_thread else []
            nat, vg, vx = (fresh(os.path.join(work, f"{k}-{tag}"))
                           for k in ("native", "vg", "vex"))
            build(env("MSCC"), os.path.join(nat, "prog"), defines)
            for d in (vg, vx):
                build(env("CLANG"), os.path.join(d, "prog"), defines,
                      ["-I" + env("INCLUDE")])
            proc, pid = start_waiting(["./prog"], nat,
                                      {"MASSIF_OPTIONS": " ".join(opts)})
            rc, out, err = ms_control(pid, "xtmemory", "x.kcg")
            check(rc == 0 and out == f"=={pid}== xtree memory report: "
                  f"{os.path.join(nat, 'x.kcg')}\n", f"native reply: {out!r}")
            finish(proc, nat)
            for d, tool in ((vg, [env("VALGRIND"), "--tool=massif"]),
                            (vx, [env("MSRUN"), "--engine=vex"])):
                proc, pid = start_waiting([*tool, *opts, "./prog"], d)
                r = subprocess.run(["vgdb", f"--pid={pid}", "xtmemory",
                                    "x.kcg"], capture_output=True, text=True,
                                   timeout=60)
                check(r.stdout == f"=={pid}== xtree memory report: "
                      f"{os.path.join(d, 'x.kcg')}\n",
                      f"vgdb reply: {r.stdout!r}")
                finish(proc, d)
            for d in (vg, nat, vx):
                path = os.path.join(d, "x.kcg")
                if os.path.exists(path):
                    with open(path) as f:
                        text = re.sub(r"^pid: \d+$", "pid: PID", f.read(),
                                      flags=re.M)
                    with open(path, "w") as f:
                        f.write(text.replace(d, "<dir>"))
            same(os.path.join(vg, "x.kcg"), os.path.join(vx, "x.kcg"),
                 f"xtmemory ({tag}): Massif vs VEX")
            if one_thread or extra:
                same(os.path.join(vg, "x.kcg"), os.path.join(nat, "x.kcg"),
                     f"xtmemory ({tag}): Massif vs ms_control")
            elif os.path.exists(os.path.join(nat, "x.kcg")):
                check(xtree_records(os.path.join(vg, "x.kcg")) ==
                      xtree_records(os.path.join(nat, "x.kcg")),
                      f"xtmemory ({tag}): Massif's records vs ms_control's")


def main():
    mode, work = sys.argv[1], os.path.abspath(sys.argv[2])
    fresh(work)
    {"native": mode_native, "valgrind": mode_valgrind, "vex": mode_vex,
     "fork": mode_fork, "xtmemory": mode_xtmemory}[mode](work)
    if FAILURES:
        print("\n".join(FAILURES))
        return 1
    print(f"control.py {mode}: all equal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
