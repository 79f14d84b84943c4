#!/usr/bin/env python3
"""readme-samples.py -- the README's sample output, from a real run.

Between the markers <!-- demo:begin --> and <!-- demo:end --> of README.md,
each line "$ ./lostcycles ..." of a ``` block is a command, and the lines
after it (up to the next "$ " line or the block's end) are its output.

  readme-samples.py --update   runs the commands in order (from the top of
                               the tree, after the build and "make
                               examples"; again, up to 5 times, while the
                               sampler falls behind on a busy machine) and
                               writes their output into the README
  readme-samples.py --check    runs them into a scratch folder and fails
                               when the README's output is not the shape of
                               what the program prints now: a line of the
                               README whose shape (numbers, ids, names of
                               the run masked) no line of the run has, or a
                               table header that changed

A record command's output file is removed first (the README shows the
command without --force).  Prints what it did or what is stale; exit 0
done, 1 stale or failed, 77 (check) when the demo is not built.
"""
import os, re, shutil, subprocess, sys, tempfile

SECTIONS = ("demo",)
CMD = re.compile(r"^\$ (\./lostcycles .*?)(\s+#.*)?$")


def blocks(lines, section):
    """(first, last) line indices of the section's ``` blocks."""
    try:
        a = lines.index("<!-- %s:begin -->" % section)
        b = lines.index("<!-- %s:end -->" % section)
    except ValueError:
        sys.exit("readme-samples: README.md has no %s markers" % section)
    out, start = [], None
    for i in range(a, b):
        if lines[i].startswith("```"):
            if start is None:
                start = i + 1
            else:
                out.append((start, i))
                start = None
    return out


def commands(lines, section):
    """[(line index of "$ cmd", end of its output, command)]"""
    out = []
    for s, e in blocks(lines, section):
        cmds = [i for i in range(s, e) if lines[i].startswith("$ ")]
        for k, i in enumerate(cmds):
            m = CMD.match(lines[i])
            if m:
                out.append((i, cmds[k + 1] if k + 1 < len(cmds) else e, m.group(1)))
    return out


def run(cmd, scratch):
    """The command's output (stdout and stderr as a terminal shows them);
    with scratch, its build/ files go there."""
    if scratch:
        cmd = re.sub(r"\bbuild/([\w.-]+\.(data|html|png))\b", scratch + r"/\1", cmd)
    m = re.search(r"\brecord\b.*?-o\s+(\S+)", cmd)
    if m and os.path.exists(m.group(1)):
        os.remove(m.group(1))
    p = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=dict(os.environ, NO_COLOR="1"))
    text = p.stdout.decode("utf-8", "replace").replace(os.getcwd() + "/", "\u2026/")
    if scratch:
        text = text.replace(scratch + "/", "build/")
    if p.returncode:
        sys.exit("readme-samples: '%s' failed (exit status %d):\n%s" % (cmd, p.returncode, text))
    return text.rstrip("\n").split("\n")


def shape(line):
    """A line with what differs between runs masked: numbers, ids, hex,
    the load marker "*"; a table row is its number of numeric columns, an
    advice item, its evidence and fix lines are their kind (which rules
    fire depends on the run)."""
    s = re.sub(r"0x[0-9a-f]+", "X", line)
    s = re.sub(r"[±+-]?\d+(\.\d+)?", "N", s)
    s = re.sub(r"\s+", " ", s).strip()
    s = re.sub(r" \*$", "", s)
    s = s.replace("(reached at N s)", "(not reached)")
    if re.match(r"^N\. ", s):
        return "advice item"
    m = re.match(r"^(evidence|fix \[[\w-]+\]|why|what-if|see):", s)
    if m:
        return "advice " + m.group(1).split(" ")[0]
    if len(re.findall(r"\bN%?\b", s)) >= 6:
        return "row of %d columns" % len(s.split(" ") and re.findall(r"(?:^| )(?:N%?|na|-)(?= |$)", s))
    return s


# lines a run prints or not by how the machine was (load, missed ticks, a
# spare CPU) or by which rules of advice fire
VARIES = re.compile(r"\*\* note: |warning: |the sampler (fell behind|stalled|shared CPU)|"
                    r"\*\* the machine: |^\s*\S+ \(|^\*\* (interval|estimated slowdown)|"
                    r"categories marked|\*\* slowest|distorted: ")


BUSY = re.compile(r"the sampler (fell behind|stalled)")


def varies(line):
    return bool(VARIES.search(line)) or shape(line).startswith("advice ")


def header(line):
    return bool(re.match(r"^\s*(place|pid|key|window|\*\* per thread)\b", line))


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode not in ("--update", "--check"):
        sys.exit("usage: readme-samples.py --update | --check")
    if not os.access("build/examples/demo", os.X_OK) or not os.access("lostcycles", os.X_OK):
        print("readme-samples: SKIP: build/examples/demo or ./lostcycles is not built")
        sys.exit(77 if mode == "--check" else 1)
    text = open("README.md").read()
    lines = text.split("\n")
    scratch = tempfile.mkdtemp(prefix="lc-readme.") if mode == "--check" else None
    stale = []
    try:
        for section in SECTIONS:
            cmds = commands(lines, section)
            for attempt in range(5):    # a quiet run: no tick missed for the load
                outs = [run(c, scratch) for _, _, c in cmds]   # in order
                if mode == "--check" or not any(BUSY.search(l) for o in outs for l in o):
                    break
                print("readme-samples: the sampler fell behind (a busy machine): again")
            for (i, e, cmd), out in reversed(list(zip(cmds, outs))):
                if mode == "--update":
                    lines[i + 1:e] = out + ([""] if e < len(lines) and lines[e].startswith("$ ") else [])
                    continue
                got = {shape(l) for l in out}
                heads = {re.sub(r"\s+", " ", l.strip()) for l in out if header(l)}
                have = {shape(l) for l in lines[i + 1:e]}
                for l in out:
                    if l.strip() and shape(l) not in have and not varies(l):
                        stale.append("%s\n      missing: %s" % (cmd, l.strip()[:160]))
                for l in lines[i + 1:e]:
                    if not l.strip():
                        continue
                    if header(l) and re.sub(r"\s+", " ", l.strip()) not in heads:
                        stale.append("%s\n      header: %s" % (cmd, l.strip()))
                    elif shape(l) not in got and not header(l) and not varies(l):
                        stale.append("%s\n      %s" % (cmd, l.strip()[:160]))
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    if mode == "--update":
        open("README.md", "w").write("\n".join(lines))
        print("readme-samples: README.md's samples rewritten from this run")
        return 0
    for s in stale:
        print("stale: " + s)
    print("readme-samples: %s" % ("%d stale line(s): run scripts/readme-samples.py --update" %
                                  len(stale) if stale else "the README's samples have the program's shape"))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
