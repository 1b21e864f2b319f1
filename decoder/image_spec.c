/* "PROG[:prv=P,ctx=N]" image selectors (see frontend.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/frontend.h"

/* Parses one "prv=P" or "ctx=N" token of len bytes. Returns 0 or -1. */
static int parse_token(const char *tok, size_t len, int *prv, int64_t *ctx)
{
	if (len == 5 && !strncmp(tok, "prv=", 4)) {
		switch (tok[4]) {
		case 'U': *prv = 0; return 0;
		case 'S': *prv = 1; return 0;
		case 'M': *prv = 3; return 0;
		default: return -1;
		}
	}
	if (len > 4 && !strncmp(tok, "ctx=", 4)) {
		char num[24], *end;
		if (len - 4 >= sizeof(num))
			return -1;
		memcpy(num, tok + 4, len - 4);
		num[len - 4] = '\0';
		if (num[0] == '-')
			return -1;
		*ctx = strtoll(num, &end, 0);
		return *end || *ctx < 0 ? -1 : 0;
	}
	return -1;
}

int lt_image_spec_parse(const char *spec, char *path, size_t cap, int *prv,
                        int64_t *ctx)
{
	*prv = -1;
	*ctx = -1;
	const char *colon = strrchr(spec, ':');
	size_t plen = strlen(spec);
	if (colon && (strstr(colon, "prv=") || strstr(colon, "ctx="))) {
		plen = (size_t)(colon - spec);
		for (const char *t = colon + 1; *t;) {
			size_t n = strcspn(t, ",");
			if (parse_token(t, n, prv, ctx) < 0)
				return -1;
			t += n;
			if (*t == ',' && !*++t)
				return -1;
		}
	}
	if (plen == 0 || plen >= cap)
		return -1;
	memcpy(path, spec, plen);
	path[plen] = '\0';
	return 0;
}
