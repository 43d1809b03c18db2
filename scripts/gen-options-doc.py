#!/usr/bin/env python3
"""Writes docs/OPTIONS.md from runtime/core/Options.def, the one table of
options. Run with --check to fail when the checked-in page is stale."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEF = os.path.join(ROOT, "runtime", "core", "Options.def")
DOC = os.path.join(ROOT, "docs", "OPTIONS.md")

ROW = re.compile(r"^MASSIF_(BOOL|CORE_BOOL|INT|DOUBLE|ENUM|STRING|LIST|CORE_LIST)\((.*?)\)\s*$", re.S | re.M)


def rows():
    text = open(DEF).read()
    # The rows follow the last of the default macro definitions.
    text = text.rsplit("#endif\n", 1)[-1]
    for kind, body in ROW.findall(text):
        args = [a.strip() for a in re.findall(r'\s*(?:"(?:[^"\\]|\\.)*"\s*)+|[^,]+', body)]
        args = [re.sub(r'"\s*"', "", a) for a in args]  # join adjacent literals
        args = [a.strip().strip('"') for a in args if a.strip()]
        yield kind, args


def describe(kind, a):
    name = a[0]
    if kind in ("BOOL", "CORE_BOOL"):
        return f"--{name}=no\\|yes", a[-1], {"true": "yes", "false": "no"}[a[2]]
    if kind == "INT":
        return f"--{name}=<n>", f"{a[-1]} ({a[3]}..{a[4]})", a[2]
    if kind == "DOUBLE":
        rng = f" ({a[3]}..{a[4]})" if a[5] == "true" else ""
        return f"--{name}=<m.n>", a[-1] + rng, a[2]
    if kind == "ENUM":
        return f"--{name}={a[3].replace('|', chr(92) + '|')}", a[-1], a[2]
    if kind == "STRING":
        return f"--{name}=<file>", a[-1], f"`{a[2]}`"
    if kind == "CORE_LIST":
        return f"--{name}=<string>", a[-1] + " (repeatable)", "none"
    return f"--{name}=<name>", a[-1] + " (repeatable)", "none"


def render():
    out = ["# Options", "",
           "Generated from `runtime/core/Options.def` by `scripts/gen-options-doc.py`;",
           "do not edit by hand. Every option has Massif's spelling, default and range.",
           "Give them in `MASSIF_OPTIONS` (blank-separated; a backslash escapes a",
           "blank inside a value) or on the `msrun` command line. Both engines",
           "(native and VEX) take all of them; `--pages-as-heap=yes` needs VEX.",
           "`msrun` itself also takes `--engine=native|vex` (`docs/USER-GUIDE.md`).", "",
           "| option | meaning | default |", "|---|---|---|"]
    for kind, a in rows():
        spelling, meaning, default = describe(kind, a)
        out.append(f"| `{spelling}` | {meaning} | {default} |".replace("`--", "`--", 1))
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
