/* --format names of the trace variants (include/ltpipe/packet.h). */
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/packet.h"

/* Names indexed by enum lt_format; the order is the one --help lists. */
static const char *const format_names[LT_FMT_COUNT] = {
	[LT_FMT_TACIT] = "tacit",
	[LT_FMT_TACIT_OCT2025] = "tacit-oct2025",
	[LT_FMT_TACIT_2025] = "tacit-2025",
	[LT_FMT_TACIT_2025_UNSHIFTED] = "tacit-2025-unshifted",
	[LT_FMT_SPIKE_2025] = "spike-2025",
	[LT_FMT_SPIKE_2025_02] = "spike-2025-02",
	[LT_FMT_SPIKE_ARMED] = "spike-armed",
};

int lt_format_parse(const char *name)
{
	int i;

	if (!name)
		return LT_ERR_BAD_FORMAT;
	if (strcmp(name, "auto") == 0)
		return LT_FMT_AUTO;
	for (i = 0; i < LT_FMT_COUNT; i++)
		if (strcmp(name, format_names[i]) == 0)
			return i;
	return LT_ERR_BAD_FORMAT;
}

const char *lt_format_name(int fmt)
{
	if (fmt == LT_FMT_AUTO)
		return "auto";
	if (fmt < 0 || fmt >= LT_FMT_COUNT)
		return "?";
	return format_names[fmt];
}
