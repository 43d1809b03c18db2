#!/usr/bin/env python3
"""Writes docs/OPTIONS.md from runtime/core/control/Options.def, the one table of
options, and msrun's own few. Run with --check to fail when the checked-in
page is stale."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEF = os.path.join(ROOT, "runtime", "core", "control", "Options.def")
DOC = os.path.join(ROOT, "docs", "OPTIONS.md")

KINDS = ("BOOL|CORE_BOOL|INT|DOUBLE|ENUM|STRING|LIST|CORE_COUNT|CORE_INT|"
         "CORE_STRING|CORE_LIST|NATIVE_REFUSED|NATIVE_NOTE")
ROW = re.compile(r"^MASSIF_(" + KINDS + r")\((.*?)\)\s*$", re.S | re.M)

# msrun's own options, outside the option table.
MSRUN = [
    ("--engine=native\\|vex", "the engine: native for an mscc-built program, "
     "VEX (Valgrind's core with the project's tool) for any other or for "
     "`--pages-as-heap=yes`", "by the program"),
    ("--help, -h", "msrun's usage and this option list", ""),
    ("--version", "msrun's version, its LLVM and its plugin", ""),
]


def rows():
    text = open(DEF).read()
    # The rows follow the last of the default macro definitions.
    text = text.rsplit("#endif\n", 1)[-1]
    for kind, body in ROW.findall(text):
        args = [a.strip() for a in re.findall(r'\s*(?:"(?:[^"\\]|\\.)*"\s*)+|[^,]+', body)]
        args = [re.sub(r'"\s+"', "", a) for a in args]  # join adjacent literals
        args = [a.strip() for a in args if a.strip()]
        args = [a[1:-1] if a.startswith('"') and a.endswith('"') else a for a in args]
        yield kind, args


def describe(kind, a):
    name = a[0]
    if kind in ("BOOL", "CORE_BOOL"):
        return f"--{name}=no\\|yes", a[-1], {"true": "yes", "false": "no"}[a[2]]
    if kind in ("INT", "CORE_INT"):
        rng = "" if a[4] == "INT64_MAX" else f" ({a[3]}..{a[4]})"
        return f"--{name}=<n>", a[-1] + rng, a[2]
    if kind == "DOUBLE":
        rng = f" ({a[3]}..{a[4]})" if a[5] == "true" else ""
        return f"--{name}=<m.n>", a[-1] + rng, a[2]
    if kind == "ENUM":
        return f"--{name}={a[3].replace('|', chr(92) + '|')}", a[-1], a[2]
    if kind in ("STRING", "CORE_STRING"):
        return f"--{name}=<file>" if "file" in a[-1] or name.endswith("file") \
            else f"--{name}=<patterns>" if "skip" in name else f"--{name}=<name>", \
            a[-1], f"`{a[2]}`" if a[2] else "none"
    if kind == "CORE_COUNT":
        return f"-{a[0]}, --{a[1]}", a[-1] + " (repeatable)", ""
    if kind == "CORE_LIST":
        return f"--{name}=<string>", a[-1] + " (repeatable)", "none"
    return f"--{name}=<name>", a[-1] + " (repeatable)", "none"


def render():
    table = list(rows())
    refused = {a[0]: a[1] for k, a in table if k == "NATIVE_REFUSED"}
    notes = {a[0]: a[1] for k, a in table if k == "NATIVE_NOTE"}
    out = ["# Options", "",
           "Generated from `runtime/core/control/Options.def` by `scripts/gen-options-doc.py`;",
           "do not edit by hand. Every option has Valgrind's spelling, default and",
           "range: Massif's own, and the options of Valgrind's core that a Massif",
           "user passes. Give them on the `msrun` command line, as after",
           "`valgrind --tool=massif`, or in `MASSIF_OPTIONS` (blank-separated; a",
           "backslash escapes a blank inside a value). On VEX, Massif's options go",
           "to the project's tool and the core's to Valgrind's core, which does",
           "them itself; natively the runtime does each one, or refuses it with",
           "one line saying why and exit status 1 before the program runs.", "",
           "| option | meaning | default | native | VEX |", "|---|---|---|---|---|"]
    for kind, a in table:
        if kind in ("NATIVE_REFUSED", "NATIVE_NOTE"):
            continue
        spelling, meaning, default = describe(kind, a)
        name = a[1] if kind == "CORE_COUNT" else a[0]
        if name in refused:
            native = "refused: " + refused[name]
        else:
            native = "yes" + (": " + notes[name] if name in notes else "")
        vex = "Valgrind's core" if kind.startswith("CORE") else "the tool"
        out.append(f"| `{spelling}` | {meaning} | {default} | {native} | {vex} |")
    out += ["", "msrun's own options:", "",
            "| option | meaning | default |", "|---|---|---|"]
    for spelling, meaning, default in MSRUN:
        out.append(f"| `{spelling}` | {meaning} | {default} |")
    out += ["",
            "msrun also adds two words of its own to `MASSIF_OPTIONS` for the native",
            "runtime: `--msrun-pid=<pid>`, the process it started (any other process",
            "reading the options is a child of the profiled program, profiled only",
            "with `--trace-children=yes`), and with `--trace-children=yes`",
            "`--msrun-path=<file>`, itself, through which children are run."]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    text = render()
    if "--check" in sys.argv:
        if not os.path.exists(DOC) or open(DOC).read() != text:
            print("docs/OPTIONS.md is stale: run scripts/gen-options-doc.py")
            sys.exit(1)
        sys.exit(0)
    os.makedirs(os.path.dirname(DOC), exist_ok=True)
    open(DOC, "w").write(text)
