/* A timer calendar kept as a sorted list with express lanes: arming a
 * timer walks down the lanes from the top (`for` over the lanes, a
 * `while` along each), then refuses a duplicate or a full calendar with
 * one line of mixed tests, `if ((c->nx[0] && c->nx[0]->when == when) ||
 * live == CAP)`; firing takes the earliest timers off the bottom lane
 * and keeps them for reuse.
 * Inlined into main, the walk's start (`c = &cal`, the first block's
 * line) is copied into the lane loop as a register move, the line's
 * three tests share one line (their blocks told apart by the shape of
 * the code), and the lane loop's update falls into its test. */
#include <stdio.h>

#define LANES 6
#define CAP 400

struct timer { unsigned when; int id; struct timer *nx[LANES]; };

static struct timer pool[CAP], *spare[CAP], cal;
static int live, nspare, used, top = 1, fired_ids;
static unsigned seed = 2024u, steps;

static unsigned rnd(void) { seed = seed * 1103515245u + 12345u; return (seed >> 10) & 0x7fffu; }

static int lane_count(void)
{
	int h = 1;
	unsigned r = rnd();
	while ((r & 3u) == 0u && h < LANES) {
		h++;
		r >>= 2;
	}
	return h;
}

static int arm(unsigned when, int id)
{
	struct timer *up[LANES], *c = &cal;
	int k, h;
	for (k = top - 1; k >= 0; k--) {
		while (c->nx[k] && c->nx[k]->when < when) c = c->nx[k];
		up[k] = c;
	}
	if ((c->nx[0] && c->nx[0]->when == when) || live == CAP)
		return 0;
	h = lane_count();
	for (k = top; k < h; k++)
		up[k] = &cal;
	if (h > top)
		top = h;
	c = nspare ? spare[--nspare] : &pool[used++];
	live++;
	c->when = when;
	c->id = id;
	steps += (unsigned)h;
	for (k = 0; k < h; k++) {
		c->nx[k] = up[k]->nx[k];
		up[k]->nx[k] = c;
	}
	return 1;
}

static unsigned fire(unsigned now)
{
	unsigned sum = 0;
	struct timer *t;
	while ((t = cal.nx[0]) != NULL && t->when <= now) {
		for (int k = 0; k < LANES && cal.nx[k] == t; k++)
			cal.nx[k] = t->nx[k];
		sum += (unsigned)t->id;
		spare[nspare++] = t;
		live--;
		fired_ids++;
	}
	return sum;
}

int main(void)
{
	unsigned now = 0, total = 0;
	int armed = 0;
	for (int i = 0; i < 1400; i++) {
		armed += arm(now + rnd() % 3000u, i);
		if (i % 50 == 49) {
			now += 150u;
			total += fire(now);
		}
	}
	total += fire(~0u);
	printf("armed=%d used=%d live=%d top=%d steps=%u\n", armed, used, live,
	       top, steps);
	printf("fired=%d total=%u\n", fired_ids, total);
	return 0;
}
