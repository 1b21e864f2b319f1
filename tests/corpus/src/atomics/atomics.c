/* C11 atomics in one thread: compare-exchange retry loops (lr/sc loops with a
 * backward branch inside one source line), fetch_add/fetch_or, atomic_flag spin
 * locks, plus GNU C statement expressions, cleanup attributes, case ranges and
 * _Generic selections. */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define MIN(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define KIND(x) _Generic((x), int: "int", unsigned: "unsigned", long: "long", \
	double: "double", char *: "string", default: "other")
#define SQ(x) _Generic((x), int: sq_i, double: sq_d, default: sq_l)(x)

static atomic_int counter;
static atomic_long total;
static atomic_uint bits;
static atomic_flag lock = ATOMIC_FLAG_INIT;
static _Atomic uint64_t maxval;
static unsigned spins, releases, cleanups;

static int sq_i(int x) { return x * x; }
static double sq_d(double x) { return x * x; }
static long sq_l(long x) { return x * x; }

/* Takes the spin lock; in one thread it is always free, but the loop is real. */
static void spin_lock(void)
{
	while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire)) spins++;
}

static void spin_unlock(void)
{
	atomic_flag_clear_explicit(&lock, memory_order_release);
	releases++;
}

/* Called when a guarded scope ends (cleanup attribute). */
static void unlock_guard(int *held)
{
	if (*held) spin_unlock();
	cleanups++;
}

/* Raises maxval to v with a compare-exchange loop; returns the retries. */
static int atomic_max(uint64_t v)
{
	uint64_t cur = atomic_load(&maxval); int tries = 0;
	while (cur < v && !atomic_compare_exchange_weak(&maxval, &cur, v)) tries++;
	return tries;
}

/* Multiplies counter by k with a strong CAS loop, giving up above limit. */
static int atomic_mul_capped(int k, int limit)
{
	int old = atomic_load(&counter), nv;
	do {
		nv = old * k;
		if (nv > limit || nv < -limit)
			return -1;
	} while (!atomic_compare_exchange_strong(&counter, &old, nv));
	return nv;
}

/* Counts characters per class with case ranges. */
static void classify(const char *s, int cls[5])
{
	for (; *s; s++) {
		switch (*s) {
		case 'a' ... 'z': cls[0]++; break;
		case 'A' ... 'Z': cls[1]++; break;
		case '0' ... '9': cls[2]++; break;
		case ' ': case '\t': cls[3]++; break;
		default: cls[4]++;
		}
	}
}

/* Guarded update: the lock is released by the cleanup handler on every return. */
static long guarded_add(long v)
{
	int held __attribute__((cleanup(unlock_guard))) = 0;
	spin_lock(); held = 1;
	if (v < 0)
		return -1;
	if (v == 0)
		return atomic_load(&total);
	long prev = atomic_fetch_add(&total, v);
	return prev + v;
}

/* Sets bit (i % 32), returns whether it was already set. */
static bool test_and_set_bit(unsigned i)
{
	unsigned m = 1u << (i % 32);
	return (atomic_fetch_or(&bits, m) & m) != 0;
}

static unsigned xs = 2463534242u;
static unsigned xorshift(void)
{
	xs ^= xs << 13; xs ^= xs >> 17; xs ^= xs << 5;
	return xs;
}

int main(void)
{
	int cls[5] = {0};
	static const char *texts[] = { "Hello World 2024", "lr/sc loops: 3 tries", "ABCdef\t789 !?", "" };
	for (unsigned i = 0; i < sizeof texts / sizeof texts[0]; i++) classify(texts[i], cls);
	printf("classes %d %d %d %d %d\n", cls[0], cls[1], cls[2], cls[3], cls[4]);

	int tries = 0;
	for (int i = 0; i < 200; i++) tries += atomic_max(xorshift() % 100000);
	printf("max %llu tries %d\n", (unsigned long long)atomic_load(&maxval), tries);

	for (int i = 0; i < 1000; i++) atomic_fetch_add(&counter, i % 7 == 0 ? 2 : 1);
	printf("counter %d\n", atomic_load(&counter));
	atomic_store(&counter, 1);
	int steps = 0, r;
	while ((r = atomic_mul_capped(3, 1000000)) > 0) steps++;
	printf("mul steps %d last %d r %d\n", steps, atomic_load(&counter), r);

	long g = 0;
	for (long v = -3; v < 40; v += 2) g += guarded_add(v % 5 == 0 ? 0 : v);
	printf("guarded %ld total %ld spins %u rel %u clean %u\n", g, atomic_load(&total), spins, releases, cleanups);

	int dup = 0;
	for (unsigned i = 0; i < 100; i++) dup += test_and_set_bit(xorshift() % 61);
	printf("dups %d bits %08x\n", dup, atomic_load(&bits));

	int a = 7, b = -3; long la = 12; double d = 2.5; char *s = "x";
	printf("%s %s %s %s %s\n", KIND(a), KIND(1u), KIND(la), KIND(d), KIND(s));
	printf("sq %d %.2f %ld\n", SQ(a), SQ(d), SQ(la));
	int acc = 0;
	for (int i = -20; i < 20; i++) acc += MAX(i, b) - MIN(i * 2, a) + ({ int t = i & 3; t == 0 ? 1 : t == 1 ? -1 : 0; });
	printf("acc %d\n", acc);

	/* A flag used as a once-only latch. */
	atomic_flag once = ATOMIC_FLAG_INIT; int first = 0;
	for (int i = 0; i < 10; i++) if (!atomic_flag_test_and_set(&once)) first = i + 100;
	printf("first %d\n", first);
	return 0;
}
