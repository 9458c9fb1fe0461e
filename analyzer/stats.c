// SPDX-License-Identifier: GPL-2.0
/*
 * Per-node figures of what reclaim did in a recording (the `stats`
 * command), computed from the model in a few linear passes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reclaim_replay/stats.h"
#include "sort_u64.h"

static void fill_dist(struct rr_dist *d, uint64_t *v, size_t n)
{
	rr_sort_u64(v, n);
	d->count = n;
	d->total_ns = 0;
	for (size_t i = 0; i < n; i++)
		d->total_ns += v[i];
	d->p50_ns = rr_percentile_u64(v, n, 50);
	d->p90_ns = rr_percentile_u64(v, n, 90);
	d->p99_ns = rr_percentile_u64(v, n, 99);
	d->max_ns = n ? v[n - 1] : 0;
}

static int is_stall_kind(int kind)
{
	return kind == RR_CTX_DIRECT || kind == RR_CTX_MEMCG || kind == RR_CTX_NODE;
}

static uint64_t episode_ns(const struct rr_episode *ep)
{
	return ep->end > ep->begin ? ep->end - ep->begin : 0;
}

static int episodes_stats(const struct rr_model *m, struct rr_stats *s)
{
	size_t nn = (size_t)s->nr_nodes, k = RR_NR_EPISODE_KINDS;
	size_t *fill = calloc(nn * k, sizeof(*fill));
	uint64_t **dur = calloc(nn * k, sizeof(*dur));
	int ret = -ENOMEM;

	if (!fill || !dur)
		goto out;
	/* Count first, then fill one array per (node, kind) for percentiles. */
	for (uint32_t e = 0; e < m->nr_episodes; e++) {
		const struct rr_episode *ep = &m->episodes[e];
		struct rr_episode_stats *es = &s->nodes[ep->nid].episodes[ep->kind];

		if (!(ep->flags & RR_EPF_OPEN_AT_START))
			es->begun++;
		if (ep->flags & RR_EPF_CUT_BY_LOSS)
			es->cut_by_loss++;
		else if (ep->flags & (RR_EPF_OPEN_AT_START | RR_EPF_OPEN_AT_END))
			es->open++;
		else
			fill[(size_t)ep->nid * k + ep->kind]++;
		if (ep->kind == RR_CTX_KSWAPD && !(ep->flags & RR_EPF_CUT_BY_LOSS))
			s->nodes[ep->nid].kswapd_active_ns += episode_ns(ep);
	}
	for (size_t i = 0; i < nn * k; i++) {
		dur[i] = malloc((fill[i] ? fill[i] : 1) * sizeof(**dur));
		if (!dur[i])
			goto out;
		fill[i] = 0;
	}
	for (uint32_t e = 0; e < m->nr_episodes; e++) {
		const struct rr_episode *ep = &m->episodes[e];
		size_t slot = (size_t)ep->nid * k + ep->kind;

		if (ep->flags & (RR_EPF_CUT_BY_LOSS | RR_EPF_OPEN_AT_START | RR_EPF_OPEN_AT_END))
			continue;
		dur[slot][fill[slot]++] = episode_ns(ep);
	}
	for (size_t n = 0; n < nn; n++) {
		for (size_t kind = 0; kind < k; kind++) {
			fill_dist(&s->nodes[n].episodes[kind].dur, dur[n * k + kind], fill[n * k + kind]);
			if (is_stall_kind((int)kind))
				s->nodes[n].stall_ns += s->nodes[n].episodes[kind].dur.total_ns;
		}
	}
	ret = 0;
out:
	if (dur)
		for (size_t i = 0; i < nn * k; i++)
			free(dur[i]);
	free(dur);
	free(fill);
	return ret;
}

static void add_throttle(struct rr_reason_stats *r, const struct rr_throttle *th)
{
	if (!r->count || th->usec_timeout < r->timeout_us_min)
		r->timeout_us_min = th->usec_timeout;
	if (th->usec_timeout > r->timeout_us_max)
		r->timeout_us_max = th->usec_timeout;
	if (th->usec_delayed > r->delayed_us_max)
		r->delayed_us_max = th->usec_delayed;
	r->count++;
	r->delayed_us += th->usec_delayed;
	r->timeout_us_sum += th->usec_timeout;
	if (th->usec_delayed >= th->usec_timeout)
		r->timed_out++;
	else
		r->woken_early++;
}

static void throttle_stats(const struct rr_model *m, struct rr_stats *s)
{
	for (uint32_t i = 0; i < m->nr_throttles; i++) {
		const struct rr_throttle *th = &m->throttles[i];
		struct rr_node_stats *ns;

		if (th->reason >= RR_NR_REASONS || th->nid < 0 || th->nid >= s->nr_nodes)
			continue;
		ns = &s->nodes[th->nid];
		add_throttle(th->context == RR_CTX_KSWAPD ? &ns->kswapd_throttles[th->reason] :
			     &ns->throttles[th->reason], th);
	}
}

