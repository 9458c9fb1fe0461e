// SPDX-License-Identifier: GPL-2.0
/*
 * `replay` reports of several runs summed as one run over every trace would
 * show them: per policy, the sums over every node of every trace, per node
 * id over traces, and how the per-trace figures spread over the traces.
 * Every report must have replayed the same policies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reclaim_replay/error.h"
#include "sort_u64.h"
#include "sweep/merge.h"

static uint64_t u64(json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));

	return v > 0 ? (uint64_t)v : 0;
}

static void read_fig(struct rr_sweep_fig *f, json_t *o)
{
	json_t *th = json_object_get(o, "throttles"), *r;
	const char *k;

	memset(f, 0, sizeof(*f));
	f->stall_ns = u64(o, "stall_ns");
	f->p99_ns = u64(json_object_get(o, "episodes"), "p99_ns");
	f->episodes = u64(json_object_get(o, "episodes"), "completed");
	json_object_foreach(th, k, r)
		f->sleep_ns += u64(r, "sleep_ns");
	f->scanned = u64(o, "scanned");
	f->reclaimed = u64(o, "reclaimed");
	f->wasted = u64(o, "wasted");
}

static int policy_index(const struct rr_merge_replay *m, const char *label)
{
	for (int p = 0; p < m->nr_policies; p++)
		if (!strcmp(m->pol[p].label, label))
			return p;
	return -1;
}

static int nid_index(struct rr_merge_replay *m, int nid)
{
	int k;

	for (k = 0; k < m->nr_nids; k++)
		if (m->nids[k] == nid)
			return k;
	if (m->nr_nids == (int)(sizeof(m->nids) / sizeof(m->nids[0])))
		return -1;
	/* keep them in order; shift the sums of the nodes above */
	for (k = m->nr_nids; k > 0 && m->nids[k - 1] > nid; k--) {
		m->nids[k] = m->nids[k - 1];
		for (int p = 0; p < m->nr_policies; p++)
			m->pol[p].per_node[k] = m->pol[p].per_node[k - 1];
	}
	m->nids[k] = nid;
	for (int p = 0; p < m->nr_policies; p++)
		memset(&m->pol[p].per_node[k], 0, sizeof(m->pol[p].per_node[k]));
	m->nr_nids++;
	return k;
}

/* The first report's policies, from its first result's first node. */
static int read_policies(struct rr_merge_replay *m, const char *path, json_t *pols)
{
	const char *label;
	json_t *v;
	int n = 0;

	m->pol = calloc(json_object_size(pols) + 1, sizeof(*m->pol));
	if (!m->pol)
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	json_object_foreach(pols, label, v) {
		struct rr_merge_policy *p = &m->pol[n++];

		snprintf(p->label, sizeof(p->label), "%s", label);
		p->per_node = calloc(sizeof(m->nids) / sizeof(m->nids[0]), sizeof(*p->per_node));
		if (!p->per_node)
			return rr_fail(RR_EXIT_FAILURE, "out of memory");
	}
	m->nr_policies = n;
	if (!n)
		return rr_fail(RR_EXIT_BAD_INPUT, "'%s': a replay report without policies", path);
	return 0;
}

static int same_policies(const struct rr_merge_replay *m, json_t *pols)
{
	const char *label;
	json_t *v;

	if (json_object_size(pols) != (size_t)m->nr_policies)
		return 0;
	json_object_foreach(pols, label, v)
		if (policy_index(m, label) < 0)
			return 0;
	return 1;
}

