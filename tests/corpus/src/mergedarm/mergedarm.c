/* A counter machine whose conditional jumps each set `pc = o->arg` under
 * their own flag test, one case per line. gcc's tail merging (after the
 * gcno was written) keeps one of the identical `pc = o->arg` blocks with
 * its line and later copies it back behind the tests: at -O2 the jumps'
 * taken arms run code under another jump's row, a line neither of their
 * condition's arcs lists. The statement's text tells that way to be the
 * arm's (gcda_tailmerge.c), and the kept line's entries leave those
 * arrivals out. */
#include <stdio.h>

enum { SET, INC, DEC, CMP, JEQ, JNE, JLO, JHI, JMP, HALT };

struct op { unsigned char code, r; short arg; };

/* r0 counts down from r1 = 30 + k; r2 counts the odd steps */
static const struct op prog[] = {
	{SET, 0, 0}, {CMP, 1, 0}, {JEQ, 0, 12}, {DEC, 1, 0}, {INC, 0, 0},
	{CMP, 0, 3}, {JLO, 0, 8}, {SET, 0, 0}, {CMP, 1, 20}, {JHI, 0, 1},
	{INC, 2, 0}, {JNE, 0, 1}, {HALT, 0, 0},
};

static int exec(const struct op *p, int n, int k)
{
	int r[4] = {0, 30 + k, 0, 0}, pc = 0, eq = 0, lo = 0, hi = 0, steps = 0;
	while (pc >= 0 && pc < n && steps++ < 5000) {
		const struct op *o = &p[pc++];
		switch (o->code) {
		case SET: r[o->r & 3] = o->arg; break;
		case INC: r[o->r & 3]++; break;
		case DEC: r[o->r & 3]--; break;
		case CMP: eq = r[o->r & 3] == o->arg; lo = r[o->r & 3] < o->arg; hi = r[o->r & 3] > o->arg; break;
		case JEQ: if (eq) pc = o->arg; break;
		case JNE: if (!eq) pc = o->arg; break;
		case JLO: if (lo) pc = o->arg; break;
		case JHI: if (hi) pc = o->arg; break;
		case JMP: pc = o->arg; break;
		case HALT: return r[2] * 100 + steps;
		default: return -1;
		}
	}
	return -2;
}

int main(void)
{
	long sum = 0;
	for (int k = 0; k < 6; k++)
		sum = sum * 7 + exec(prog, 13, k);
	printf("%ld\n", sum);
	return 0;
}
