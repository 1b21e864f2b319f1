/* One long function with many blocks: a nested state machine (switch inside switch),
 * break and continue inside nested loops, do-while with continue, a goto cleanup
 * ladder, a deep if/else-if chain and nested ?: in call arguments. */
#include <stdio.h>
#include <stdlib.h>

struct res {
	long sum;	/* running checksum */
	int tokens;	/* tokens accepted */
	int errors;	/* tokens rejected */
	int fails;	/* cleanup ladder exits by level */
};

/* Pseudo-random stream. */
static unsigned rnd(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (*s >> 16) & 0x7fff;
}

/* Out of line so the ?: arguments are real calls. */
__attribute__((noinline)) static long pick(long a, long b, int c)
{
	return a * 3 + b * 5 + c;
}

/* The long function: processes `n` pseudo-random symbols. */
__attribute__((noinline)) static void machine(unsigned seed, int n, struct res *r)
{
	int state = 0, sub = 0, depth = 0, i, j, k;
	long acc = 0;
	char *a = NULL, *b = NULL, *c = NULL;

	for (i = 0; i < n; i++) {
		unsigned v = rnd(&seed), cls = v % 9;

		switch (state) {
		case 0:
			switch (cls) {
			case 0: case 1: state = 1; sub = (int)(v & 3); break;
			case 2: state = 2; continue;
			case 3: acc += v; /* fall through */
			case 4: acc ^= v << 1; break;
			case 8: r->errors++; continue;
			default: state = 3; break;
			}
			break;
		case 1:
			switch (sub) {
			case 0: acc += cls; sub = 1; break;
			case 1:
				if (cls > 6) { state = 0; r->tokens++; }
				else sub = 2;
				break;
			case 2:
				for (j = 0; j < (int)cls; j++) {
					if (j == 5) break;
					if ((j & 1) == 0) continue;
					acc += j * (int)v;
				}
				sub = 3;
				break;
			default:
				state = cls < 4 ? 0 : 2;
				r->tokens += state == 0;
				break;
			}
			break;
		case 2:
			k = 0;
			do {
				k++;
				if (k % 3 == 0)
					continue;
				acc += k ^ (int)cls;
			} while (k < (int)cls + 1);
			depth += cls & 1 ? 1 : -1;
			if (depth < 0) depth = 0;
			state = depth > 3 ? 4 : 0;
			break;
		case 3:
			if (cls == 0) acc -= 7;
			else if (cls == 1) acc += 11;
			else if (cls == 2) acc *= 3;
			else if (cls == 3) acc ^= 0x33;
			else if (cls == 4) acc += pick(cls & 1 ? v : (long)i, cls > 2 ? (cls > 3 ? 1 : 2) : 3, (int)cls);
			else if (cls == 5) acc -= v >> 2;
			else if (cls == 6) acc = acc % 1000003;
			else if (cls == 7) { state = 0; r->tokens++; break; }
			else { r->errors++; state = 0; break; }
			state = (v & 8) ? 3 : 0;
			break;
		case 4:
			/* Allocation with a cleanup ladder: each level can fail. */
			a = malloc(16);
			if (!a || (v & 7) == 0) { r->fails += 1; goto out_a; }
			b = malloc(32);
			if (!b || (v & 7) == 1) { r->fails += 10; goto out_b; }
			c = malloc(64);
			if (!c || (v & 7) == 2) { r->fails += 100; goto out_c; }
			a[0] = (char)v; b[0] = (char)(v >> 1); c[0] = (char)(v >> 2);
			acc += a[0] + b[0] + c[0];
			r->tokens++;
			free(c);
out_c:
			free(b);
out_b:
			free(a);
out_a:
			depth = 0;
			state = 0;
			break;
		default:
			abort();
		}
		if (acc > 100000000 || acc < -100000000)
			acc = acc % 99991;
	}
	r->sum += acc + state * 1000 + sub * 100 + depth;
}

int main(void)
{
	struct res r = { 0, 0, 0, 0 };
	unsigned s;

	for (s = 1; s <= 12; s++) {
		machine(s * 2654435761u, 1000 + (int)s * 80, &r);
		printf("seed %u: sum=%ld tokens=%d errors=%d fails=%d\n", s, r.sum, r.tokens,
		       r.errors, r.fails);
	}
	return 0;
}
