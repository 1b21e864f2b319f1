/* bankacct: transaction processing with validation chains, early returns,
 * a switch on the transaction kind, first-iteration-special loops, small
 * inlined helpers and tail calls to an error reporter. */
#include <stdio.h>
#include <string.h>

#define NACCT 24
#define NTX 3000

enum kind { TX_DEPOSIT, TX_WITHDRAW, TX_TRANSFER, TX_FEE, TX_INTEREST, TX_CLOSE, TX_BOGUS };

struct account {
	long balance;
	int open;
	int frozen;
	int ntx;
	long limit;
};

struct tx {
	int kind;
	int from;
	int to;
	long amount;
};

static struct account accts[NACCT];
static unsigned long seed = 12345;
static int errcount[8];
static long audit;

static unsigned lcg(void)
{
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(seed >> 33);
}

static inline int valid_id(int id) { return id >= 0 && id < NACCT; }
static inline long absl(long v) { return v < 0 ? -v : v; }
static inline int is_usable(const struct account *a) { return a->open && !a->frozen; }

__attribute__((noinline)) static int report(int code, int id)
{
	errcount[code & 7]++;
	audit += code * 31 + id;
	return -code;
}

static int check_amount(long amount)
{
	if (amount <= 0) return -1;
	if (amount > 100000) return -2;
	if (amount % 7 == 3) return -3;
	return 0;
}

static int validate(const struct tx *t)
{
	if (!valid_id(t->from)) return report(1, t->from);
	if (t->kind == TX_TRANSFER && !valid_id(t->to)) return report(2, t->to);
	if (t->kind == TX_TRANSFER && t->from == t->to) return report(3, t->to);
	if (!accts[t->from].open) return report(4, t->from);
	if (accts[t->from].frozen && t->kind != TX_DEPOSIT) return report(5, t->from);
	if (t->kind != TX_INTEREST && t->kind != TX_CLOSE && check_amount(t->amount) < 0)
		return report(6, (int)absl(t->amount) & 0xff);
	return 0;
}

static int withdraw(struct account *a, long amount)
{
	if (amount > a->balance + a->limit) return -1;
	a->balance -= amount;
	a->ntx++;
	return 0;
}

static int apply(const struct tx *t)
{
	struct account *a = &accts[t->from];
	int r = validate(t);
	if (r) return r;
	switch (t->kind) {
	case TX_DEPOSIT:
		a->balance += t->amount;
		a->ntx++;
		break;
	case TX_WITHDRAW:
		if (withdraw(a, t->amount)) return report(7, t->from);
		break;
	case TX_TRANSFER:
		if (!is_usable(&accts[t->to])) return report(2, t->to);
		if (withdraw(a, t->amount)) return report(7, t->from);
		accts[t->to].balance += t->amount;
		accts[t->to].ntx++;
		break;
	case TX_FEE:
		a->balance -= t->amount / 100 + 1;
		break;
	case TX_INTEREST:
		if (a->balance > 0) a->balance += a->balance / 200;
		else a->balance -= absl(a->balance) / 50;
		break;
	case TX_CLOSE:
		if (a->balance != 0) return report(0, t->from);
		a->open = 0;
		break;
	default:
		return -2;
	}
	return 0;
}

static void gen_tx(struct tx *t)
{
	unsigned r = lcg();
	t->kind = (int)(r % 7);
	if (r % 97 == 0) t->kind = TX_CLOSE;
	t->from = (int)(lcg() % (NACCT + 2)) - 1;
	t->to = (int)(lcg() % (NACCT + 1));
	t->amount = (long)(lcg() % 5000) - 100;
	if ((r >> 8) % 13 == 0) t->amount *= 40;
}

static long running_max_gap(void)
{
	long best = 0, prev = 0;
	for (int i = 0; i < NACCT; i++) {
		long b = accts[i].balance;
		if (i == 0) { prev = b; continue; }
		long gap = absl(b - prev);
		if (gap > best) best = gap;
		prev = b;
	}
	return best;
}

static int first_negative(void)
{
	for (int i = 0; i < NACCT; i++) {
		if (!accts[i].open) continue;
		if (accts[i].balance < 0) return i;
	}
	return -1;
}

static void print_csv(void)
{
	char line[512];
	int pos = 0;
	for (int i = 0; i < NACCT; i += 3) {
		if (i == 0) {
			pos += snprintf(line + pos, sizeof line - (size_t)pos, "%ld", accts[i].balance);
			continue;
		}
		pos += snprintf(line + pos, sizeof line - (size_t)pos, ",%ld", accts[i].balance);
	}
	printf("csv: %s\n", line);
}

static int reconcile(long expect)
{
	long sum = 0;
	for (int i = 0; i < NACCT; i++) sum += accts[i].balance;
	if (sum == expect) return 0;
	return report(0, (int)((sum - expect) & 0x7f));
}

static int freeze_pass(int round)
{
	int n = 0;
	for (int i = 0; i < NACCT; i++) {
		struct account *a = &accts[i];
		if (!a->open) continue;
		if (a->balance < -a->limit / 2) { a->frozen = 1; n++; continue; }
		if (a->frozen && (round & 1) && a->balance >= 0) { a->frozen = 0; n--; }
	}
	return n;
}

int main(void)
{
	int results[9];
	memset(results, 0, sizeof results);
	for (int i = 0; i < NACCT; i++) {
		accts[i].balance = (long)(lcg() % 10000);
		accts[i].open = (i % 11) != 10;
		accts[i].limit = (i % 4) * 500;
	}
	for (int round = 0; round < 6; round++) {
		for (int k = 0; k < NTX / 6; k++) {
			struct tx t;
			gen_tx(&t);
			int r = apply(&t);
			if (r < -8) r = -8;
			results[-r]++;
		}
		int fz = freeze_pass(round);
		printf("round %d: frozen delta %d maxgap %ld firstneg %d\n", round, fz,
		       running_max_gap(), first_negative());
	}
	for (int i = 0; i < 9; i++) printf("result %d: %d\n", -i, results[i]);
	for (int i = 0; i < 8; i++) printf("err %d: %d\n", i, errcount[i]);
	long total = 0;
	for (int i = 0; i < NACCT; i++) total += accts[i].balance;
	printf("reconcile ok=%d bad=%d\n", reconcile(total), reconcile(total + 5));
	print_csv();
	struct tx bad = { TX_BOGUS, 1, 2, 50 };
	accts[1].open = 1; accts[1].frozen = 0;
	printf("bogus: %d\n", apply(&bad));
	printf("total %ld audit %ld\n", total, audit);
	return 0;
}
