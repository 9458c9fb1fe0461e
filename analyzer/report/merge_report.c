// SPDX-License-Identifier: GPL-2.0
/*
 * `merge` of replay reports as JSON and table: per policy the sums over
 * every node of every trace, per node id, and the spread over traces, all
 * from struct rr_merge_replay (a merge of sweeps is a sweep: sweep_report.c).
 */
#include <stdio.h>

#include "report/sweep_report.h"
#include "report/text_util.h"

#define I(x) json_integer((json_int_t)(x))

static json_t *fig_json(const struct rr_sweep_fig *f, int sum)
{
	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "stall_ns", (json_int_t)f->stall_ns,
			 sum ? "max_node_p99_ns" : "p99_ns", (json_int_t)f->p99_ns,
			 "episodes", (json_int_t)f->episodes, "sleep_ns", (json_int_t)f->sleep_ns,
			 "scanned", (json_int_t)f->scanned, "reclaimed", (json_int_t)f->reclaimed,
			 "wasted", (json_int_t)f->wasted);
}

static json_t *dist_json(const struct rr_merge_dist *d)
{
	return json_pack("{s:I,s:I,s:I,s:I,s:f}", "min", (json_int_t)d->min, "p50",
			 (json_int_t)d->p50, "p90", (json_int_t)d->p90, "max", (json_int_t)d->max,
			 "mean", d->mean);
}

json_t *rr_merge_replay_json(const struct rr_merge_replay *m)
{
	json_t *o = json_object(), *pols = json_array();

	json_object_set_new(o, "scope", json_string("replay"));
	json_object_set_new(o, "traces", I(m->nr_traces));
	for (int p = 0; p < m->nr_policies; p++) {
		const struct rr_merge_policy *pol = &m->pol[p];
		json_t *po = json_object(), *nodes = json_array(), *per = json_array();

		json_object_set_new(po, "label", json_string(pol->label));
		json_object_set_new(po, "totals", fig_json(&pol->total, 1));
		for (int k = 0; k < m->nr_nids; k++) {
			json_t *n = fig_json(&pol->per_node[k], 1);

			json_object_set_new(n, "nid", I(m->nids[k]));
			json_array_append_new(nodes, n);
		}
		json_object_set_new(po, "nodes", nodes);
		for (int t = 0; t < m->nr_traces; t++) {
			json_t *f = fig_json(&pol->per_trace[t], 1);

			json_object_set_new(f, "input", I(t));
			json_array_append_new(per, f);
		}
		json_object_set_new(po, "per_trace", per);
		json_object_set_new(po, "over_traces", json_pack("{s:o,s:o,s:o}",
			"stall_ns", dist_json(&pol->stall), "max_node_p99_ns", dist_json(&pol->p99),
			"wasted", dist_json(&pol->wasted)));
		json_array_append_new(pols, po);
	}
	json_object_set_new(o, "policies", pols);
	return o;
}

void rr_merge_replay_print(FILE *out, const struct rr_merge_replay *m, int color)
{
	rr_heading(out, color, "merged replay: %d trace%s, %d node id%s", m->nr_traces,
		   m->nr_traces == 1 ? "" : "s", m->nr_nids, m->nr_nids == 1 ? "" : "s");
	fprintf(out, "sums over every node of every trace; p99 is the largest node p99\n");
	fprintf(out, "%-34s %12s %10s %14s %14s\n", "policy", "stall ms", "p99 ms", "wasted pages",
		"scanned");
	for (int p = 0; p < m->nr_policies; p++) {
		const struct rr_sweep_fig *f = &m->pol[p].total;

		fprintf(out, "%-34.34s %12.1f %10.2f %14llu %14llu\n", m->pol[p].label,
			rr_ms(f->stall_ns), rr_ms(f->p99_ns), (unsigned long long)f->wasted,
			(unsigned long long)f->scanned);
	}
	fprintf(out, "\n");
	rr_heading(out, color, "per node id, summed over traces");
	for (int k = 0; k < m->nr_nids; k++)
		for (int p = 0; p < m->nr_policies; p++) {
			const struct rr_sweep_fig *f = &m->pol[p].per_node[k];

			fprintf(out, "node %-3d %-25.25s %12.1f %10.2f %14llu %14llu\n", m->nids[k],
				m->pol[p].label, rr_ms(f->stall_ns), rr_ms(f->p99_ns),
				(unsigned long long)f->wasted, (unsigned long long)f->scanned);
		}
	fprintf(out, "\n");
	rr_heading(out, color, "spread over traces (each trace summed over its nodes)");
	fprintf(out, "%-26s %-8s %11s %11s %11s %11s %11s\n", "policy", "figure", "min", "p50",
		"p90", "max", "mean");
	for (int p = 0; p < m->nr_policies; p++) {
		const struct rr_merge_policy *pol = &m->pol[p];
		const struct rr_merge_dist *dist[3] = { &pol->stall, &pol->p99, &pol->wasted };
		static const char *const name[3] = { "stall ms", "p99 ms", "wasted" };
		static const double div[3] = { 1e6, 1e6, 1 };

		for (int r = 0; r < 3; r++)
			fprintf(out, "%-26.26s %-8s %11.1f %11.1f %11.1f %11.1f %11.1f\n",
				r ? "" : pol->label, name[r], (double)dist[r]->min / div[r],
				(double)dist[r]->p50 / div[r], (double)dist[r]->p90 / div[r],
				(double)dist[r]->max / div[r], dist[r]->mean / div[r]);
	}
}
