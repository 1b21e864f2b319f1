/* Sessions: frontend -> every receiver (see session.h). */
#include "ltpipe/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpipe/error.h"
#include "ltpipe/pipeline.h"

/* One receiver instance of a session. */
struct recv_inst {
	const struct lt_receiver_ops *ops; /* its callbacks */
	void *state;                       /* its instance */
	char *spec;                        /* owned copy of the option string */
	int failed;                        /* consume() returned non-zero */
};

struct lt_session {
	struct lt_frontend *fe;            /* decoder of the current trace */
	struct lt_frontend_config fecfg;   /* its settings (the next trace's,
	                                      but for the hart) */
	struct lt_decode_stats total;      /* totals of the finished traces;
	                                      at close, of all of them */
	struct lt_session_info info;       /* what receivers see */
	size_t nrecv;                      /* receivers */
	struct recv_inst recv[LT_MAX_RECEIVERS];
	struct lt_pipe *pipe;              /* ring to the receiver threads */
	int rc;                            /* first receiver error */
	unsigned ntraces;                  /* traces finished */
};

/* Frontend sink: events go through the ring to one thread per receiver
 * (a receiver that fails detaches; the others go on). */
static int dispatch(void *user, const struct lt_event *ev, size_t n)
{
	struct lt_session *s = user;
	if (s->pipe) {
		int rc = lt_pipe_push(s->pipe, ev, n);
		if (rc != 0 && !s->rc)
			s->rc = rc < 0 ? rc : LT_ERR_IO;
		return 0;
	}
	for (size_t i = 0; i < s->nrecv; i++) {
		struct recv_inst *r = &s->recv[i];
		if (r->failed)
			continue;
		int rc = r->ops->consume(r->state, ev, n);
		if (rc != 0) {
			r->failed = 1;
			if (!s->rc)
				s->rc = rc < 0 ? rc : LT_ERR_IO;
		}
	}
	return 0;
}

/* Splits "NAME:opts" (or "path.so:opts") and finds the ops. */
static const struct lt_receiver_ops *resolve(char *spec, char **opts,
                                             char *err, size_t errlen)
{
	char *colon = strchr(spec, ':');
	*opts = NULL;
	if (colon) {
		*colon = '\0';
		*opts = colon + 1;
	}
	if (strchr(spec, '/') || strstr(spec, ".so"))
		return lt_receiver_load(spec, err, errlen);
	const struct lt_receiver_ops *ops = lt_receiver_find(spec);
	if (!ops)
		snprintf(err, errlen, "unknown receiver '%s' (see ltpipe decode "
		         "--help)", spec);
	return ops;
}

static void close_all(struct lt_session *s, int incomplete, char *err,
                      size_t errlen, int *rc)
{
	for (size_t i = 0; i < s->nrecv; i++) {
		struct recv_inst *r = &s->recv[i];
		char e[256] = "";
		int x = r->ops->close(r->state, incomplete, e, sizeof(e));
		if (x < 0 && *rc == 0) {
			*rc = x;
			snprintf(err, errlen, "%s", e);
		}
		free(r->spec);
	}
	s->nrecv = 0;
}

struct lt_session *lt_session_open(const struct lt_session_config *cfg,
                                   int *code, char *err, size_t errlen)
{
	*code = LT_ERR_INVAL;
	struct lt_session *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->info.images = cfg->images;
	s->info.outdir = cfg->outdir;
	s->info.name = cfg->name ? cfg->name : "decode";
	s->info.same_run = cfg->same_run;
	s->fe = lt_frontend_new(&cfg->fe, cfg->images, dispatch, s, err, errlen);
	if (!s->fe) {
		free(s);
		return NULL;
	}
	s->fecfg = cfg->fe;
	s->info.stats = &s->total;
	for (size_t i = 0; i < cfg->nrecv && i < LT_MAX_RECEIVERS; i++) {
		struct recv_inst *r = &s->recv[s->nrecv];
		char *opts;
		struct lt_opts o;
		r->spec = strdup(cfg->recv[i]);
		if (!r->spec)
			goto fail;
		r->ops = resolve(r->spec, &opts, err, errlen);
		if (!r->ops) {
			free(r->spec);
			goto fail;
		}
		if (lt_opts_parse(opts, &o) < 0) {
			snprintf(err, errlen, "receiver %s: too many options",
			         r->ops->name);
			free(r->spec);
			goto fail;
		}
		int orc = r->ops->open(&r->state, &s->info, &o, err, errlen);
		if (orc < 0) {
			*code = orc == LT_ERR_IO ? LT_ERR_IO : LT_ERR_INVAL;
			free(r->spec);
			goto fail;
		}
		s->nrecv++;
	}
	if (s->nrecv) {
		struct lt_pipe_consumer cons[LT_MAX_RECEIVERS];
		for (size_t i = 0; i < s->nrecv; i++) {
			cons[i].fn = s->recv[i].ops->consume;
			cons[i].user = s->recv[i].state;
		}
		if (lt_pipe_open(&s->pipe, 1u << 16, cons, (unsigned)s->nrecv) < 0) {
			snprintf(err, errlen, "cannot start receiver threads");
			goto fail;
		}
		/* The frontend fills the ring's slots itself. */
		lt_frontend_set_ring(s->fe, lt_pipe_ring(s->pipe));
	}
	return s;
fail:
	/* Receivers already opened are discarded: nothing was decoded, and
	 * their empty outputs must not replace earlier good ones. */
	{
		char e2[8];
		int rc = 0;
		close_all(s, LT_CLOSE_DISCARD, e2, sizeof(e2), &rc);
	}
	lt_frontend_free(s->fe);
	free(s);
	return NULL;
}

