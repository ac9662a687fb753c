#!/usr/bin/env python3
"""Parses hwprof's exports the way the receiving tools read them.

  csv JSON CSV KEY...      the CSV (Python's csv module, RFC 4180) has the JSON's
                           rows: for each KEY, column KEY equals field KEY of
                           the JSON's `paths` (or `hot`, `intervals`) entries
  folded FILE TOTAL        flamegraph.pl / speedscope folded stacks: every line
                           "frame;...;frame count" (split at the last run of
                           whitespace, frames at ';'), no empty frame, counts
                           sum to TOTAL; prints the heaviest stack
  simpoint FILE N INTERVAL SimPoint frequency-vector file (as SimPoint's
                           FVParser reads it): N lines "T:id:count :id:count ...",
                           ids >= 1 and unique per line, counts >= 1; each line's
                           counts sum to about INTERVAL instructions
"""
import csv
import json
import re
import sys


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


def check_csv(json_file, csv_file, keys):
    with open(json_file) as f:
        j = json.load(f)
    rows_j = j.get("paths") or j.get("hot") or j.get("intervals")
    with open(csv_file, newline="") as f:
        rows_c = list(csv.DictReader(f))
    if len(rows_c) != len(rows_j):
        fail(f"csv: {len(rows_c)} rows, json {len(rows_j)}")
    for i, (c, e) in enumerate(zip(rows_c, rows_j)):
        for k in keys:
            jk, ck = (k.split("=") + [k])[:2] if "=" in k else (k, k)
            if str(e.get(jk, "")) != c[ck]:
                fail(f"csv row {i} column {ck}: '{c[ck]}' != json '{e.get(jk, '')}'")
    print(f"ok   csv: {len(rows_c)} rows equal the JSON ({', '.join(keys)})")


# flamegraph.pl's stackcollapse line rule: /^(.*)\s+?(\d+(?:\.\d*)?)$/
FOLDED = re.compile(r"^(.*)\s+?(\d+(?:\.\d*)?)$")


def check_folded(path, total):
    s = 0
    best = (0, "")
    n = 0
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = FOLDED.match(line)
            if not m:
                fail(f"folded: line not 'stack count': {line!r}")
            stack, count = m.group(1), int(float(m.group(2)))
            frames = stack.split(";")
            if any(fr == "" or " " in fr for fr in frames):
                fail(f"folded: empty frame or space in a frame: {line!r}")
            s += count
            n += 1
            best = max(best, (count, stack))
    if s != int(total):
        fail(f"folded: counts sum to {s}, expected {total}")
    print(f"ok   folded: {n} stacks, sum {s}")
    print(best[1])


def check_simpoint(path, n_expected, interval):
    lines = open(path).read().splitlines()
    if len(lines) != int(n_expected):
        fail(f"simpoint: {len(lines)} lines, expected {n_expected} intervals")
    interval = int(interval)
    for i, line in enumerate(lines):
        if not line.startswith("T"):
            fail(f"simpoint line {i}: does not start with T")
        pairs = re.findall(r":(\d+):(\d+)", line[1:])
        rest = re.sub(r":(\d+):(\d+)\s*", "", line[1:])
        if rest.strip() or not pairs:
            fail(f"simpoint line {i}: not ':id:count' pairs: {line[:80]!r}")
        ids = [int(a) for a, _ in pairs]
        if min(ids) < 1 or len(set(ids)) != len(ids):
            fail(f"simpoint line {i}: ids must be >= 1 and unique")
        tot = sum(int(b) for _, b in pairs)
        if any(int(b) < 1 for _, b in pairs) or abs(tot - interval) > interval // 2:
            fail(f"simpoint line {i}: {tot} instructions for an interval of {interval}")
    print(f"ok   simpoint: {len(lines)} intervals")


cmd = sys.argv[1]
if cmd == "csv":
    check_csv(sys.argv[2], sys.argv[3], sys.argv[4:])
elif cmd == "folded":
    check_folded(sys.argv[2], sys.argv[3])
elif cmd == "simpoint":
    check_simpoint(sys.argv[2], sys.argv[3], sys.argv[4])
else:
    fail("unknown command " + cmd)
