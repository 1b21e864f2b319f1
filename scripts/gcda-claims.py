#!/usr/bin/env python3
"""Sums the counters a check_gcda.py work dir's reports claim.

  gcda-claims.py WORKDIR [SUFFIX...]

Counts, over WORKDIR/*/gcda-report.txt (only dirs ending in one of the
SUFFIXes, e.g. -O1 -O2, when given), the counters each function's report line
says are determined (all of an `exact` one's): the claims a
wrong count is judged against (check_gcda.py report_claims)."""
import os
import re
import sys

work = sys.argv[1]
suffixes = tuple(sys.argv[2:])
total = 0
for d in sorted(os.listdir(work)):
    if suffixes and not d.endswith(suffixes):
        continue
    path = os.path.join(work, d, "gcda-report.txt")
    if not os.path.exists(path):
        continue
    with open(path) as f:
        for line in f:
            m = re.match(r"\s+(?:exact|inferred)\s.* determined=(\d+)",
                         line)
            if m:
                total += int(m.group(1))
print(total)
