/* Socket address strings ("tcp:HOST:PORT"), shared by the daemon's
 * listeners and the sink's dialer so both read them the same way. */
#include <string.h>

#include "ltpipe/proto.h"

int lt_proto_hostport(const char *spec, char *host, size_t hostlen,
                      const char **port)
{
	const char *colon = strrchr(spec, ':');
	if (!colon || !colon[1] || (size_t)(colon - spec) >= hostlen)
		return -1;
	size_t n = (size_t)(colon - spec);
	const char *h = spec;
	if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
		h++;
		n -= 2;
	}
	if (n == 0) {
		h = "127.0.0.1";
		n = strlen(h);
	}
	memcpy(host, h, n);
	host[n] = '\0';
	*port = colon + 1;
	return 0;
}