static void batch_stats(const struct rr_model *m, struct rr_stats *s)
{
	const struct rr_trace *t = m->trace;

	for (uint32_t i = 0; i < m->nr_batches; i++) {
		const struct rr_batch *bat = &m->batches[i];
		const struct rr_event *sh;
		struct rr_node_stats *ns;
		uint64_t sc, rc;

		if (bat->shrink_event == RR_NONE || bat->nid < 0 || bat->nid >= s->nr_nodes)
			continue;
		sh = &t->events[bat->shrink_event];
		ns = &s->nodes[bat->nid];
		if (sh->type == RR_EV_SHRINK_ACTIVE) {
			ns->active_taken += sh->v[RR_V_SA_TAKEN];
			continue;
		}
		sc = sh->v[RR_V_SI_SCANNED];
		rc = sh->v[RR_V_SI_RECLAIMED];
		ns->scanned += sc;
		ns->reclaimed += rc;
		ns->scanned_by_ctx[bat->context] += sc;
		ns->reclaimed_by_ctx[bat->context] += rc;
		ns->batches++;
		/* a batch that scanned nothing wasted nothing: not unproductive */
		if (sc && rc * RR_UNPRODUCTIVE_DEN <= sc * RR_UNPRODUCTIVE_NUM)
			ns->unproductive_batches++;
	}
	for (int n = 0; n < s->nr_nodes; n++) {
		struct rr_node_stats *ns = &s->nodes[n];

		ns->wasted = ns->scanned > ns->reclaimed ? ns->scanned - ns->reclaimed : 0;
	}
}

/* Isolated pages per node: + nr_taken at a matched isolate, - at its shrink. */
static int isolation_and_misc(const struct rr_model *m, struct rr_stats *s)
{
	const struct rr_trace *t = m->trace;
	uint64_t *pending = calloc(t->nr_tasks + 1, sizeof(*pending));
	uint8_t *pending_anon = calloc(t->nr_tasks + 1, 1);
	int16_t *pending_nid = malloc((t->nr_tasks + 1) * sizeof(*pending_nid));
	uint64_t (*iso)[2] = calloc((size_t)s->nr_nodes, sizeof(*iso));

	if (!pending || !pending_anon || !pending_nid || !iso) {
		free(pending);
		free(pending_anon);
		free(pending_nid);
		free(iso);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->nr_events; i++) {
		const struct rr_event *ev = &t->events[i];
		struct rr_node_stats *ns = ev->nid >= 0 && ev->nid < s->nr_nodes ?
			&s->nodes[ev->nid] : NULL;
		uint32_t ti;
		int anon;

		switch (ev->type) {
		case RR_EV_LRU_ISOLATE:
			ti = ev->task;
			if (!ns || ti == RR_NO_TASK)
				break;
			anon = ev->aux == RR_LRU_INACTIVE_ANON || ev->aux == RR_LRU_ACTIVE_ANON;
			iso[ev->nid][anon] += ev->v[RR_V_ISO_TAKEN];
			pending[ti] = ev->v[RR_V_ISO_TAKEN];
			pending_anon[ti] = (uint8_t)anon;
			pending_nid[ti] = ev->nid;
			if (anon && iso[ev->nid][1] > ns->isolated_peak_anon)
				ns->isolated_peak_anon = iso[ev->nid][1];
			if (!anon && iso[ev->nid][0] > ns->isolated_peak_file)
				ns->isolated_peak_file = iso[ev->nid][0];
			break;
		case RR_EV_SHRINK_INACTIVE:
		case RR_EV_SHRINK_ACTIVE:
			ti = ev->task;
			if (ti == RR_NO_TASK || !pending[ti])
				break;
			iso[pending_nid[ti]][pending_anon[ti]] -= pending[ti];
			pending[ti] = 0;
			break;
		case RR_EV_COUNTERS: {
			const struct rr_counter_sample *cs = &t->samples[ev->v[RR_V_SAMPLE_INDEX]];

			if (!ns)
				break;
			ns->samples++;
			if (cs->value[RR_C_NR_ISOLATED_ANON] > ns->sampled_isolated_max_anon)
				ns->sampled_isolated_max_anon = cs->value[RR_C_NR_ISOLATED_ANON];
			if (cs->value[RR_C_NR_ISOLATED_FILE] > ns->sampled_isolated_max_file)
				ns->sampled_isolated_max_file = cs->value[RR_C_NR_ISOLATED_FILE];
			break;
		}
		case RR_EV_WRITE_FOLIO:
			if (ns)
				ns->pages_written_by_reclaim++;
			else if (s->nr_nodes == 1)
				s->nodes[0].pages_written_by_reclaim++;
			break;
		case RR_EV_BLOCK_COMPLETE:
			if (ev->v[RR_V_BLK_OP] == RR_BLK_WRITE) {
				s->block_write_sectors += ev->v[RR_V_BLK_SECTORS];
				s->block_write_requests++;
			} else if (ev->v[RR_V_BLK_OP] == RR_BLK_READ) {
				s->block_read_sectors += ev->v[RR_V_BLK_SECTORS];
				s->block_read_requests++;
			}
			break;
		case RR_EV_WB_PAGES_WRITTEN:
			s->writeback_pages_written += ev->v[RR_V_WB_PAGES];
			break;
		case RR_EV_COMPACT_ISOLATE_MIGRATE:
			s->compaction_migrate_scanned += ev->v[RR_V_CI_SCANNED];
			s->compaction_isolated += ev->v[RR_V_CI_TAKEN];
			break;
		case RR_EV_COMPACT_ISOLATE_FREE:
		case RR_EV_COMPACT_FAST_ISOLATE_FREE:
			s->compaction_free_scanned += ev->v[RR_V_CI_SCANNED];
			s->compaction_isolated += ev->v[RR_V_CI_TAKEN];
			break;
		case RR_EV_COMPACT_MIGRATEPAGES:
			s->compaction_migrated += ev->v[RR_V_CM_MIGRATED];
			s->compaction_failed += ev->v[RR_V_CM_FAILED];
			break;
		case RR_EV_RECLAIM_PAGES:
			s->reclaim_pages_scanned += ev->v[RR_V_RP_SCANNED];
			s->reclaim_pages_reclaimed += ev->v[RR_V_RP_RECLAIMED];
			break;
		case RR_EV_LOST:
			s->lost_events += ev->v[RR_V_LOST_COUNT];
			s->loss_notices++;
			break;
		default:
			break;
		}
	}
	free(pending);
	free(pending_anon);
	free(pending_nid);
	free(iso);
	return 0;
}

