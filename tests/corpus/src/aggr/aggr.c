/* Data-shaped code: variadic functions, structs and unions passed and returned by
 * value, VLAs and alloca, bitfields, static tables indexed by computed values. */
#include <alloca.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct vec3 {
	int x, y, z;	/* components */
};

struct big {
	long v[6];	/* forces a memory copy when passed */
	char tag;	/* 'a'..'z' */
};

union word {
	unsigned u;		/* as a whole */
	unsigned char b[4];	/* as bytes */
	struct {
		unsigned lo : 12;	/* low bits */
		unsigned mid : 10;	/* middle bits */
		unsigned hi : 9;	/* high bits */
		unsigned flag : 1;	/* top bit */
	} f;			/* as fields */
};

struct flags {
	unsigned mode : 3;	/* 0..7 */
	unsigned dirty : 1;	/* set on change */
	signed delta : 5;	/* -16..15 */
	unsigned count : 7;	/* saturates at 127 */
};

/* Sum of COUNT ints, skipping negative ones. */
static int sum_ints(int count, ...)
{
	va_list ap;
	int s = 0;

	va_start(ap, count);
	while (count-- > 0) {
		int v = va_arg(ap, int);

		if (v < 0)
			continue;
		s += v;
	}
	va_end(ap);
	return s;
}

/* Formats a mixed list described by FMT ('i' int, 'l' long, 'd' double, 's'
 * string) into a checksum. */
static unsigned long mix(const char *fmt, ...)
{
	va_list ap;
	unsigned long h = 17;

	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		switch (*fmt) {
		case 'i':
			h = h * 31 + (unsigned)va_arg(ap, int);
			break;
		case 'l':
			h = h * 37 + (unsigned long)va_arg(ap, long);
			break;
		case 'd':
			h = h * 41 + (unsigned long)(long)(va_arg(ap, double) * 8.0);
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);

			while (*s)
				h = h * 7 + (unsigned char)*s++;
			break;
		}
		default:
			h ^= 0x5a;
		}
	}
	va_end(ap);
	return h;
}

static struct vec3 vadd(struct vec3 a, struct vec3 b)
{
	struct vec3 r = { a.x + b.x, a.y + b.y, a.z + b.z };

	return r;
}

__attribute__((noinline)) static struct vec3 vcross(struct vec3 a, struct vec3 b)
{
	struct vec3 r;

	r.x = a.y * b.z - a.z * b.y;
	r.y = a.z * b.x - a.x * b.z;
	r.z = a.x * b.y - a.y * b.x;
	return r;
}

__attribute__((noinline)) static struct big bump(struct big in, int k)
{
	int i;

	for (i = 0; i < 6; i++)
		if ((in.v[i] + k) % 3)
			in.v[i] += k;
	in.tag = (char)('a' + (in.tag - 'a' + k) % 26);
	return in;
}

static union word rotate(union word w)
{
	union word r;

	r.u = w.u;
	if (r.f.flag)
		r.f.lo ^= r.f.hi;
	else
		r.f.mid += r.b[0];
	r.f.flag = !r.f.flag;
	return r;
}

static void step(struct flags *f, int in)
{
	if (f->count < 127)
		f->count++;
	if ((in & 7) != f->mode) {
		f->mode = in & 7;
		f->dirty = 1;
	}
	f->delta = (signed)f->delta + ((in & 1) ? 1 : -1);
}

/* Median of the first N values of SRC via a VLA copy sorted by insertion. */
static int median(const int *src, int n)
{
	int tmp[n];
	int i, j;

	memcpy(tmp, src, sizeof(tmp));
	for (i = 1; i < n; i++) {
		int v = tmp[i];

		for (j = i; j > 0 && tmp[j - 1] > v; j--)
			tmp[j] = tmp[j - 1];
		tmp[j] = v;
	}
	return tmp[n / 2];
}

/* Reverses the digits of V through an alloca buffer. */
static long revdigits(long v)
{
	char *buf = alloca(24);
	int n = 0;
	long r = 0;

	do {
		buf[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n--)
		r = r * 10 + (buf[n] - '0');
	return r;
}

static const unsigned char weights[16] = {
	3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3,
};
static const short deltas[8] = { -3, 7, 0, 12, -8, 5, 1, -1 };

static int table_walk(unsigned seed, int steps)
{
	int acc = 0;

	while (steps--) {
		seed = seed * 1103515245u + 12345u;
		acc += weights[(seed >> 16) & 15] * deltas[(seed >> 8) % 8];
		if (weights[seed & 15] > 6)
			acc -= deltas[weights[(seed >> 4) & 15] & 7];
	}
	return acc;
}

int main(void)
{
	struct vec3 p = { 1, 2, 3 }, q = { -2, 5, 7 }, acc = { 0, 0, 0 };
	struct big bg = { { 10, 20, 30, 40, 50, 60 }, 'c' };
	union word w;
	struct flags fl;
	int data[64];
	int i, s = 0;
	unsigned long h = 0;
	long r = 0;

	for (i = 0; i < 50; i++) {
		s += sum_ints(3, i, -i, i * 2);
		s += sum_ints(5, 1, 2, -3, i, i & 3);
	}
	printf("sum_ints %d\n", s);

	for (i = 0; i < 40; i++)
		h ^= mix("ilds?", i, (long)i * 1000, i / 3.0, "xyz" + (i % 4));
	printf("mix %lu\n", h);

	for (i = 0; i < 100; i++) {
		acc = vadd(acc, vcross(p, q));
		p = vadd(p, q);
		q.x = (q.x * 3 + i) % 17;
	}
	printf("vec %d %d %d\n", acc.x, acc.y, acc.z);

	for (i = 0; i < 60; i++)
		bg = bump(bg, i);
	printf("big %ld %ld %c\n", bg.v[0], bg.v[5], bg.tag);

	w.u = 0x12345678u;
	for (i = 0; i < 90; i++)
		w = rotate(w);
	printf("word %08x\n", w.u);

	memset(&fl, 0, sizeof(fl));
	for (i = 0; i < 200; i++) {
		step(&fl, (i * 5) ^ (i >> 2));
		if (fl.dirty && (i % 7) == 0)
			fl.dirty = 0;
	}
	printf("flags %u %u %d %u\n", fl.mode, fl.dirty, fl.delta, fl.count);

	for (i = 0; i < 64; i++)
		data[i] = (i * 73 + 19) % 101;
	s = 0;
	for (i = 1; i <= 64; i += 3)
		s += median(data, i);
	printf("median %d\n", s);

	for (i = 0; i < 100; i++)
		r += revdigits((long)i * 7919 + 3);
	printf("rev %ld\n", r);

	printf("table %d\n", table_walk(42, 500) + table_walk(7, 333));
	return 0;
}
