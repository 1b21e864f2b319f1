/* jsonp: drives the parser over embedded documents, some malformed. */
#include <stdio.h>
#include <string.h>
#include "json.h"

static const char *const docs[] = {
	"{\"name\": \"widget\", \"id\": 1234, \"price\": 12.5e1, \"tags\": [\"a\", \"b\\n\", \"\\u0041\\u00e9\"],"
	" \"dims\": {\"w\": 3, \"h\": -4.25, \"d\": 1E-2}, \"ok\": true, \"none\": null}",
	"[1, 2, 3, [4, 5, [6, [7, [8, 9e0]]]], {\"x\": [], \"y\": {}}, false, true, \"\\\"q\\\"\"]",
	"{\"matrix\": [[1,0,0],[0,1,0],[0,0,1]], \"scale\": 2.5, \"label\": \"id\\tentity\\/x\"}",
	"{\"bad\": [1, 2,, 3]}",
	"{\"a\": tru}",
	"[\"unterminated]",
	"{\"k\": 1} trailing",
	"  \n\t[ -0.5 , 1e+3 , 2E2 , 12345678 , 0.000125 ]  ",
	"{\"deep\": {\"a\": {\"b\": {\"c\": {\"d\": {\"e\": {\"f\": [1, {\"g\": 2}]}}}}}}}",
};

/* Builds a bigger document: an array of records. */
static char big[24000];

static size_t put(size_t at, const char *s)
{
	size_t n = strlen(s);
	if (at + n + 1 >= sizeof big)
		return at;
	memcpy(big + at, s, n + 1);
	return at + n;
}

static void make_big(int records)
{
	char tmp[160];
	size_t at = put(0, "[");
	for (int r = 0; r < records; r++) {
		snprintf(tmp, sizeof tmp,
			 "%s{\"id\": %d, \"v\": %d.%02de%d, \"neg\": -%d, \"s\": \"r\\u00%02x%d\", \"f\": %s, \"l\": [%d, %d]}",
			 r ? ", " : "", r, r * 7 % 100, r % 100, r % 3, r * 13 % 97, 0x41 + r % 26, r,
			 (r & 1) ? "true" : "false", r % 5, r % 11);
		at = put(at, tmp);
	}
	put(at, "]");
}

typedef void (*report_fn)(int idx, struct jresult r);

static void report_short(int idx, struct jresult r)
{
	printf("doc %d: err=%d pos=%zu\n", idx, r.err, r.pos);
}

static void report_full(int idx, struct jresult r)
{
	double s = jsum(r.node);
	printf("doc %d: sum=%.4f depth=%d hash=%08x nums=%d strs=%d\n", idx, s,
	       jdepth(r.node), (unsigned)jkeyhash(r.node, 2166136261u),
	       jcount(r.node, J_NUM), jcount(r.node, J_STR));
}

int main(void)
{
	static const report_fn fns[2] = { report_short, report_full };
	unsigned ndocs = sizeof docs / sizeof docs[0];
	uint32_t total = 0;
	for (int rep = 0; rep < 3; rep++) {
		for (unsigned d = 0; d < ndocs; d++) {
			jreset();
			struct jresult r = jparse(docs[d]);
			if (rep == 0)
				fns[r.node >= 0](d, r);
			total = total * 33 + (uint32_t)r.pos + (uint32_t)r.err;
		}
	}
	make_big(60);
	for (int rep = 0; rep < 2; rep++) {
		jreset();
		struct jresult r = jparse(big);
		if (r.node < 0) {
			printf("big: error %d at %zu\n", r.err, r.pos);
			return 1;
		}
		total ^= jkeyhash(r.node, (uint32_t)rep);
		if (rep == 1)
			report_full(99, r);
	}
	printf("total=%08x\n", (unsigned)total);
	return 0;
}
