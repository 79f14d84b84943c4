"""per_thread.py — report --per-thread --format csv as the tests that read
a timeline back (t_perfetto, t_otf2) judge against it: import it with the
top of the tree on sys.path."""
import csv


def read(path):
    """(keys, threads): the category keys in the report's order, and one
    tuple (index, pid, tid, ns) per thread, ns a dict key -> nanoseconds
    (None for na: not measured)."""
    rows = [r for r in csv.reader(open(path)) if r]
    hdr = next(i for i, r in enumerate(rows) if r[0] == "thread")
    keys = rows[hdr][3:-1]
    threads = []
    for r in rows[hdr + 1:]:
        if r[0].isdigit():
            ns = {k: None if v == "na" else round(float(v) * 1e9) for k, v in zip(keys, r[3:-1])}
            threads.append((r[0], int(r[1]), int(r[2]), ns))
    return keys, threads


def compare(threads, got, what):
    """The lines that say where got(pid, tid), a mapping key -> ns (a
    Counter), differs from the report's ns per category (na counts as 0)."""
    bad = []
    for idx, pid, tid, ns in threads:
        have = got(pid, tid)
        for k, want in ns.items():
            if have[k] != (want or 0):
                bad.append("thread %s %s: %s %d ns, report %d ns" % (idx, k, what, have[k], want or 0))
    return bad
