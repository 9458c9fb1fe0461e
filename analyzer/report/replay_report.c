// SPDX-License-Identifier: GPL-2.0
/* `replay` results: per node and policy, with differences to `recorded`. */
#include "reclaim_replay/replay.h"
#include "reclaim_replay/report.h"
#include "report/text_util.h"

#define I(x) ((json_int_t)(x))

static uint64_t sleep_ns(const struct rr_replay_node *n)
{
	uint64_t t = 0;

	for (int k = 0; k < RR_NR_REASONS; k++)
		t += n->sleeps[k].sleep_ns;
	return t;
}

static uint64_t sleep_count(const struct rr_replay_node *n)
{
	uint64_t t = 0;

	for (int k = 0; k < RR_NR_REASONS; k++)
		t += n->sleeps[k].count;
	return t;
}

static json_t *sleeps_json(const struct rr_sleep_stats *s)
{
	json_t *o = json_object();

	for (int k = 0; k < RR_NR_REASONS; k++)
		json_object_set_new(o, rr_reason_name(k), json_pack("{s:I,s:I,s:I,s:I}",
			"count", I(s[k].count), "sleep_ns", I(s[k].sleep_ns),
			"woken", I(s[k].woken), "timed_out", I(s[k].timed_out)));
	return o;
}

static json_t *node_policy_json(const struct rr_replay_node *n, const struct rr_replay_node *base)
{
	double eff = n->scanned ? (double)n->reclaimed / (double)n->scanned : 0.0;

	return json_pack("{s:I,s:{s:I,s:I,s:I,s:I,s:I},s:o,s:o,s:I,s:I,s:I,s:f,s:I,s:I,"
			 "s:I,s:{s:I,s:I},s:{s:I,s:I,s:I,s:I,s:I}}",
		"stall_ns", I(n->stall_ns),
		"episodes", "completed", I(n->stall.count), "p50_ns", I(n->stall.p50_ns),
		"p90_ns", I(n->stall.p90_ns), "p99_ns", I(n->stall.p99_ns),
		"max_ns", I(n->stall.max_ns),
		"throttles", sleeps_json(n->sleeps),
		"kswapd_throttles", sleeps_json(n->kswapd_sleeps),
		"scanned", I(n->scanned), "reclaimed", I(n->reclaimed), "wasted", I(n->wasted),
		"efficiency", eff,
		"batches", I(n->batches), "unproductive_batches", I(n->unproductive_batches),
		"retry_batches", I(n->retry_batches),
		"decisions", "observed", I(n->decisions_observed), "latent", I(n->decisions_latent),
		"vs_recorded", "stall_ns", I((int64_t)n->stall_ns - (int64_t)base->stall_ns),
		"p99_ns", I((int64_t)n->stall.p99_ns - (int64_t)base->stall.p99_ns),
		"sleep_ns", I((int64_t)sleep_ns(n) - (int64_t)sleep_ns(base)),
		"wasted", I((int64_t)n->wasted - (int64_t)base->wasted),
		"scanned", I((int64_t)n->scanned - (int64_t)base->scanned));
}

json_t *rr_replay_json(const struct rr_replay_result *r, int nr, const struct rr_input *in)
{
	json_t *o = json_object(), *nodes = json_array();
	int hz_inferred;
	uint32_t hz = rr_model_hz(in->model, &hz_inferred);

	for (int n = 0; n < r[0].nr_nodes; n++) {
		json_t *pol = json_object();

		for (int p = 0; p < nr; p++)
			json_object_set_new(pol, r[p].policy,
					    node_policy_json(&r[p].nodes[n], &r[0].nodes[n]));
		json_array_append_new(nodes, json_pack("{s:i,s:o}", "nid", n, "policies", pol));
	}
	json_object_set_new(o, "nodes", nodes);
	json_object_set_new(o, "node_state", json_string(r[0].sampled ? "sampled" :
							 "reconstructed"));
	json_object_set_new(o, "hz", json_integer(hz));
	json_object_set_new(o, "hz_inferred", json_boolean(hz_inferred));
	return o;
}

static void signed_ms(char *buf, size_t len, int64_t ns)
{
	snprintf(buf, len, "%+.1f", (double)ns / 1e6);
}

void rr_replay_print_table(FILE *out, const struct rr_replay_result *r, int nr,
			   const struct rr_input *in, int color)
{
	rr_print_input_header(out, in, color);
	fprintf(out, "  node state: %s\n", r[0].sampled ? "from counter samples" :
		"reconstructed from events (no counter samples)");
	for (int n = 0; n < r[0].nr_nodes; n++) {
		const struct rr_replay_node *base = &r[0].nodes[n];

		rr_heading(out, color, "node %d", n);
		fprintf(out, "  %-18s %11s %10s %9s %11s %8s %11s %10s %6s\n", "policy",
			"stall ms", "vs rec ms", "p99 ms", "sleep ms", "sleeps", "wasted pg",
			"vs rec pg", "eff %");
		for (int p = 0; p < nr; p++) {
			const struct rr_replay_node *x = &r[p].nodes[n];
			char d_stall[24], d_waste[24];

			signed_ms(d_stall, sizeof(d_stall), (int64_t)x->stall_ns - (int64_t)base->stall_ns);
			snprintf(d_waste, sizeof(d_waste), "%+lld",
				 (long long)x->wasted - (long long)base->wasted);
			fprintf(out, "  %-18.18s %11.1f %10s %9.2f %11.1f %8llu %11llu %10s %6.1f\n",
				r[p].policy, rr_ms(x->stall_ns), d_stall, rr_ms(x->stall.p99_ns),
				rr_ms(sleep_ns(x)), (unsigned long long)sleep_count(x),
				(unsigned long long)x->wasted, d_waste,
				x->scanned ? 100.0 * (double)x->reclaimed / (double)x->scanned : 0.0);
		}
	}
}
