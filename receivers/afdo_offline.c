/* Profiles for the OFFLINE bodies of functions the profiled program ran
 * only inlined, two or more levels deep (gcc's .afdo, lines=gcc).
 *
 * gcc <= 14 annotates an inlined copy from the instance nested at its call
 * site only if the copy exists when the auto-profile pass annotates its
 * caller. That pass first inlines (auto_profile -> early_inline) the call
 * sites a function's top-level instance shows inlined and hot, but one
 * level: gcc 12's early inliner walks the caller's own call edges once
 * (param_early_inliner_max_iterations 1), and the calls the inlined body
 * brought in are edges of the inline clone. textfmt's main -> process ->
 * split_words -> utf8_next, all inlined in the profiled binary: process
 * was inlined by the ordinary early inliner, the pass inlined split_words
 * into main, and -fdump-ipa-afdo-details shows the call of utf8_next "not
 * considered for inlining" (the ordinary early inliner, working on
 * split_words' own body before main, found no top-level split_words
 * instance to ask). So the instance nested for utf8_next was never read:
 * the IPA inliner later inlined utf8_next's offline body, which had no
 * profile (the program never called it out of line), and its blocks kept
 * gcc's static guesses, scaled to the call's count.
 *
 * gcc 15's reader handles this itself: it merges an inline instance that
 * the compilation did not inline into the callee's top-level instance,
 * creating that one when missing (auto-profile.cc's offlining of
 * unrealized inlines). For gcc <= 14 the file says it: a function without
 * a top-level instance (never entered out of line, no code of its own
 * run) that is inlined two or more levels below a top-level function gets
 * a top-level instance, the sum of those instances (positions added as
 * gcc's function_instance::merge adds them, their call sites merged the
 * same way, call targets added) with head 0: it never was called, gcc
 * takes its body's counts from the lines and its call counts from the
 * callers' blocks. A copy the compilation does inline still reads its own
 * nested instance; the offline body, kept or inlined late, reads the sum.
 * Instances directly below a top-level one are left alone: the pass
 * inlines those itself when hot, and an offline instance for their
 * function only makes the ordinary early inliner build the whole inline
 * chain into that function's body first, which measured worse (textfmt's
 * process 59% -> 24%, wordfreq's split -71% -> -100%) though better
 * elsewhere (sched +33k instructions). Measured on the corpus
 * (scripts/afdo-parity.sh): textfmt 13% -> 59% of FDO's instruction
 * savings, dijkstra 66% -> 64%, interp2 131% -> 128%, the rest unchanged;
 * all 62 programs 75.2% -> 76.1%. Only written for lines=gcc: lines=max
 * stays create_gcov's profile. */
#include <stdlib.h>
#include <string.h>

#include "afdo.h"
#include "ltpipe/error.h"

/* Returns p's top-level instance of `name` if the gcc writer writes it
 * (it ran code or was entered), else NULL. */
static const struct afdo_inst *top_of(const struct afdo_prof *p,
                                      uint32_t name)
{
	int found;
	size_t at = afdo_inst_find(p, p->top, p->ntop, name, &found);
	if (!found)
		return NULL;
	return p->top[at]->total || p->top[at]->head ? p->top[at] : NULL;
}

/* Returns o's instance of `name`, creating it empty (head 0), or NULL
 * when out of memory. */
static struct afdo_inst *offline_get(const struct afdo_prof *p,
                                     struct afdo_offline *o, uint32_t name,
                                     uint32_t decl_line)
{
	return afdo_inst_get(p, &o->inst, &o->n, &o->cap, name, decl_line);
}

/* Adds src's written positions (their gcc counts) and call sites into
 * dst, whose positions are then all written (mid = count, not split).
 * Returns 0 or LT_ERR_NOMEM. */
static int merge(struct afdo_inst *dst, const struct afdo_inst *src)
{
	for (size_t i = 0; i < src->npos; i++) {
		const struct afdo_pos *s = &src->pos[i];
		if (!afdo_pos_written(s, AFDO_LINES_GCC))
			continue;
		struct afdo_pos *q = afdo_pos_get(dst, s->off, s->discr);
		if (!q)
			return LT_ERR_NOMEM;
		q->mid += s->mid;
		q->count += s->mid;
		for (size_t k = 0; k < s->ntgt; k++)
			if (afdo_target_add(q, s->tgt[k].name, s->tgt[k].count))
				return LT_ERR_NOMEM;
	}
	for (size_t i = 0; i < src->nsite; i++) {
		const struct afdo_site *s = &src->site[i];
		struct afdo_inst *c = afdo_site_get(dst, s->off, s->discr,
		                                    s->inst->name,
		                                    s->inst->decl_line);
		if (!c || merge(c, s->inst))
			return LT_ERR_NOMEM;
	}
	return 0;
}

/* Merges into o every instance inlined two or more levels below the top
 * (f at inline depth `depth`, a top-level instance's being 0) whose
 * function has no top-level instance. Returns 0 or LT_ERR_NOMEM. */
static int collect(const struct afdo_prof *p, struct afdo_offline *o,
                   const struct afdo_inst *f, int depth)
{
	for (size_t i = 0; i < f->nsite; i++) {
		const struct afdo_inst *c = f->site[i].inst;
		if (depth >= 1 && !top_of(p, c->name)) {
			struct afdo_inst *t = offline_get(p, o, c->name,
			                                  c->decl_line);
			if (!t || merge(t, c))
				return LT_ERR_NOMEM;
		}
		if (collect(p, o, c, depth + 1))
			return LT_ERR_NOMEM;
	}
	return 0;
}

int afdo_offline_build(const struct afdo_prof *p, struct afdo_offline *o)
{
	for (size_t i = 0; i < p->ntop; i++)
		if (top_of(p, p->top[i]->name) && collect(p, o, p->top[i], 0))
			return LT_ERR_NOMEM;
	for (size_t i = 0; i < o->n; i++)
		afdo_sum_totals(o->inst[i]);
	return 0;
}

void afdo_offline_free(struct afdo_offline *o)
{
	for (size_t i = 0; i < o->n; i++)
		afdo_inst_free(o->inst[i]);
	free(o->inst);
	memset(o, 0, sizeof(*o));
}
