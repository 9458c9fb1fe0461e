// SPDX-License-Identifier: GPL-2.0
/*
 * `validate`: how far the replay model can be trusted on one recording
 * (design note section 6; figures and their meaning in docs/model.md).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reclaim_replay/stats.h"
#include "reclaim_replay/validate.h"

static int open_policy(const char *name, const char *setting, const struct rr_model *m,
		       struct rr_policy_instance *p)
{
	const char *set[1] = { setting };

	return rr_policy_open(name, setting ? set : NULL, setting ? 1 : 0, m, p) ? -EINVAL : 0;
}

static int run(const char *name, const char *setting, const struct rr_model *m,
	       const struct rr_curves *c, int pinned, struct rr_replay_result *r)
{
	struct rr_policy_instance p;
	int ret = open_policy(name, setting, m, &p);

	if (ret)
		return ret;
	ret = pinned ? rr_replay_pinned(m, c, &p, r) : rr_replay(m, c, &p, r);
	rr_policy_close(&p);
	return ret;
}

/* 1. The recorded policy (@r, its replay) must give back exactly what stats measured. */
static int check_identity(const struct rr_model *m, const struct rr_replay_result *r,
			  struct rr_validation *v)
{
	struct rr_stats s;

	if (rr_stats_compute(m, &s))
		return -ENOMEM;
	for (int n = 0; n < r->nr_nodes && n < s.nr_nodes; n++) {
		const struct rr_replay_node *a = &r->nodes[n];
		const struct rr_node_stats *b = &s.nodes[n];
		struct { const char *what; uint64_t replayed, measured; } fig[3 + 4 * RR_NR_REASONS];
		int nr = 0;

		fig[nr++] = (typeof(fig[0])){ "stall_ns", a->stall_ns, b->stall_ns };
		fig[nr++] = (typeof(fig[0])){ "scanned", a->scanned, b->scanned };
		fig[nr++] = (typeof(fig[0])){ "reclaimed", a->reclaimed, b->reclaimed };
		for (int k = 0; k < RR_NR_REASONS; k++) {
			fig[nr++] = (typeof(fig[0])){ "throttles", a->sleeps[k].count,
						      b->throttles[k].count };
			fig[nr++] = (typeof(fig[0])){ "throttle sleep_ns", a->sleeps[k].sleep_ns,
						      b->throttles[k].delayed_us * 1000 };
			fig[nr++] = (typeof(fig[0])){ "kswapd throttles", a->kswapd_sleeps[k].count,
						      b->kswapd_throttles[k].count };
			fig[nr++] = (typeof(fig[0])){ "kswapd sleep_ns", a->kswapd_sleeps[k].sleep_ns,
						      b->kswapd_throttles[k].delayed_us * 1000 };
		}
		for (int i = 0; i < nr; i++) {
			if (fig[i].replayed == fig[i].measured)
				continue;
			if (!v->identity_error)
				snprintf(v->identity_detail, sizeof(v->identity_detail),
					 "node %d: %s %llu replayed, %llu measured%s%s", n, fig[i].what,
					 (unsigned long long)fig[i].replayed,
					 (unsigned long long)fig[i].measured, i >= 3 ? " for " : "",
					 i >= 3 ? rr_reason_name((i - 3) / 4) : "");
			v->identity_error++;
		}
	}
	rr_stats_release(&s);
	return 0;
}

double rr_fidelity_error(const struct rr_fidelity *f)
{
	if (!f->recorded_us)
		return f->predicted_us ? 1.0 : 0.0;
	return ((double)f->predicted_us - (double)f->recorded_us) / (double)f->recorded_us;
}

/* 2. mainline predicts each recorded throttle from the recorded state. */
static int check_fidelity(const struct rr_model *m, const struct rr_curves *c,
			  struct rr_validation *v)
{
	struct rr_replay_result r;
	uint64_t jiffy_us = 1000000 / v->hz;
	int nodes = m->trace->nr_nodes > 0 ? m->trace->nr_nodes : 1;
	int ret = run("mainline", NULL, m, c, 1, &r);

