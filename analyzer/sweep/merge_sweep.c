// SPDX-License-Identifier: GPL-2.0
/*
 * `sweep` reports of several runs read back into one table: they must come
 * from the same sweep (same --vary, --set and sample, hence the same points),
 * and each brings its traces' columns. The analysis then runs as if one
 * sweep had covered every trace.
 */
#include <math.h>
#include <string.h>

#include "reclaim_replay/error.h"
#include "sweep/merge.h"

json_t *rr_merge_result(json_t *doc, const char *scope)
{
	json_t *r = json_array_get(json_object_get(doc, "results"), 0);
	const char *s = json_string_value(json_object_get(r, "scope"));

	return s && !strcmp(s, scope) ? r : NULL;
}

static uint64_t u64(json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));

	return v > 0 ? (uint64_t)v : 0;
}

static int bad(const char *path, const char *what)
{
	return rr_fail(RR_EXIT_BAD_INPUT, "'%s': %s", path, what);
}

/* The sweep's definition, from the first report. */
static int read_spec(struct rr_sweep_data *d, const char *path, json_t *r)
{
	json_t *params = json_object_get(r, "parameters"), *fixed = json_object_get(r, "fixed");
	json_t *sample = json_object_get(r, "sample"), *v;
	const char *method = json_string_value(json_object_get(sample, "method"));
	struct rr_sweep_spec *s = &d->spec;
	char err[512], arg[64];
	size_t i;

	if (!json_is_array(params) || !json_is_array(fixed) || !method ||
	    json_array_size(params) > RR_SWEEP_MAX_PARAMS ||
	    json_array_size(fixed) > RR_SWEEP_MAX_FIXED)
		return bad(path, "a sweep report without parameters, fixed or sample");
	json_array_foreach(params, i, v) {
		const char *vary = json_string_value(json_object_get(v, "vary"));

		if (!vary || rr_sweep_param_parse(vary, &s->param[i], err, sizeof(err)))
			return bad(path, "a sweep parameter this version cannot read");
	}
	s->nr_params = (int)json_array_size(params);
	json_array_foreach(fixed, i, v) {
		if (!json_is_string(v))
			return bad(path, "a fixed setting that is not a string");
		s->fixed[i] = json_string_value(v);
	}
	s->nr_fixed = (int)json_array_size(fixed);
	snprintf(arg, sizeof(arg), "%s:%llu", method, (unsigned long long)u64(sample, "points"));
	if (rr_sweep_sample_parse(strcmp(method, "grid") ? arg : method, s, err, sizeof(err)))
		return bad(path, "a sample method this version cannot read");
	s->seed = u64(sample, "seed");
	d->nr_points = (uint32_t)json_array_size(json_object_get(r, "points"));
	return 0;
}

/* Same parameters, settings, sample and points as the first report? */
static int same_sweep(json_t *a, json_t *b)
{
	static const char *const keys[] = { "parameters", "fixed", "sample" };
	json_t *pa = json_object_get(a, "points"), *pb = json_object_get(b, "points");

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		json_t *x = json_object_get(a, keys[k]), *y = json_object_get(b, keys[k]);

		/* "hz_dependent" and the rest are derived from "vary": compare all */
		if (!json_equal(x, y))
			return 0;
	}
	if (json_array_size(pa) != json_array_size(pb))
		return 0;
	for (size_t p = 0; p < json_array_size(pa); p++)
		if (!json_equal(json_object_get(json_array_get(pa, p), "coord"),
				json_object_get(json_array_get(pb, p), "coord")))
			return 0;
	return 1;
}

int rr_merge_sweep_add(struct rr_sweep_data *d, json_t *first, const char *path, json_t *doc)
{
	json_t *r = rr_merge_result(doc, "sweep"), *traces, *t;
	size_t i;

	if (!r)
		return bad(path, "not a sweep report (results[0].scope is not \"sweep\")");
	if (first == doc) {
		if (read_spec(d, path, r))
			return RR_EXIT_BAD_INPUT;
	} else if (!same_sweep(rr_merge_result(first, "sweep"), r)) {
		return rr_fail(RR_EXIT_BAD_INPUT, "'%s': a different sweep than the first report's "
			       "(parameters, --set, sample or points differ): run every trace "
			       "with the same sweep options", path);
	}
	traces = json_object_get(r, "traces");
	json_array_foreach(traces, i, t) {
		json_t *nids = json_object_get(t, "nids"), *n;
		const char *tp = json_string_value(json_object_get(t, "path"));
		int nid[256];
		size_t k;

		if (!tp || !json_is_array(nids) || json_array_size(nids) > 256)
			return bad(path, "a sweep trace without path or nids");
		json_array_foreach(nids, k, n)
			nid[k] = (int)json_integer_value(n);
		if (rr_sweep_data_add_trace(d, tp, (uint32_t)u64(t, "hz"),
					    (int)json_array_size(nids), nid, u64(t, "events")))
			return rr_fail(RR_EXIT_FAILURE, "out of memory");
	}
	return 0;
}

static void read_fig(struct rr_sweep_fig *f, json_t *o)
{
	f->stall_ns = u64(o, "stall_ns");
	f->p99_ns = u64(o, "p99_ns");
	f->episodes = u64(o, "episodes");
	f->sleep_ns = u64(o, "sleep_ns");
	f->scanned = u64(o, "scanned");
	f->reclaimed = u64(o, "reclaimed");
	f->wasted = u64(o, "wasted");
}

int rr_merge_sweep_fill(struct rr_sweep_data *d, int *trace, const char *path, json_t *doc)
{
	json_t *r = rr_merge_result(doc, "sweep"), *pts = json_object_get(r, "points");
	int nr = (int)json_array_size(json_object_get(r, "traces"));

	for (uint32_t p = 0; p < d->nr_points; p++) {
		json_t *pt = json_array_get(pts, p), *tr = json_object_get(pt, "traces");

		if (u64(pt, "id") != p || json_array_size(tr) != (size_t)nr)
			return bad(path, "sweep points out of order or without every trace");
		for (int k = 0; p && *trace == 0 && k < d->spec.nr_params; k++)
			d->coord[(size_t)p * d->spec.nr_params + k] =
				json_number_value(json_array_get(json_object_get(pt, "coord"), k));
		for (int t = 0; t < nr; t++) {
			const struct rr_sweep_trace *st = &d->trace[*trace + t];
			json_t *nodes = json_object_get(json_array_get(tr, t), "nodes");

			if (json_array_size(nodes) != (size_t)st->nr_nodes)
				return bad(path, "a sweep point without every node of its trace");
			for (int n = 0; n < st->nr_nodes; n++)
				read_fig(rr_sweep_fig_at(d, p, st->node_off + n),
					 json_array_get(nodes, n));
		}
	}
	*trace += nr;
	return 0;
}