int lt_session_feed(struct lt_session *s, const uint8_t *buf, size_t len)
{
	lt_frontend_feed(s->fe, buf, len);
	return s->rc;
}

/* Adds the totals of one trace's decode `b` to `a` (see lt_session_next:
 * counts add up, the first trace's resolved settings and errors come
 * first, the time span covers every trace, and the traces ended cleanly
 * only if each did). */
static void stats_add(struct lt_decode_stats *a, const struct lt_decode_stats *b,
                      int first)
{
	if (first) {
		*a = *b;
		return;
	}
	a->bytes += b->bytes;
	a->packets += b->packets;
	for (size_t k = 0; k < sizeof(a->pkt_type) / sizeof(a->pkt_type[0]); k++)
		a->pkt_type[k] += b->pkt_type[k];
	a->pkt_compressed += b->pkt_compressed;
	a->blocks += b->blocks;
	a->insns += b->insns;
	a->bytes_skipped += b->bytes_skipped;
	a->losses += b->losses;
	a->errors += b->errors;
	a->segments += b->segments;
	if (!a->syncs_ignored)
		a->ignored_target = b->ignored_target;
	a->syncs_ignored += b->syncs_ignored;
	if (b->segments && (!a->segments || b->first_time < a->first_time))
		a->first_time = b->first_time;
	if (b->last_time > a->last_time)
		a->last_time = b->last_time;
	a->ended = a->ended && b->ended;
	a->bp_loss |= b->bp_loss;
	for (unsigned i = 0; i < b->nkept && a->nkept < LT_MAX_KEPT_ERRORS; i++)
		a->err[a->nkept++] = b->err[i];
}

/* Ends the current frontend (its end-of-trace events go to the receivers)
 * and adds its totals to s->total; copies them to *st when st is given. */
static void finish_trace(struct lt_session *s, struct lt_decode_stats *st)
{
	lt_frontend_finish(s->fe);
	const struct lt_decode_stats *fs = lt_frontend_stats(s->fe);
	stats_add(&s->total, fs, s->ntraces == 0);
	s->ntraces++;
	if (st)
		*st = *fs;
}

int lt_session_next(struct lt_session *s, uint16_t hart,
                    struct lt_decode_stats *st, char *err, size_t errlen)
{
	struct lt_frontend_config fc = s->fecfg;
	fc.hart = hart;
	struct lt_frontend *fe = lt_frontend_new(&fc, s->info.images, dispatch,
	                                         s, err, errlen);
	if (!fe)
		return LT_ERR_NOMEM;
	finish_trace(s, st);
	lt_frontend_free(s->fe);
	s->fe = fe;
	if (s->pipe)
		lt_frontend_set_ring(s->fe, lt_pipe_ring(s->pipe));
	return s->rc;
}

void lt_session_images_changed(struct lt_session *s)
{
	lt_frontend_images_changed(s->fe);
}

int lt_session_close(struct lt_session *s, int incomplete,
                     struct lt_decode_stats *st, char *err, size_t errlen)
{
	struct lt_decode_stats last;
	finish_trace(s, &last);
	if (s->pipe) {
		int results[LT_MAX_RECEIVERS];
		int prc = lt_pipe_close(s->pipe, results);
		s->pipe = NULL;
		if (prc != 0 && !s->rc)
			s->rc = prc < 0 ? prc : LT_ERR_IO;
	}
	int rc = s->rc;
	if (rc)
		snprintf(err, errlen, "a receiver failed: %s", lt_errstr(rc));
	close_all(s, incomplete, err, errlen, &rc);
	if (st)
		*st = last;
	lt_frontend_free(s->fe);
	free(s);
	return rc;
}

const struct lt_decode_stats *lt_session_stats(const struct lt_session *s)
{
	return lt_frontend_stats(s->fe);
}
