/* sudoku: bitmask backtracking solver (most constrained cell first) driven by a
 * command dispatcher over argv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

struct board {
	uint8_t cell[81];
	uint16_t row[9], col[9], box[9];	/* digits used, bit d-1 */
};

struct stats {
	unsigned long nodes;
	unsigned solutions;
	unsigned guesses;
};

static const char *const puzzles[] = {
	"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
	"..9748...7.........2.1.9.....7...24..64.1.59..98...3.....8.3.2.........6...2759..",
	"8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
	"1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
	".....6....59.....82....8....45........3........6..3.54...325..6..................",
	"11...............................................................................",
};

static inline int box_of(int i)
{
	return (i / 27) * 3 + (i % 9) / 3;
}

static inline uint16_t cands(const struct board *b, int i)
{
	return (uint16_t)(~(b->row[i / 9] | b->col[i % 9] | b->box[box_of(i)]) & 0x1ff);
}

static inline void place(struct board *b, int i, int d)
{
	uint16_t m = (uint16_t)(1u << (d - 1));
	b->cell[i] = (uint8_t)d;
	b->row[i / 9] |= m;
	b->col[i % 9] |= m;
	b->box[box_of(i)] |= m;
}

static inline void unplace(struct board *b, int i, int d)
{
	uint16_t m = (uint16_t)~(1u << (d - 1));
	b->cell[i] = 0;
	b->row[i / 9] &= m;
	b->col[i % 9] &= m;
	b->box[box_of(i)] &= m;
}

static int load(struct board *b, const char *s)
{
	memset(b, 0, sizeof *b);
	if (strlen(s) != 81)
		return -1;
	for (int i = 0; i < 81; i++) {
		if (s[i] == '.')
			continue;
		int d = s[i] - '0';
		if (d < 1 || d > 9)
			return -1;
		if (!(cands(b, i) & (1u << (d - 1))))
			return -2;
		place(b, i, d);
	}
	return 0;
}

static int solve(struct board *b, struct stats *st, unsigned limit)
{
	int best = -1, bestn = 10;
	st->nodes++;
	for (int i = 0; i < 81; i++) {
		if (b->cell[i])
			continue;
		int n = __builtin_popcount(cands(b, i));
		if (n < bestn) {
			bestn = n;
			best = i;
			if (n <= 1)
				break;
		}
	}
	if (best < 0) {
		st->solutions++;
		return st->solutions >= limit;
	}
	uint16_t c = cands(b, best);
	if (bestn > 1)
		st->guesses += (unsigned)bestn - 1;
	while (c) {
		int d = __builtin_ctz(c) + 1;
		c &= (uint16_t)(c - 1);
		place(b, best, d);
		if (solve(b, st, limit))
			return 1;
		unplace(b, best, d);
	}
	return 0;
}

static uint32_t board_hash(const struct board *b)
{
	uint32_t h = 17;
	for (int i = 0; i < 81; i++)
		h = h * 10 + b->cell[i] + (h >> 27);
	return h;
}

static int check(const struct board *b)
{
	for (int k = 0; k < 9; k++)
		if (b->row[k] != 0x1ff || b->col[k] != 0x1ff || b->box[k] != 0x1ff)
			return 0;
	return 1;
}

enum cmd { C_SOLVE, C_COUNT, C_SHOW, C_HINT, C_BAD };

static enum cmd parse_cmd(const char *s)
{
	static const char *const names[] = { "solve", "count", "show", "hint" };
	for (unsigned k = 0; k < sizeof names / sizeof names[0]; k++)
		if (strcmp(s, names[k]) == 0)
			return (enum cmd)k;
	return C_BAD;
}

static int run(enum cmd c, int p)
{
	struct board b;
	struct stats st = { 0, 0, 0 };
	int rc = load(&b, puzzles[p]);
	if (rc < 0) {
		printf("puzzle %d: invalid (%d)\n", p, rc);
		return 1;
	}
	switch (c) {
	case C_SOLVE:
		if (!solve(&b, &st, 1)) {
			printf("puzzle %d: no solution (nodes=%lu)\n", p, st.nodes);
			return 1;
		}
		printf("puzzle %d: solved nodes=%lu guesses=%u ok=%d hash=%08x\n", p, st.nodes,
		       st.guesses, check(&b), (unsigned)board_hash(&b));
		break;
	case C_COUNT:
		solve(&b, &st, 3);
		printf("puzzle %d: solutions>=%u nodes=%lu\n", p, st.solutions, st.nodes);
		break;
	case C_SHOW:
		for (int r = 0; r < 9; r++) {
			for (int k = 0; k < 9; k++)
				putchar(b.cell[r * 9 + k] ? '0' + b.cell[r * 9 + k] : '.');
			putchar('\n');
		}
		break;
	case C_HINT: {
		int best = -1, bestn = 10;
		for (int i = 0; i < 81; i++) {
			int n = b.cell[i] ? 10 : __builtin_popcount(cands(&b, i));
			if (n < bestn) {
				bestn = n;
				best = i;
			}
		}
		printf("puzzle %d: hint cell r%dc%d has %d candidates\n", p, best / 9 + 1,
		       best % 9 + 1, bestn);
		break;
	}
	default:
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int fails = 0;
	int np = (int)(sizeof puzzles / sizeof puzzles[0]);
	for (int a = 1; a + 1 < argc; a += 2) {
		enum cmd c = parse_cmd(argv[a]);
		char *end;
		long p = strtol(argv[a + 1], &end, 10);
		if (*end || p < 0 || p >= np) {
			printf("bad puzzle index '%s'\n", argv[a + 1]);
			fails++;
			continue;
		}
		int r = run(c, (int)p);
		if (r == 2)
			printf("unknown command '%s'\n", argv[a]);
		fails += r != 0;
	}
	printf("fails=%d\n", fails);
	return fails > 100;
}
