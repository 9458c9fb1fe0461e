// SPDX-License-Identifier: GPL-2.0
/*
 * What "best" means. The default takes the lowest p99 stall episode among
 * the points whose wasted scanning is no worse than mainline's, so a
 * recommendation never buys latency with more scanning than today; the
 * others rank by one figure, or by a weighted sum of stall and waste, each
 * relative to mainline so the weights do not depend on the units. Ties fall
 * to the next figure and finally to the lower point number, so a sweep
 * always gives the same answer.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

int rr_objective_parse(const char *arg, struct rr_objective *o, char *err, size_t len)
{
	static const struct { const char *name; enum rr_objective_kind kind; } names[] = {
		{ "p99-capped", RR_OBJ_P99_CAPPED }, { "default", RR_OBJ_P99_CAPPED },
		{ "min-stall", RR_OBJ_MIN_STALL }, { "min-p99", RR_OBJ_MIN_P99 },
		{ "min-waste", RR_OBJ_MIN_WASTE },
	};
	double margin = o->margin;

	memset(o, 0, sizeof(*o));
	o->margin = margin;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(arg, names[i].name)) {
			o->kind = names[i].kind;
			snprintf(o->name, sizeof(o->name), "%s",
				 o->kind == RR_OBJ_P99_CAPPED ? "p99-capped" : names[i].name);
			return 0;
		}
	}
	if (!strncmp(arg, "weighted:", 9)) {
		char *end;
		double a = strtod(arg + 9, &end);

		if (end == arg + 9 || *end || !(a >= 0 && a <= 1))
			return fail(err, len, "--objective weighted:ALPHA wants ALPHA from 0 to 1, "
				    "got '%s'", arg + 9);
		o->kind = RR_OBJ_WEIGHTED;
		o->alpha = a;
		snprintf(o->name, sizeof(o->name), "weighted:%g", a);
		return 0;
	}
	return fail(err, len, "--objective wants p99-capped, min-stall, min-p99, min-waste or "
		    "weighted:ALPHA, got '%s'", arg);
}

void rr_objective_describe(const struct rr_objective *o, char *buf, size_t len)
{
	switch (o->kind) {
	case RR_OBJ_P99_CAPPED:
		snprintf(buf, len, "lowest p99 stall episode with wasted scanning no worse than "
			 "mainline's");
		break;
	case RR_OBJ_MIN_STALL:
		snprintf(buf, len, "lowest total stall");
		break;
	case RR_OBJ_MIN_P99:
		snprintf(buf, len, "lowest p99 stall episode");
		break;
	case RR_OBJ_MIN_WASTE:
		snprintf(buf, len, "least wasted scanning");
		break;
	case RR_OBJ_WEIGHTED:
		snprintf(buf, len, "lowest %g x stall/mainline + %g x waste/mainline", o->alpha,
			 1 - o->alpha);
		break;
	}
}

static double ratio(uint64_t v, uint64_t ref)
{
	return (double)v / (double)(ref ? ref : 1);
}

static double score(const struct rr_objective *o, const struct rr_sweep_fig *f,
		    const struct rr_sweep_fig *ref)
{
	return o->alpha * ratio(f->stall_ns, ref->stall_ns) +
	       (1 - o->alpha) * ratio(f->wasted, ref->wasted);
}

int rr_objective_feasible(const struct rr_objective *o, const struct rr_sweep_fig *f,
			  const struct rr_sweep_fig *ref)
{
	return o->kind != RR_OBJ_P99_CAPPED || f->wasted <= ref->wasted;
}

/* -1, 0, 1 as @a is below, equal to or above @b */
static int cmp(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

int rr_objective_better(const struct rr_objective *o, const struct rr_sweep_fig *a, uint32_t ia,
			const struct rr_sweep_fig *b, uint32_t ib, const struct rr_sweep_fig *ref)
{
	int fa = rr_objective_feasible(o, a, ref), fb = rr_objective_feasible(o, b, ref), c = 0;
	int keys[3];

	if (fa != fb)
		return fa;
	switch (o->kind) {
	case RR_OBJ_P99_CAPPED:
	case RR_OBJ_MIN_P99:
		keys[0] = cmp(a->p99_ns, b->p99_ns);
		keys[1] = cmp(a->stall_ns, b->stall_ns);
		keys[2] = cmp(a->wasted, b->wasted);
		break;
	case RR_OBJ_MIN_STALL:
		keys[0] = cmp(a->stall_ns, b->stall_ns);
		keys[1] = cmp(a->wasted, b->wasted);
		keys[2] = cmp(a->p99_ns, b->p99_ns);
		break;
	case RR_OBJ_MIN_WASTE:
		keys[0] = cmp(a->wasted, b->wasted);
		keys[1] = cmp(a->stall_ns, b->stall_ns);
		keys[2] = cmp(a->p99_ns, b->p99_ns);
		break;
	case RR_OBJ_WEIGHTED: {
		double sa = score(o, a, ref), sb = score(o, b, ref);

		keys[0] = sa < sb ? -1 : sa > sb;
		keys[1] = cmp(a->stall_ns, b->stall_ns);
		keys[2] = cmp(a->wasted, b->wasted);
		break;
	}
	}
	for (int k = 0; k < 3 && !c; k++)
		c = keys[k];
	return c ? c < 0 : ia < ib;
}

/* @v is worse than @ref by more than the margin (anything is worse than 0) */
static int worse(uint64_t v, uint64_t ref, double margin)
{
	return (double)v > (double)ref * (1 + margin);
}

int rr_objective_bad(const struct rr_objective *o, const struct rr_sweep_fig *f,
		     const struct rr_sweep_fig *ref)
{
	switch (o->kind) {
	case RR_OBJ_P99_CAPPED:
		return worse(f->p99_ns, ref->p99_ns, o->margin) ||
		       worse(f->wasted, ref->wasted, o->margin);
	case RR_OBJ_MIN_STALL:
		return worse(f->stall_ns, ref->stall_ns, o->margin);
	case RR_OBJ_MIN_P99:
		return worse(f->p99_ns, ref->p99_ns, o->margin);
	case RR_OBJ_MIN_WASTE:
		return worse(f->wasted, ref->wasted, o->margin);
	case RR_OBJ_WEIGHTED:
		return score(o, f, ref) > score(o, ref, ref) * (1 + o->margin);
	}
	return 0;
}