static int cmp_stall(const void *a, const void *b)
{
	const struct rr_task_stall *x = a, *y = b;

	if (x->stall_ns != y->stall_ns)
		return x->stall_ns > y->stall_ns ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int top_tasks(const struct rr_model *m, struct rr_stats *s)
{
	const struct rr_trace *t = m->trace;
	struct rr_task_stall *all = calloc(t->nr_tasks + 1, sizeof(*all));
	uint64_t *node_ns;
	size_t n = 0;

	if (!all)
		return -ENOMEM;
	node_ns = calloc((t->nr_tasks + 1) * (size_t)s->nr_nodes, sizeof(*node_ns));
	if (!node_ns) {
		free(all);
		return -ENOMEM;
	}
	for (uint32_t e = 0; e < m->nr_episodes; e++) {
		const struct rr_episode *ep = &m->episodes[e];
		uint32_t ti = ep->task;

		if (ti == RR_NO_TASK || !is_stall_kind(ep->kind) ||
		    (ep->flags & (RR_EPF_CUT_BY_LOSS | RR_EPF_OPEN_AT_START | RR_EPF_OPEN_AT_END)))
			continue;
		all[ti].stall_ns += episode_ns(ep);
		all[ti].throttle_ns += ep->throttle_ns;
		all[ti].episodes++;
		node_ns[(size_t)ti * (size_t)s->nr_nodes + (size_t)ep->nid] += episode_ns(ep);
	}
	for (size_t ti = 0; ti < t->nr_tasks; ti++) {
		uint64_t best = 0;

		if (!all[ti].episodes)
			continue;
		all[n] = all[ti];
		all[n].pid = t->tasks[ti].pid;
		memcpy(all[n].comm, t->tasks[ti].comm, sizeof(all[n].comm));
		all[n].nid = 0;
		for (int nd = 0; nd < s->nr_nodes; nd++) {
			if (node_ns[ti * (size_t)s->nr_nodes + (size_t)nd] > best) {
				best = node_ns[ti * (size_t)s->nr_nodes + (size_t)nd];
				all[n].nid = (int16_t)nd;
			}
		}
		n++;
	}
	qsort(all, n, sizeof(*all), cmp_stall);
	s->nr_top = n < RR_TOP_TASKS ? (int)n : RR_TOP_TASKS;
	memcpy(s->top, all, (size_t)s->nr_top * sizeof(*all));
	free(all);
	free(node_ns);
	return 0;
}

int rr_stats_compute(const struct rr_model *m, struct rr_stats *s)
{
	const struct rr_trace *t = m->trace;

	memset(s, 0, sizeof(*s));
	s->nr_nodes = t->nr_nodes > 0 ? t->nr_nodes : 1;
	s->nodes = calloc((size_t)s->nr_nodes, sizeof(*s->nodes));
	if (!s->nodes)
		return -ENOMEM;
	for (int n = 0; n < s->nr_nodes; n++)
		s->nodes[n].nid = n;
	s->duration_ns = m->last_ts - m->first_ts;
	if (episodes_stats(m, s) || isolation_and_misc(m, s) || top_tasks(m, s)) {
		rr_stats_release(s);
		return -ENOMEM;
	}
	throttle_stats(m, s);
	batch_stats(m, s);
	return 0;
}

void rr_stats_release(struct rr_stats *s)
{
	free(s->nodes);
	s->nodes = NULL;
}
