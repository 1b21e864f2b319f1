/* dispatch: a switch nested in a switch inside a loop where some cases
 * `break` (run the loop's tail) and others `continue` (skip it), a state
 * machine written with `goto`s, a switch in a static function inlined into
 * two callers with constant arguments (gcc specialises each copy), and
 * functions taking structs by value returning bool, used in `if` chains. */
#include <stdbool.h>
#include <stdio.h>

static long sink;
static int tally[6];
static unsigned seed = 777u;

static unsigned rnd(void)
{
	seed = seed * 1664525u + 1013904223u;
	return seed >> 20;
}

/* Op codes: high nibble the group, low nibble the op. */
__attribute__((noinline)) static long run(const unsigned char *code, int n)
{
	long acc = 0;
	int skipped = 0;
	for (int i = 0; i < n; i++) {
		unsigned op = code[i];
		switch (op >> 4) {
		case 0:
			switch (op & 3) {
			case 0:
				acc++;
				break;
			case 1:
				acc--;
				continue;
			case 2:
				acc = acc * 2 % 100003;
				break;
			default:
				skipped++;
				continue;
			}
			break;
		case 1:
			switch (op & 7) {
			case 1:
				acc += 10;
				continue;
			case 4:
				acc -= 10;
				break;
			default:
				acc ^= op;
				break;
			}
			tally[1]++;
			break;
		case 2:
			if (acc > 1000)
				acc = 0;
			continue;
		case 3:
			i++;
			break;
		default:
			skipped += 2;
			break;
		}
		tally[0]++;
		sink += acc & 15;
	}
	tally[2] += skipped;
	return acc;
}

/* Parses [+-]digits[.digits][e[+-]digits] with gotos between states;
 * returns the number of digits read, -1 when malformed. */
__attribute__((noinline)) static int parse_num(const char *s)
{
	int digits = 0;
	if (*s == '+' || *s == '-')
		s++;
	if (*s < '0' || *s > '9')
		goto bad;
int_part:
	digits++;
	s++;
	if (*s >= '0' && *s <= '9')
		goto int_part;
	if (*s == '.')
		goto frac_start;
	if (*s == 'e' || *s == 'E')
		goto exp_start;
	goto end;
frac_start:
	s++;
	if (*s < '0' || *s > '9')
		goto bad;
frac:
	digits++;
	s++;
	if (*s >= '0' && *s <= '9')
		goto frac;
	if (*s == 'e' || *s == 'E')
		goto exp_start;
	goto end;
exp_start:
	s++;
	if (*s == '+' || *s == '-')
		s++;
	if (*s < '0' || *s > '9')
		goto bad;
	while (*s >= '0' && *s <= '9') {
		digits++;
		s++;
	}
end:
	if (*s != '\0')
		goto bad;
	tally[3]++;
	return digits;
bad:
	tally[4]++;
	return -1;
}

/* Scales x by a mode; inlined into both callers below with constant mode. */
static inline long scale(long x, int mode)
{
	switch (mode) {
	case 0:
		return x;
	case 1:
		sink++;
		return x * 3;
	case 2:
		if (x < 0)
			return -x;
		return x / 2;
	default:
		sink--;
		return 0;
	}
}

__attribute__((noinline)) static long scale_all1(const int *a, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += scale(a[i], 1) + scale(a[i], 2);
	return s;
}

__attribute__((noinline)) static long scale_all2(const int *a, int n, int m)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += scale(a[i], m) - scale(a[i], 2);
	return s;
}

struct box {
	int x0, y0, x1, y1; /* corners */
};

struct pt {
	int x, y; /* coordinates */
};

__attribute__((noinline)) static bool inside(struct box b, struct pt p)
{
	sink++;
	return p.x >= b.x0 && p.x < b.x1 && p.y >= b.y0 && p.y < b.y1;
}

__attribute__((noinline)) static bool empty_box(struct box b)
{
	sink += 2;
	return b.x1 <= b.x0 || b.y1 <= b.y0;
}

__attribute__((noinline)) static int classify(struct box a, struct box b, struct pt p)
{
	if (empty_box(a))
		return 0;
	if (inside(a, p) && inside(b, p))
		return 1;
	else if (inside(a, p))
		return 2;
	else if (!empty_box(b) && inside(b, p))
		return 3;
	tally[5]++;
	return 4;
}

int main(void)
{
	unsigned char code[300];
	long total = 0;
	for (int r = 0; r < 20; r++) {
		int n = 50 + (int)(rnd() % 250);
		for (int i = 0; i < n; i++)
			code[i] = (unsigned char)(rnd() % 80);
		total += run(code, n);
	}
	printf("run %ld tally %d %d %d\n", total, tally[0], tally[1], tally[2]);

	static const char *const nums[] = {
		"0", "123", "-4.5", "+7e3", "1.2e-9", "e5", ".5", "3.", "12x", "9E+", "-", "42.0E7", "77e",
	};
	int dsum = 0;
	for (int r = 0; r < 25; r++)
		for (unsigned i = 0; i < sizeof nums / sizeof nums[0]; i++)
			dsum += parse_num(nums[i]);
	printf("parse %d ok %d bad %d\n", dsum, tally[3], tally[4]);

	int a[100];
	for (int i = 0; i < 100; i++)
		a[i] = (int)(rnd() % 201) - 100;
	long s1 = 0, s2 = 0;
	for (int r = 0; r < 10; r++) {
		s1 += scale_all1(a, 100 - r);
		s2 += scale_all2(a, 50 + r, r % 4);
	}
	printf("scale %ld %ld\n", s1, s2);

	int hist[5] = { 0 };
	for (int r = 0; r < 400; r++) {
		struct box a1 = { (int)(rnd() % 10), (int)(rnd() % 10), (int)(rnd() % 20), (int)(rnd() % 20) };
		struct box b1 = { (int)(rnd() % 10), (int)(rnd() % 10), (int)(rnd() % 20), (int)(rnd() % 20) };
		struct pt p = { (int)(rnd() % 20), (int)(rnd() % 20) };
		hist[classify(a1, b1, p)]++;
	}
	printf("classify %d %d %d %d %d sink %ld\n", hist[0], hist[1], hist[2], hist[3], hist[4], sink);
	return 0;
}