static int add_trace(struct rr_merge_replay *m, const char *tp)
{
	char **n = realloc(m->trace, (size_t)(m->nr_traces + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	m->trace = n;
	m->trace[m->nr_traces] = strdup(tp ? tp : "?");
	if (!m->trace[m->nr_traces])
		return -ENOMEM;
	for (int p = 0; p < m->nr_policies; p++) {
		struct rr_sweep_fig *f = realloc(m->pol[p].per_trace,
						 (size_t)(m->nr_traces + 1) * sizeof(*f));

		if (!f)
			return -ENOMEM;
		memset(&f[m->nr_traces], 0, sizeof(*f));
		m->pol[p].per_trace = f;
	}
	m->nr_traces++;
	return 0;
}

int rr_merge_replay_add(struct rr_merge_replay *m, int first, const char *path, json_t *doc)
{
	json_t *results = json_object_get(doc, "results"), *inputs = json_object_get(doc, "inputs");
	json_t *r;
	size_t i;

	if (!json_is_array(results) || !json_array_size(results))
		return rr_fail(RR_EXIT_BAD_INPUT, "'%s': a replay report without results", path);
	json_array_foreach(results, i, r) {
		json_t *nodes = json_object_get(r, "nodes"), *node;
		json_t *in = json_array_get(inputs, (size_t)json_integer_value(
						     json_object_get(r, "input")));
		int t = m->nr_traces;
		size_t k;

		if (!json_is_array(nodes) || !json_array_size(nodes))
			return rr_fail(RR_EXIT_BAD_INPUT, "'%s': replay result %zu has no nodes",
				       path, i);
		if (first && !i && read_policies(m, path, json_object_get(
						 json_array_get(nodes, 0), "policies")))
			return RR_EXIT_BAD_INPUT;
		if (add_trace(m, json_string_value(json_object_get(in, "path"))))
			return rr_fail(RR_EXIT_FAILURE, "out of memory");
		json_array_foreach(nodes, k, node) {
			json_t *pols = json_object_get(node, "policies"), *v;
			json_int_t nid = json_integer_value(json_object_get(node, "nid"));
			int slot = nid_index(m, (int)nid);
			const char *label;

			if (slot < 0)
				return rr_fail(RR_EXIT_BAD_INPUT, "'%s': too many nodes", path);
			if (!same_policies(m, pols))
				return rr_fail(RR_EXIT_BAD_INPUT,
					       "'%s': replayed other policies than the first "
					       "report (%s, ...): run every trace with the same "
					       "-P and --set options", path, m->pol[0].label);
			json_object_foreach(pols, label, v) {
				struct rr_merge_policy *p = &m->pol[policy_index(m, label)];
				struct rr_sweep_fig f;

				read_fig(&f, v);
				rr_sweep_fig_add(&p->total, &f);
				rr_sweep_fig_add(&p->per_node[slot], &f);
				rr_sweep_fig_add(&p->per_trace[t], &f);
			}
		}
	}
	return 0;
}

static void dist(struct rr_merge_dist *d, uint64_t *v, size_t n)
{
	double sum = 0;

	rr_sort_u64(v, n);
	for (size_t i = 0; i < n; i++)
		sum += (double)v[i];
	d->min = n ? v[0] : 0;
	d->p50 = rr_percentile_u64(v, n, 50);
	d->p90 = rr_percentile_u64(v, n, 90);
	d->max = n ? v[n - 1] : 0;
	d->mean = n ? sum / (double)n : 0;
}

int rr_merge_replay_finish(struct rr_merge_replay *m)
{
	uint64_t *v = malloc((size_t)(m->nr_traces ? m->nr_traces : 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (int p = 0; p < m->nr_policies; p++) {
		struct rr_merge_policy *pol = &m->pol[p];

		for (int t = 0; t < m->nr_traces; t++)
			v[t] = pol->per_trace[t].stall_ns;
		dist(&pol->stall, v, (size_t)m->nr_traces);
		for (int t = 0; t < m->nr_traces; t++)
			v[t] = pol->per_trace[t].p99_ns;
		dist(&pol->p99, v, (size_t)m->nr_traces);
		for (int t = 0; t < m->nr_traces; t++)
			v[t] = pol->per_trace[t].wasted;
		dist(&pol->wasted, v, (size_t)m->nr_traces);
	}
	free(v);
	return 0;
}

void rr_merge_replay_release(struct rr_merge_replay *m)
{
	for (int t = 0; t < m->nr_traces; t++)
		free(m->trace[t]);
	free(m->trace);
	for (int p = 0; m->pol && p < m->nr_policies; p++) {
		free(m->pol[p].per_node);
		free(m->pol[p].per_trace);
	}
	free(m->pol);
	memset(m, 0, sizeof(*m));
}
