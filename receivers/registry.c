/* The receiver registry (built-ins and plugins) and option helpers. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/receiver.h"

extern const struct lt_receiver_ops lt_receiver_txt;
extern const struct lt_receiver_ops lt_receiver_json;
extern const struct lt_receiver_ops lt_receiver_stats;
extern const struct lt_receiver_ops lt_receiver_null;
extern const struct lt_receiver_ops lt_receiver_gcda;
extern const struct lt_receiver_ops lt_receiver_afdo;

static const struct lt_receiver_ops *const builtins[] = {
	&lt_receiver_txt,
	&lt_receiver_json,
	&lt_receiver_stats,
	&lt_receiver_gcda,
	&lt_receiver_afdo,
	&lt_receiver_null,
	NULL,
};

const struct lt_receiver_ops *const *lt_receiver_list(void)
{
	return builtins;
}

const struct lt_receiver_ops *lt_receiver_find(const char *name)
{
	for (size_t i = 0; builtins[i]; i++)
		if (strcmp(builtins[i]->name, name) == 0)
			return builtins[i];
	return NULL;
}

const struct lt_receiver_ops *lt_receiver_load(const char *path, char *err,
                                               size_t errlen)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen, "%s: cannot load receiver plugin: %s", path,
		         dlerror());
		return NULL;
	}
	const struct lt_receiver_ops *(*entry)(void);
	void *sym = dlsym(h, LT_RECEIVER_PLUGIN_SYMBOL);
	if (!sym) {
		snprintf(err, errlen, "%s: no %s entry point", path,
		         LT_RECEIVER_PLUGIN_SYMBOL);
		dlclose(h);
		return NULL;
	}
	memcpy(&entry, &sym, sizeof(entry));
	const struct lt_receiver_ops *ops = entry();
	if (!ops || ops->abi != LT_RECEIVER_ABI || !ops->name || !ops->open ||
	    !ops->consume || !ops->close) {
		snprintf(err, errlen,
		         "%s: plugin ABI %d does not match ltpipe's %d or its ops "
		         "are incomplete", path, ops ? ops->abi : -1,
		         LT_RECEIVER_ABI);
		dlclose(h);
		return NULL;
	}
	/* The handle stays open for the life of the process: the ops live in
	 * it. */
	return ops;
}

const char *lt_opts_get(const struct lt_opts *o, const char *key)
{
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->key[i], key) == 0)
			return o->val[i];
	return NULL;
}

int lt_opts_check(const struct lt_opts *o, const char *receiver,
                  const char *const *allowed, char *err, size_t errlen)
{
	for (size_t i = 0; i < o->n; i++) {
		size_t k = 0;
		while (allowed[k] && strcmp(allowed[k], o->key[i]) != 0)
			k++;
		if (!allowed[k]) {
			snprintf(err, errlen, "receiver %s: unknown option '%s'",
			         receiver, o->key[i]);
			return LT_ERR_INVAL;
		}
	}
	return 0;
}

int lt_opts_parse(char *s, struct lt_opts *o)
{
	o->n = 0;
	if (!s || !*s)
		return 0;
	for (char *tok = s; tok;) {
		char *comma = strchr(tok, ',');
		if (comma)
			*comma = '\0';
		if (*tok) {
			if (o->n == LT_MAX_OPTS)
				return LT_ERR_INVAL;
			char *eq = strchr(tok, '=');
			o->key[o->n] = tok;
			o->val[o->n] = "";
			if (eq) {
				*eq = '\0';
				o->val[o->n] = eq + 1;
			}
			o->n++;
		}
		tok = comma ? comma + 1 : NULL;
	}
	return 0;
}