	if (ret)
		return ret;
	v->fid = calloc((size_t)nodes * RR_NR_REASONS, sizeof(*v->fid));
	if (!v->fid) {
		rr_replay_result_release(&r);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < m->nr_throttles; i++) {
		const struct rr_throttle *th = &m->throttles[i];
		int nid = th->nid >= 0 && th->nid < nodes ? th->nid : 0;
		struct rr_fidelity *f;
		uint64_t pred = r.observed[i].sleep_ns / 1000, rec = th->usec_delayed;
		uint64_t tol = rec / 10 > jiffy_us ? rec / 10 : jiffy_us;

		/* a legacy wait is no mainline throttle: nothing to predict */
		if (th->reason >= RR_REASON_LEGACY_CONGESTION_WAIT || th->task == RR_NO_TASK)
			continue;
		f = &v->fid[nid * RR_NR_REASONS + th->reason];
		f->throttles++;
		if ((pred > rec ? pred - rec : rec - pred) <= tol)
			f->within++;
		else if (pred < rec)
			f->early++;
		else
			f->late++;
		f->recorded_us += rec;
		f->predicted_us += pred;
	}
	for (int k = 0; k < nodes * RR_NR_REASONS; k++) {
		struct rr_fidelity *f = &v->fid[k];
		double err;

		f->nid = k / RR_NR_REASONS;
		f->reason = k % RR_NR_REASONS;
		if (!f->throttles)
			continue;
		v->within += f->within;
		v->throttles += f->throttles;
		err = fabs(rr_fidelity_error(f));
		if (err > v->worst_total_error)
			v->worst_total_error = err;
	}
	v->nr_fid = nodes * RR_NR_REASONS;
	rr_replay_result_release(&r);
	return 0;
}

/* A node's throttle sleep and throttles, every reason, kswapd's included. */
static void sleep_sums(const struct rr_replay_node *n, uint64_t *sleep_ns, uint64_t *count)
{
	*sleep_ns = *count = 0;
	for (int k = 0; k < RR_NR_REASONS; k++) {
		*sleep_ns += n->sleeps[k].sleep_ns + n->kswapd_sleeps[k].sleep_ns;
		*count += n->sleeps[k].count + n->kswapd_sleeps[k].count;
	}
}

static uint64_t sleep_total(const struct rr_replay_result *r)
{
	uint64_t t = 0, ns, count;

	for (int n = 0; n < r->nr_nodes; n++) {
		sleep_sums(&r->nodes[n], &ns, &count);
		t += ns;
	}
	return t;
}

/*
 * A longer timeout can let another task go earlier: a waiter that arrives
 * later no longer raises the WRITEBACK threshold for those already waiting,
 * as in the kernel. So node totals may move against the timeout by this
 * much (a part in 10^4) before the property fails (docs/model.md).
 */
#define MONOTONE_SLACK 1e-4

static int moved_against(uint64_t before, uint64_t after, int must_grow)
{
	double b = (double)before, a = (double)after;

	return must_grow ? a < b * (1.0 - MONOTONE_SLACK) : a > b * (1.0 + MONOTONE_SLACK) + 1.0;
}

/* 3. none sleeps never; legacy-broken sleeps whole timeouts; parametric is
 * monotone in each timeout. */
static int check_properties(const struct rr_model *m, const struct rr_curves *c,
			    struct rr_validation *v)
{
	static const char *const keys[] = { "writeback.timeout", "isolated.timeout",
					    "noprogress.timeout", "congested.timeout" };
	static const char *const values[] = { "2j", "5j", "25j", "125j" };
	struct rr_property *p = v->props;
	struct rr_replay_result r;
	int ret;

	p[0].name = "none sleeps 0";
	ret = run("none", NULL, m, c, 0, &r);
	if (ret)
		return ret;
	p[0].exercised = m->nr_throttles > 0;
	p[0].ok = sleep_total(&r) == 0;
	snprintf(p[0].detail, sizeof(p[0].detail), "%llu ns of sleep",
		 (unsigned long long)sleep_total(&r));
	rr_replay_result_release(&r);

