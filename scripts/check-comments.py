#!/usr/bin/env python3
"""Comments that cannot go stale: every lc_*/LC_* identifier a comment of
the tool's sources names must be one the tree's code defines or uses.

A name followed by ".h", ".c" or ".so" is a file and is not checked; a
name ending in "_*" or "*" (lc_opt_*) stands for every name with that
prefix and needs one.  Prints each stale name with its file and line and
exits 1; exits 0 when there is none.  Run from the top of the tree, or
give the top as the one argument.
"""
import os
import re
import sys

DIRS = ["flaglib", "util", "profile", "sampler", "postproc", "kmod-free-tools",
        "cli", "tests", "bench", "examples"]
NAME = re.compile(r"\b((?:lc|LC)_[A-Za-z0-9_]*)(\*?)")
# lc_cmd_NAME, LC_OPT_X: a capitalised last word of a lower-case name is a
# placeholder, and the name stands for every name with the prefix before it
PLACEHOLDER = re.compile(r"(?<=[a-z0-9]_)[A-Z][A-Z0-9]*$")
TOKEN = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)


def split(text):
    """The code (comments blanked) and the comments with their lines."""
    code, comments, last = [], [], 0
    for m in TOKEN.finditer(text):
        code.append(text[last:m.start()])
        tok = m.group(0)
        if tok.startswith("/"):
            comments.append((text.count("\n", 0, m.start()) + 1, tok))
            code.append("\n" * tok.count("\n"))
        else:
            code.append(tok)
        last = m.end()
    code.append(text[last:])
    return "".join(code), comments


def sources():
    for d in DIRS:
        for root, _, files in os.walk(d):
            if "/fuzz/corpus" in root or root.startswith("tests/data"):
                continue
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.join(root, f)


def main():
    if len(sys.argv) > 1:
        os.chdir(sys.argv[1])
    known, said = set(), []
    for path in sources():
        with open(path, encoding="utf-8", errors="replace") as fh:
            code, comments = split(fh.read())
        known.update(m.group(1) for m in NAME.finditer(code))
        for line, text in comments:
            for m in NAME.finditer(text):
                rest = text[m.end():m.end() + 3]
                if re.match(r"\.(h|c|so)\b", rest):
                    continue
                said.append((path, line + text.count("\n", 0, m.start()), m.group(1), m.group(2)))
    stale = []
    for path, line, name, star in said:
        if star or name.endswith("_") or PLACEHOLDER.search(name):
            name = PLACEHOLDER.sub("", name)
            ok = any(k.startswith(name) for k in known)
        else:
            ok = name in known
        if not ok:
            stale.append("%s:%d: %s%s" % (path, line, name, star))
    for s in stale:
        print(s)
    if stale:
        print("check-comments: %d comment(s) name lc_ identifiers the tree does not define"
              % len(stale))
        return 1
    print("check-comments: every lc_ identifier %d comments name is in the code" % len(said))
    return 0


if __name__ == "__main__":
    sys.exit(main())
