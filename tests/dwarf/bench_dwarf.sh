#!/bin/sh
# Benchmark (prints numbers, asserts nothing): builds a generated program
# with ~100k line rows (-O2 -g, static inline helpers inlined everywhere)
# and prints dwarf_query's table sizes and build time, and the time of
# 1M line + inline lookups.
#   bench_dwarf.sh DWARF_QUERY [WORKDIR] [NFUNCS]
set -eu
q=$1
dir=${2:-/tmp/ltpipe-dwarf-bench}
n=${3:-4000}
mkdir -p "$dir"
python3 - "$dir/big.c" "$n" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
with open(path, 'w') as f:
    f.write('#include "helpers.h"\nvolatile unsigned bench_sink;\n')
    for i in range(n):
        f.write('''
static inline unsigned step%(i)d(unsigned x, int k)
{
	for (int j = 0; j < k; j++)
		x = mix2(x + j, x ^ %(i)d) + (unsigned)clamp((int)x, -%(i)d, %(i)d);
	return x;
}

__attribute__((noinline)) unsigned f%(i)d(unsigned a, int k)
{
	unsigned s = 0;
	for (int i = 0; i < k; i++) {
		if (a & (1u << (i & 31)))
			s += step%(i)d(a + i, k & 3);
		else
			s ^= mix(a - i);
	}
	return s;
}
''' % {'i': i})
    f.write('\nvoid _start(void)\n{\n')
    for i in range(n):
        f.write('\tbench_sink += f%d(bench_sink, 5);\n' % i)
    f.write('\tfor (;;)\n\t\t;\n}\n')
PY
src=$(cd "$(dirname "$0")/src" && pwd)
riscv64-linux-gnu-gcc -g -O2 -nostdlib -static -I"$src" -o "$dir/big" "$dir/big.c"
"$q" "$dir/big" stats
riscv64-linux-gnu-nm "$dir/big" | awk '$2=="T"{print $1}' > "$dir/funcs"
python3 - "$dir/funcs" "$dir/addrs" <<'PY'
import sys, random
funcs = [int(l, 16) for l in open(sys.argv[1])]
rng = random.Random(7)
with open(sys.argv[2], 'w') as f:
    for _ in range(1000000):
        f.write('%x\n' % (rng.choice(funcs) + 2 * rng.randrange(64)))
PY
start=$(date +%s.%N)
"$q" "$dir/big" inline < "$dir/addrs" > /dev/null
end=$(date +%s.%N)
echo "1M line+inline lookups incl. load and printing: $(echo "$end - $start" | bc) s"
