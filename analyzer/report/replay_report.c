// SPDX-License-Identifier: GPL-2.0
/* `replay` results: per node and policy, with differences to `recorded`. */
#include <string.h>

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
			 "s:I,s:I,s:I,s:{s:I,s:I},s:{s:I,s:I,s:I,s:I,s:I}}",
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
		"late_batches", I(n->late_batches),
		"late_extra_reclaimed", I(n->late_extra_reclaimed),
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

/*
 * @v with @dec decimals in at most @w characters (the table's column): fewer
 * decimals first, then k/M/G, so a long trace cannot push the table past
 * 100 columns.
 */
static void fit(char *buf, size_t len, int w, double v, int dec, int sign)
{
	static const char sfx[] = "kMG";
	double a = v;

	for (int d = dec; d >= 0; d--) {
		snprintf(buf, len, sign ? "%+.*f" : "%.*f", d, v);
		if ((int)strlen(buf) <= w)
			return;
	}
	for (int i = 0; i < 3; i++) {
		a /= 1000;
		snprintf(buf, len, sign ? "%+.1f%c" : "%.1f%c", a, sfx[i]);
		if ((int)strlen(buf) <= w)
			return;
	}
}

#define POLICY_W 16	/* the policy column */

/*
 * The row label of policy @p: its label when it fits the column, else
 * "P<p> " and as much of it as fits; the full labels of those are listed
 * above the tables, so two settings of one policy never look alike.
 */
static void row_label(char *buf, size_t len, const struct rr_replay_result *r, int p)
{
	size_t n = strlen(r[p].policy);
	int k = 0;

	if (n > POLICY_W)
		k = snprintf(buf, len, "P%d ", p);
	if (k < 0 || (size_t)k >= len)
		k = 0;
	if (n > len - (size_t)k - 1)
		n = len - (size_t)k - 1;
	memcpy(buf + k, r[p].policy, n);
	buf[(size_t)k + n] = '\0';
}

static void print_long_labels(FILE *out, const struct rr_replay_result *r, int nr)
{
	int any = 0;

	for (int p = 0; p < nr; p++) {
		if (strlen(r[p].policy) <= POLICY_W)
			continue;
		if (!any++)
			fprintf(out, "  policies:\n");
		fprintf(out, "    P%-3d %s\n", p, r[p].policy);
	}
}

void rr_replay_print_table(FILE *out, const struct rr_replay_result *r, int nr,
			   const struct rr_input *in, int color)
{
	rr_print_input_header(out, in, color);
	fprintf(out, "  node state: %s\n", r[0].sampled ? "from counter samples" :
		"reconstructed from events (no counter samples)");
	print_long_labels(out, r, nr);
	for (int n = 0; n < r[0].nr_nodes; n++) {
		const struct rr_replay_node *base = &r[0].nodes[n];

		rr_heading(out, color, "node %d", n);
		/* 97 columns: within 100 whatever the figures (fit()) */
		fprintf(out, "  %-16s %10s %10s %8s %10s %7s %10s %10s %6s\n", "policy",
			"stall ms", "vs rec ms", "p99 ms", "sleep ms", "sleeps", "wasted pg",
			"vs rec pg", "eff %");
		for (int p = 0; p < nr; p++) {
			const struct rr_replay_node *x = &r[p].nodes[n];
			char stall[24], d_stall[24], p99[24], sleep[24], sleeps[24], waste[24];
			char d_waste[24], label[POLICY_W + 1];

			fit(stall, sizeof(stall), 10, rr_ms(x->stall_ns), 1, 0);
			fit(d_stall, sizeof(d_stall), 10,
			    ((double)x->stall_ns - (double)base->stall_ns) / 1e6, 1, 1);
			fit(p99, sizeof(p99), 8, rr_ms(x->stall.p99_ns), 2, 0);
			fit(sleep, sizeof(sleep), 10, rr_ms(sleep_ns(x)), 1, 0);
			fit(sleeps, sizeof(sleeps), 7, (double)sleep_count(x), 0, 0);
			fit(waste, sizeof(waste), 10, (double)x->wasted, 0, 0);
			fit(d_waste, sizeof(d_waste), 10, (double)x->wasted - (double)base->wasted, 0,
			    1);
			row_label(label, sizeof(label), r, p);
			fprintf(out, "  %-16s %10s %10s %8s %10s %7s %10s %10s %6.1f\n",
				label, stall, d_stall, p99, sleep, sleeps, waste, d_waste,
				x->scanned ? 100.0 * (double)x->reclaimed / (double)x->scanned : 0.0);
		}
	}
}
