#!/usr/bin/env python3
"""One large C unit for scripts/bench-gcda.sh: the random programs of
tests/gcda/hunt/progen.py for seeds FIRST .. FIRST+N-1, each one's names
prefixed (p<seed>_) so that they live in one file, and a main calling
each program's main in turn.

  gcda_bigunit.py FIRST N      prints the unit
"""
import os
import re
import subprocess
import sys

# The names progen.py gives file-scope things, and the labels it writes.
NAMES = re.compile(r"\b(g_arr|g_s|g_cnt|g_rs|rnd|[fhr]\d+|tab\d+|main|out)\b")


def program(seed):
    here = os.path.dirname(os.path.abspath(__file__))
    gen = os.path.join(here, "..", "tests", "gcda", "hunt", "progen.py")
    src = subprocess.run([sys.executable, gen, str(seed)], check=True,
                         capture_output=True, text=True).stdout
    body = [line for line in src.split("\n")
            if not line.startswith(("#include", "struct pair {", "/*"))]
    text = NAMES.sub(lambda m: "p%d_%s" % (seed, m.group(1)), "\n".join(body))
    return text.replace("int p%d_main(void)" % seed,
                        "static __attribute__((noinline)) int p%d_main(void)"
                        % seed)


def main():
    first, n = int(sys.argv[1]), int(sys.argv[2])
    out = ["#include <stdio.h>", "struct pair { unsigned a, b; };"]
    out += [program(s) for s in range(first, first + n)]
    out.append("int main(void)\n{\n\tint r = 0;")
    out += ["\tr += p%d_main();" % s for s in range(first, first + n)]
    out.append("\treturn r & 1;\n}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