	p[1].name = "legacy-broken sleeps whole timeouts";
	ret = run("legacy-broken", NULL, m, c, 0, &r);
	if (ret)
		return ret;
	p[1].ok = 1;
	for (uint32_t i = 0; i < r.nr_observed; i++) {
		const struct rr_replayed_throttle *o = &r.observed[i];

		if (!o->slept)
			continue;
		p[1].exercised = 1;
		if (o->sleep_ns != o->timeout_ns + o->extra_ns && p[1].ok) {
			p[1].ok = 0;
			snprintf(p[1].detail, sizeof(p[1].detail), "throttle %u slept %llu ns, "
				 "timeout %llu ns", i, (unsigned long long)o->sleep_ns,
				 (unsigned long long)o->timeout_ns);
		}
	}
	rr_replay_result_release(&r);

	p[2].name = "parametric monotone in each timeout";
	p[2].ok = 1;
	p[2].exercised = m->nr_throttles > 0;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]) && p[2].ok; k++) {
		uint64_t prev_stall[RR_MAX_NODES] = { 0 }, prev_waste[RR_MAX_NODES] = { 0 };

		for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
			char setting[64];

			snprintf(setting, sizeof(setting), "%s=%s", keys[k], values[i]);
			ret = run("parametric", setting, m, c, 0, &r);
			if (ret)
				return ret;
			for (int n = 0; n < r.nr_nodes && n < RR_MAX_NODES; n++) {
				if (i && (moved_against(prev_stall[n], r.nodes[n].stall_ns, 1) ||
					  moved_against(prev_waste[n], r.nodes[n].wasted, 0)) && p[2].ok) {
					p[2].ok = 0;
					snprintf(p[2].detail, sizeof(p[2].detail),
						 "%s %s -> %s on node %d: stall %llu -> %llu ns, "
						 "wasted %llu -> %llu", keys[k], values[i - 1], values[i], n,
						 (unsigned long long)prev_stall[n],
						 (unsigned long long)r.nodes[n].stall_ns,
						 (unsigned long long)prev_waste[n],
						 (unsigned long long)r.nodes[n].wasted);
				}
				prev_stall[n] = r.nodes[n].stall_ns;
				prev_waste[n] = r.nodes[n].wasted;
			}
			rr_replay_result_release(&r);
		}
	}
	return 0;
}

/*
 * 4. mainline's free replay against the recorded one, where mainline is
 * the recorded kernel's policy: a recording with mm_vmscan_throttled and
 * without the legacy congestion waits.
 */
static int check_free_replay(const struct rr_model *m, const struct rr_curves *c,
			     const struct rr_replay_result *rec, struct rr_validation *v)
{
	struct rr_replay_result ml;
	int ret;

	for (uint32_t i = 0; i < m->nr_throttles; i++)
		if (m->throttles[i].reason >= RR_REASON_LEGACY_CONGESTION_WAIT)
			return 0;
	if (!m->nr_throttles)
		return 0;
	ret = run("mainline", NULL, m, c, 0, &ml);
	if (ret)
		return ret;
	v->free = calloc((size_t)rec->nr_nodes + 1, sizeof(*v->free));
	if (!v->free) {
		ret = -ENOMEM;
		goto out;
	}
	v->free_applicable = 1;
	v->nr_free = rec->nr_nodes < ml.nr_nodes ? rec->nr_nodes : ml.nr_nodes;
	for (int n = 0; n < v->nr_free; n++) {
		struct rr_free_replay *f = &v->free[n];
		const struct rr_replay_node *a = &rec->nodes[n], *b = &ml.nodes[n];

		f->nid = n;
		f->stall_ns[0] = a->stall_ns;
		f->stall_ns[1] = b->stall_ns;
		sleep_sums(a, &f->sleep_ns[0], &f->throttles[0]);
		sleep_sums(b, &f->sleep_ns[1], &f->throttles[1]);
		f->wasted[0] = a->wasted;
		f->wasted[1] = b->wasted;
	}
out:
	rr_replay_result_release(&ml);
	return ret;
}

