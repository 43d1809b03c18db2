"""Rejects FileCheck directives that FileCheck would silently ignore.

A directive is a line (optionally after a comment marker) that starts with
a check prefix, in any letter case, followed by an optional suffix and a
colon. It is wrong when the prefix's case differs from the declared one or
the suffix is not one FileCheck knows.
"""
import os
import re
import sys

KNOWN = {"", "-NEXT", "-NOT", "-LABEL", "-SAME", "-DAG", "-EMPTY", "-COUNT"}
TOKEN = re.compile(r"^\s*(?:(?://|;|#)\s*)?([A-Za-z][\w-]*):")


def check_token(token, prefixes):
    """Returns None if token is not directive-like, else True if valid."""
    upper = token.upper()
    for p in sorted(prefixes, key=len, reverse=True):
        if upper == p.upper() or upper.startswith(p.upper() + "-"):
            suffix = token[len(p):]
            base = re.sub(r"-\d+$", "", suffix)
            return token.startswith(p) and base in KNOWN
    return None


def scan(root):
    bad = []
    for dirpath, _, files in os.walk(root):
        for name in files:
            if not name.endswith((".c", ".cpp", ".ll", ".test")):
                continue
            path = os.path.join(dirpath, name)
            with open(path, errors="replace") as f:
                text = f.read()
            prefixes = {"CHECK"}
            for m in re.finditer(r"--check-prefix(?:es)?[= ]([\w,-]+)", text):
                prefixes.update(m.group(1).split(","))
            for lineno, line in enumerate(text.splitlines(), 1):
                m = TOKEN.match(line)
                if m and check_token(m.group(1), prefixes) is False:
                    bad.append(f"{path}:{lineno}: {line.strip()}")
    return bad


if __name__ == "__main__":
    problems = scan(sys.argv[1])
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)
