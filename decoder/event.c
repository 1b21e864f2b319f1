/* Names of block event kinds, shared by every receiver. */
#include "ltpipe/event.h"

const char *lt_event_kind_name(int kind)
{
	static const char *const names[LT_EV_KIND_COUNT] = {
		"taken",     "not-taken", "jump",  "ijump", "exception",
		"interrupt", "tret",      "start", "end",   "lost",
		"sync"};
	return kind >= 0 && kind < LT_EV_KIND_COUNT ? names[kind] : "?";
}
