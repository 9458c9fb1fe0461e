// SPDX-License-Identifier: GPL-2.0
/*
 * Everything the sweep's writers show, computed once: per point the sums
 * over traces and nodes, per node id over traces, per trace over nodes; the
 * Pareto front; the recommendation under the objective, against mainline
 * (point 0); and its robustness, the rank it would have on each trace alone
 * and whether it loses badly to mainline there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"

static int nid_slot(const struct rr_sweep_analysis *a, int nid)
{
	for (int k = 0; k < a->nr_nids; k++)
		if (a->nids[k] == nid)
			return k;
	return -1;
}

static int collect_nids(const struct rr_sweep_data *d, struct rr_sweep_analysis *a)
{
	a->nids = calloc((size_t)(d->nr_cols ? d->nr_cols : 1), sizeof(*a->nids));
	if (!a->nids)
		return -ENOMEM;
	for (int t = 0; t < d->nr_traces; t++)
		for (int n = 0; n < d->trace[t].nr_nodes; n++) {
			int nid = d->trace[t].nid[n], k;

			if (nid_slot(a, nid) >= 0)
				continue;
			/* keep them in order */
			for (k = a->nr_nids; k > 0 && a->nids[k - 1] > nid; k--)
				a->nids[k] = a->nids[k - 1];
			a->nids[k] = nid;
			a->nr_nids++;
		}
	return 0;
}

static uint32_t best_on(const struct rr_sweep_data *d, const struct rr_objective *o,
			const struct rr_sweep_fig *figs, size_t stride)
{
	uint32_t best = 0;

	for (uint32_t p = 1; p < d->nr_points; p++)
		if (rr_objective_better(o, &figs[p * stride], p, &figs[best * stride], best,
					&figs[0]))
			best = p;
	return best;
}

static void robustness(const struct rr_sweep_data *d, struct rr_sweep_analysis *a)
{
	size_t nt = (size_t)d->nr_traces;
	uint32_t r = a->recommended;

	for (int t = 0; t < d->nr_traces; t++) {
		const struct rr_sweep_fig *figs = &a->per_trace[t];
		const struct rr_sweep_fig *ref = &figs[0], *rec = &figs[r * nt];
		struct rr_sweep_robust *rb = &a->robust[t];

		rb->rank = 1;
		for (uint32_t p = 0; p < d->nr_points; p++)
			if (p != r && rr_objective_better(&a->obj, &figs[p * nt], p, rec, r, ref))
				rb->rank++;
		rb->best = best_on(d, &a->obj, figs, nt);
		rb->rec = *rec;
		rb->ref = *ref;
		rb->bad = rr_objective_bad(&a->obj, rec, ref);
		a->nr_bad += rb->bad;
	}
}

static int hz_mixed(const struct rr_sweep_data *d)
{
	int jiffies = 0;

	for (int k = 0; k < d->spec.nr_params; k++)
		jiffies |= rr_sweep_param_uses_jiffies(&d->spec.param[k]);
	for (int t = 1; jiffies && t < d->nr_traces; t++)
		if (d->trace[t].hz != d->trace[0].hz)
			return 1;
	return 0;
}

int rr_sweep_analyze(const struct rr_sweep_data *d, const struct rr_objective *o,
		     struct rr_sweep_analysis *a)
{
	size_t np = d->nr_points, nt = (size_t)d->nr_traces;

	memset(a, 0, sizeof(*a));
	a->obj = *o;
	if (collect_nids(d, a))
		return -ENOMEM;
	a->total = calloc(np, sizeof(*a->total));
	a->per_trace = calloc(np * (nt ? nt : 1), sizeof(*a->per_trace));
	a->per_node = calloc(np * (size_t)(a->nr_nids ? a->nr_nids : 1), sizeof(*a->per_node));
	a->front = calloc(np, sizeof(*a->front));
	a->on_front = calloc(np, 1);
	a->robust = calloc(nt ? nt : 1, sizeof(*a->robust));
	if (!a->total || !a->per_trace || !a->per_node || !a->front || !a->on_front ||
	    !a->robust) {
		rr_sweep_analysis_release(a);
		return -ENOMEM;
	}
	for (uint32_t p = 0; p < np; p++) {
		for (int t = 0; t < d->nr_traces; t++) {
			const struct rr_sweep_trace *tr = &d->trace[t];

			for (int n = 0; n < tr->nr_nodes; n++) {
				const struct rr_sweep_fig *f;
				size_t k = (size_t)nid_slot(a, tr->nid[n]);

				f = rr_sweep_fig_at(d, p, tr->node_off + n);
				rr_sweep_fig_add(&a->total[p], f);
				rr_sweep_fig_add(&a->per_trace[p * nt + (size_t)t], f);
				rr_sweep_fig_add(&a->per_node[p * (size_t)a->nr_nids + k], f);
			}
		}
	}
	a->nr_front = rr_pareto_front(a->total, (uint32_t)np, a->front);
	for (uint32_t i = 0; i < a->nr_front; i++)
		a->on_front[a->front[i]] = 1;
	a->recommended = best_on(d, o, a->total, 1);
	robustness(d, a);
	a->hz_mixed = hz_mixed(d);
	return 0;
}

void rr_sweep_analysis_release(struct rr_sweep_analysis *a)
{
	free(a->total);
	free(a->per_trace);
	free(a->nids);
	free(a->per_node);
	free(a->front);
	free(a->on_front);
	free(a->robust);
	memset(a, 0, sizeof(*a));
}
