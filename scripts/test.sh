#!/bin/sh
# Builds ltpipe and runs the whole test suite (the README's test command and
# what CI runs). Prints a closing "N passed, N failed" line; exits non-zero if
# anything failed.
set -e
cd "$(dirname "$0")/.."
sh scripts/build.sh
set +e
meson test -C build --print-errorlogs --num-processes 2 --timeout-multiplier 3 "$@"
rc=$?
set -e
python3 - build/meson-logs/testlog.json <<'PY'
import json, sys
ok = bad = skip = 0
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL"):
        ok += 1
    elif r == "SKIP":
        skip += 1
    else:
        bad += 1
print(f"{ok} passed, {bad} failed" + (f", {skip} skipped" if skip else ""))
PY
exit $rc