/* Wall time with at least one task in direct, memcg or node reclaim. */
static double stall_union_us(const struct rr_model *m)
{
	uint64_t (*iv)[2] = malloc(((size_t)m->nr_episodes + 1) * sizeof(*iv));
	uint64_t total = 0, cs = 0, ce = 0;
	size_t n = 0;

	if (!iv)
		return 0;
	for (uint32_t e = 0; e < m->nr_episodes; e++) {
		const struct rr_episode *ep = &m->episodes[e];

		if (ep->kind != RR_CTX_DIRECT && ep->kind != RR_CTX_MEMCG && ep->kind != RR_CTX_NODE)
			continue;
		iv[n][0] = ep->begin;
		iv[n][1] = ep->end;
		n++;
	}
	/* episodes are created in begin order, except ends without a begin,
	 * which start at the trace start: a sort keeps the sweep simple */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && iv[j][0] < iv[j - 1][0]; j--) {
			uint64_t a = iv[j][0], b = iv[j][1];

			iv[j][0] = iv[j - 1][0];
			iv[j][1] = iv[j - 1][1];
			iv[j - 1][0] = a;
			iv[j - 1][1] = b;
		}
	for (size_t i = 0; i < n; i++) {
		if (!i || iv[i][0] > ce) {
			total += ce - cs;
			cs = iv[i][0];
			ce = iv[i][1];
		} else if (iv[i][1] > ce) {
			ce = iv[i][1];
		}
	}
	total += ce - cs;
	free(iv);
	return (double)total / 1000.0;
}

static double jnum(json_t *o, const char *a, const char *b, const char *c)
{
	json_t *x = json_object_get(o, a);

	if (b)
		x = json_object_get(x, b);
	if (c)
		x = json_object_get(x, c);
	return json_is_number(x) ? json_number_value(x) : 0;
}

/* 5. Ground truth measured outside the trace (manifest of the recorder). */
static int check_truth(const struct rr_model *m, const char *path, struct rr_validation *v)
{
	json_error_t err;
	json_t *doc = json_load_file(path, 0, &err), *gt, *vm;
	struct rr_stats s;

	if (!doc)
		return -EBADMSG;
	gt = json_object_get(doc, "ground_truth");
	vm = json_object_get(gt, "vmstat_delta_selected");
	if (!vm) {
		json_decref(doc);
		return -EBADMSG;
	}
	if (rr_stats_compute(m, &s)) {
		json_decref(doc);
		return -ENOMEM;
	}
	v->truth.present = 1;
	v->truth.scanned_truth = jnum(vm, "pgscan_anon", NULL, NULL) + jnum(vm, "pgscan_file", NULL, NULL);
	v->truth.reclaimed_truth = jnum(vm, "pgsteal_anon", NULL, NULL) +
		jnum(vm, "pgsteal_file", NULL, NULL);
	v->truth.psi_some_us = jnum(gt, "psi_total_delta_us", "memory", "some");
	for (int n = 0; n < s.nr_nodes; n++) {
		v->truth.scanned_trace += (double)s.nodes[n].scanned;
		v->truth.reclaimed_trace += (double)s.nodes[n].reclaimed;
	}
	v->truth.stall_union_us = stall_union_us(m);
	rr_stats_release(&s);
	json_decref(doc);
	return 0;
}

int rr_validate(const struct rr_model *m, const char *manifest, struct rr_validation *v)
{
	struct rr_replay_result rec;
	struct rr_curves *c;
	int ret;

	memset(v, 0, sizeof(*v));
	v->hz = rr_model_hz(m, &v->hz_inferred);
	ret = rr_curves_build(m, &c);
	if (ret)
		return ret;
	v->sampled = rr_curves_sampled(c);
	/* one replay of `recorded` serves the identity and the free replay's baseline */
	ret = run("recorded", NULL, m, c, 0, &rec);
	if (ret) {
		rr_curves_free(c);
		return ret;
	}
	ret = check_identity(m, &rec, v);
	if (!ret)
		ret = check_fidelity(m, c, v);
	if (!ret)
		ret = rr_fidelity_limits(m, v);
	if (!ret)
		ret = check_properties(m, c, v);
	if (!ret)
		ret = check_free_replay(m, c, &rec, v);
	if (!ret && manifest)
		ret = check_truth(m, manifest, v);
	rr_replay_result_release(&rec);
	rr_curves_free(c);
	if (ret)
		rr_validation_release(v);
	return ret;
}

void rr_validation_release(struct rr_validation *v)
{
	free(v->fid);
	free(v->free);
	v->fid = NULL;
	v->free = NULL;
}

int rr_validation_passed(const struct rr_validation *v)
{
	if (v->identity_error)
		return 0;
	for (int i = 0; i < RR_NR_PROPERTIES; i++)
		if (!v->props[i].ok)
			return 0;
	return 1;
}
