#!/usr/bin/env python3
"""Takes ms_print's HTML page apart, for html-cli.test.

    page_parts.py PAGE.html EXPORT.json

Prints what the page is made of: the doctype, the profile element (and
whether its text is byte for byte the JSON export), the script elements,
any reference to something outside the page (src=, href=, url(), @import,
http:, https:, //host) outside the profile's data, and the content
security policy.
"""
import re
import sys


def main():
    page = open(sys.argv[1], "rb").read().decode("utf-8")
    export = open(sys.argv[2], "rb").read().decode("utf-8")
    print("doctype: %s" % ("yes" if page.startswith("<!DOCTYPE html>") else "no"))
    opening = '<script type="application/json" id="profile">'
    count = page.count(opening)
    start = page.find(opening) + len(opening)
    end = page.find("</script>", start)
    data = page[start:end]
    same = data.strip("\n") == export.strip("\n")
    print("profile element: %d, its text %s the JSON export"
          % (count, "is" if same else "is NOT"))
    scripts = len(re.findall(r"<script\b", page, re.I))
    closes = len(re.findall(r"</script", page, re.I))
    print("script elements: %d%s" % (
        scripts, " (the profile and the page's script)"
        if scripts == closes == 2 else " (%d closed)" % closes))
    rest = page[:start] + page[end:]
    refs = re.findall(r"""\b(?:src|href)\s*=|url\(|@import|https?:|["'(]//\w""",
                      rest, re.I)
    print("external references: %s" % (", ".join(refs) if refs else "none"))
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^;"]*)', rest)
    print("content security policy: %s" % (csp.group(1) if csp else "none"))


if __name__ == "__main__":
    main()
