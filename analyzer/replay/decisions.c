// SPDX-License-Identifier: GPL-2.0
/*
 * Find the decision points of a model and lay every task's replay
 * timeline out: its episode bounds, batches and decision points in time
 * order. Sites follow the kernel reference, sections 1.2 and 2.4.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "decisions.h"
#include "vec.h"
#include "reclaim_replay/replay.h"

#define DEF_PRIORITY 12

static uint32_t task_flags(const struct rr_trace *t, uint32_t task, uint8_t context)
{
	uint32_t f = 0;

	if (context == RR_CTX_KSWAPD || (task != RR_NO_TASK && t->tasks[task].is_kswapd))
		f |= RR_DP_KSWAPD;
	if (context == RR_CTX_MEMCG || context == RR_CTX_SOFTLIMIT)
		f |= RR_DP_CGROUP;
	/* kernel threads: kworkers and friends show as "kworker/..." etc. */
	if (task != RR_NO_TASK && !(f & RR_DP_KSWAPD) &&
	    (!strncmp(t->tasks[task].comm, "kworker", 7) ||
	     !strncmp(t->tasks[task].comm, "kcompactd", 9) ||
	     !strncmp(t->tasks[task].comm, "khugepaged", 10)))
		f |= RR_DP_KTHREAD;
	return f;
}

/* Map a recorded throttle to the reason and site a policy decides on. */
static void classify_observed(const struct rr_model *m, const struct rr_throttle *th,
			      struct rr_dpoint *p)
{
	const struct rr_event *prev;

	p->reason = th->reason < RR_REASON_LEGACY_CONGESTION_WAIT ? th->reason :
		RR_POLICY_REASON_WRITEBACK;
	switch (th->reason) {
	case RR_REASON_WRITEBACK:
		p->site = th->context == RR_CTX_KSWAPD ? RR_SITE_SHRINK_NODE_KSWAPD :
			th->context == RR_CTX_MEMCG ? RR_SITE_MEMCG_WRITEBACK :
			th->context == RR_CTX_OTHER ? RR_SITE_DO_WRITEPAGES :
			RR_SITE_SHRINK_NODE_DIRECT;	/* 5.16-rc's congested path */
		break;
	case RR_REASON_ISOLATED:
		p->site = th->context == RR_CTX_OTHER ? RR_SITE_COMPACTION_ISOLATED :
			RR_SITE_TOO_MANY_ISOLATED;
		break;
	case RR_REASON_NOPROGRESS:
		p->site = RR_SITE_NO_PROGRESS;
		break;
	case RR_REASON_CONGESTED:
		p->site = RR_SITE_SHRINK_NODE_DIRECT;
		break;
	case RR_REASON_LEGACY_WAIT_IFF_CONGESTED:
		/* shrink_node's non-kswapd wait when LRUVEC_CONGESTED is set */
		p->reason = RR_POLICY_REASON_CONGESTED;
		p->site = RR_SITE_SHRINK_NODE_DIRECT;
		p->flags |= RR_DP_LEGACY_EVENT;
		break;
	case RR_REASON_LEGACY_CONGESTION_WAIT:
	default:
		/*
		 * congestion_wait() had several callers (reference 1.2); the
		 * context and the task's previous event tell them apart.
		 */
		p->flags |= RR_DP_LEGACY_EVENT;
		prev = rr_model_previous_of_task(m, th->event);
		if (th->context == RR_CTX_KSWAPD) {
			p->reason = RR_POLICY_REASON_WRITEBACK;
			p->site = RR_SITE_SHRINK_NODE_KSWAPD;
		} else if (prev && prev->type >= RR_EV_COMPACT_ISOLATE_MIGRATE &&
			   prev->type <= RR_EV_COMPACT_TRY) {
			p->reason = RR_POLICY_REASON_ISOLATED;
			p->site = RR_SITE_COMPACTION_ISOLATED;
		} else if (prev && prev->type == RR_EV_DIRECT_END) {
			p->reason = RR_POLICY_REASON_NOPROGRESS;	/* should_reclaim_retry */
			p->site = RR_SITE_NO_PROGRESS;
		} else if (th->context == RR_CTX_OTHER) {
			p->reason = RR_POLICY_REASON_WRITEBACK;
			p->site = RR_SITE_DO_WRITEPAGES;
		} else {
			p->reason = RR_POLICY_REASON_WRITEBACK;
			p->site = RR_SITE_MEMCG_WRITEBACK;	/* force_empty, memcg waits */
		}
		break;
	}
}

/*
 * A task's batches as the point finders read them: copied once, in shrink
 * order, from the batch and its shrink event, so the walks below read one
 * contiguous list per task instead of two scattered records per batch.
 */
struct task_batch {
	uint64_t ts;		/* its shrink's */
	uint32_t index;		/* in model->batches */
	uint32_t episode;
	uint32_t scanned, reclaimed;
	int16_t nid;
	uint16_t aux;		/* the shrink's priority */
	uint8_t type;		/* the shrink's event type */
	uint8_t context;
};

static struct task_batch task_batch_of(const struct rr_model *m, uint32_t i)
{
	const struct rr_batch *b = &m->batches[i];
	const struct rr_event *sh = &m->trace->events[b->shrink_event];

	return (struct task_batch){
		.ts = sh->ts, .index = i, .episode = b->episode,
		.scanned = sh->v[RR_V_SI_SCANNED], .reclaimed = sh->v[RR_V_SI_RECLAIMED],
		.nid = b->nid, .aux = sh->aux, .type = sh->type, .context = b->context,
	};
}

/* Index of the task's last batch whose shrink came at or before @ts. */
static uint32_t batch_before(const struct task_batch *tb, uint32_t lo, uint32_t hi, uint64_t ts)
{
	uint32_t found = RR_NONE;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (tb[mid].ts <= ts) {
			found = tb[mid].index;
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return found;
}

static int add_point(struct vec *pts, const struct rr_dpoint *p)
{
	struct rr_dpoint *n = vec_push(pts, sizeof(*n));

	if (!n)
		return -ENOMEM;
	*n = *p;
	return 0;
}

/*
 * Latent points from a batch: kswapd saw pages under writeback marked for
 * immediate reclaim (WRITEBACK), a direct pass found every dirty page
 * congested (CONGESTED). A batch the recorded kernel followed with a
 * throttle of the same task already has an observed point.
 */
static int latent_points(const struct rr_model *m, uint32_t b_index, int followed,
			 struct vec *pts)
{
	const struct rr_trace *t = m->trace;
	const struct rr_batch *b = &m->batches[b_index];
	const struct rr_event *sh;
	struct rr_dpoint p;

	if (followed || b->shrink_event == RR_NONE)
		return 0;
	sh = &t->events[b->shrink_event];
	if (sh->type != RR_EV_SHRINK_INACTIVE)
		return 0;
	memset(&p, 0, sizeof(p));
	p.start = p.end = sh->ts;
	p.task = sh->task;
	p.throttle = RR_NONE;
	p.batch = b_index;
	p.episode = b->episode;
	p.nid = b->nid;
	p.flags = task_flags(t, sh->task, b->context);
	if (b->context == RR_CTX_KSWAPD) {
		if (!sh->v[RR_V_SI_IMMEDIATE])
			return 0;
		p.reason = RR_POLICY_REASON_WRITEBACK;
		p.site = RR_SITE_SHRINK_NODE_KSWAPD;
		return add_point(pts, &p);
	}
	if (b->context == RR_CTX_OTHER)
		return 0;
	if (sh->v[RR_V_SI_DIRTY] && sh->v[RR_V_SI_DIRTY] == sh->v[RR_V_SI_CONGESTED]) {
		p.reason = RR_POLICY_REASON_CONGESTED;
		p.site = RR_SITE_SHRINK_NODE_DIRECT;
		return add_point(pts, &p);
	}
	return 0;
}

/*
 * consider_reclaim_throttle() runs once per priority pass of direct (and,
 * in 5.16-rc, cgroup) reclaim: the pass made no progress when what the
 * episode reclaimed so far is at most an eighth of what this priority
 * scanned. A pass is the run of a task's batches at one priority in one
 * episode; its point sits after its last batch.
 */
static int noprogress_points(const struct rr_model *m, uint32_t task,
			     const struct task_batch *batches, uint32_t n,
			     const uint8_t *followed, struct vec *pts)
{
	const struct rr_trace *t = m->trace;
	uint64_t episode_reclaimed = 0, pass_scanned = 0;
	uint32_t episode = RR_NONE;

	for (uint32_t k = 0; k < n; k++) {
		const struct task_batch *b = &batches[k];
		const struct task_batch *next = k + 1 < n ? &batches[k + 1] : NULL;
		struct rr_dpoint p;

		if (b->type != RR_EV_SHRINK_INACTIVE)
			continue;
		if (b->episode != episode) {
			episode = b->episode;
			episode_reclaimed = 0;
			pass_scanned = 0;
		}
		episode_reclaimed += b->reclaimed;
		pass_scanned += b->scanned;
		if (next && next->episode == b->episode && next->type == RR_EV_SHRINK_INACTIVE &&
		    next->aux == b->aux)
			continue;	/* the pass goes on */
		if (b->episode != RR_NONE && b->aux < DEF_PRIORITY - 2 && !followed[b->index] &&
		    (b->context == RR_CTX_DIRECT || b->context == RR_CTX_MEMCG ||
		     b->context == RR_CTX_NODE) && episode_reclaimed * 8 <= pass_scanned) {
			memset(&p, 0, sizeof(p));
			p.start = p.end = b->ts;
			p.task = task;
			p.throttle = RR_NONE;
			p.batch = b->index;
			p.episode = b->episode;
			p.nid = b->nid;
			p.flags = task_flags(t, task, b->context);
			p.reason = RR_POLICY_REASON_NOPROGRESS;
			p.site = RR_SITE_NO_PROGRESS;
			if (add_point(pts, &p))
				return -ENOMEM;
		}
		pass_scanned = 0;
	}
	return 0;
}

static int cmp_item(const void *a, const void *b)
{
	const struct rr_item *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* at equal times, in enum rr_item_kind order */
	return (int)x->kind - (int)y->kind;
}

static int add_item(struct vec *items, uint64_t ts, uint8_t kind, uint32_t index)
{
	struct rr_item *it = vec_push(items, sizeof(*it));

	if (!it)
		return -ENOMEM;
	it->ts = ts;
	it->kind = kind;
	it->index = index;
	return 0;
}

static uint32_t item_task(const struct rr_model *m, const struct rr_decisions *d,
			  const struct rr_item *it)
{
	const struct rr_trace *t = m->trace;

	switch (it->kind) {
	case RR_ITEM_BATCH: {
		const struct rr_batch *b = &m->batches[it->index];

		return t->events[b->shrink_event].task;
	}
	case RR_ITEM_DECISION:
		return d->points[it->index].task;
	default:
		return m->episodes[it->index].task;
	}
}

struct sort_ctx {
	const struct rr_model *m;
	const struct rr_decisions *d;
};

static int cmp_task_then_item(const void *a, const void *b, void *ctx)
{
	const struct sort_ctx *c = ctx;
	uint32_t ta = item_task(c->m, c->d, a), tb = item_task(c->m, c->d, b);

	if (ta != tb)
		return ta < tb ? -1 : 1;
	return cmp_item(a, b);
}

static int item_before(const struct rr_item *x, const struct rr_item *y)
{
	return cmp_item(x, y) < 0;
}

/*
 * Stable natural merge sort of one task's items by (ts, kind): each task's
 * items arrive as a few runs already in time order (episodes, batches,
 * decision points), so this is a handful of linear merges.
 */
static void sort_items(struct rr_item *a, struct rr_item *tmp, size_t n)
{
	struct rr_item *src = a, *dst = tmp;

	if (n < 2)
		return;
	for (;;) {
		size_t runs = 0, lo = 0;

		while (lo < n) {
			size_t mid = lo + 1, hi;

			while (mid < n && !item_before(&src[mid], &src[mid - 1]))
				mid++;
			hi = mid;
			if (hi < n) {
				hi++;
				while (hi < n && !item_before(&src[hi], &src[hi - 1]))
					hi++;
			}
			/* merge src[lo, mid) and src[mid, hi) into dst, left first on ties */
			{
				size_t i = lo, j = mid, k = lo;

				while (i < mid && j < hi)
					dst[k++] = item_before(&src[j], &src[i]) ? src[j++] : src[i++];
				while (i < mid)
					dst[k++] = src[i++];
				while (j < hi)
					dst[k++] = src[j++];
			}
			runs++;
			lo = hi;
		}
		{
			struct rr_item *sw = src;

			src = dst;
			dst = sw;
		}
		if (runs <= 1)
			break;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

/*
 * Group the items per task (tasks in index order, items of RR_NO_TASK or
 * any out-of-range task last, by task value), each group in (ts, kind)
 * order, equal items in the order they were added: what a stable sort by
 * (task, ts, kind) gives.
 */
static int group_items(const struct rr_model *m, const struct rr_decisions *d,
		       struct rr_item **itemsp, const uint32_t *task, size_t n, uint32_t nr_tasks,
		       uint32_t *task_off)
{
	struct rr_item *items = *itemsp;
	size_t *off = calloc((size_t)nr_tasks + 2, sizeof(*off));
	struct rr_item *out = malloc((n ? n : 1) * sizeof(*out));
	int ret = -ENOMEM;

	if (!off || !out)
		goto out;
	for (size_t i = 0; i < n; i++)
		off[(task[i] < nr_tasks ? task[i] : nr_tasks) + 1]++;
	for (uint32_t k = 0; k <= nr_tasks; k++)
		off[k + 1] += off[k];
	{
		size_t *fill = malloc(((size_t)nr_tasks + 1) * sizeof(*fill));

		if (!fill)
			goto out;
		memcpy(fill, off, ((size_t)nr_tasks + 1) * sizeof(*fill));
		for (size_t i = 0; i < n; i++)
			out[fill[task[i] < nr_tasks ? task[i] : nr_tasks]++] = items[i];
		free(fill);
	}
	for (uint32_t k = 0; n && k < nr_tasks; k++)
		sort_items(out + off[k], items + off[k], off[k + 1] - off[k]);
	/* the rest (no task): by task value, then (ts, kind), stably */
	{
		size_t lo = off[nr_tasks], hi = off[nr_tasks + 1];

		if (hi > lo) {
			struct sort_ctx ctx = { m, d };

			qsort_r(out + lo, hi - lo, sizeof(*out), cmp_task_then_item, &ctx);
		}
	}
	for (uint32_t k = 0; k <= nr_tasks; k++)
		task_off[k] = (uint32_t)off[k];
	/* the grouped copy replaces the input, which served as scratch */
	free(items);
	*itemsp = out;
	out = NULL;
	ret = 0;
out:
	free(off);
	free(out);
	return ret;
}

/* Append an item and the task it belongs to. */
static int add_task_item(struct vec *items, struct vec *tasks, uint64_t ts, uint8_t kind,
			 uint32_t index, uint32_t task)
{
	uint32_t *k = vec_push(tasks, sizeof(*k));

	if (!k)
		return -ENOMEM;
	*k = task;
	return add_item(items, ts, kind, index);
}

/* Each point's batch and task fields (struct rr_dpoint), read at every ask. */
static void copy_batch_fields(const struct rr_model *m, struct rr_decisions *d)
{
	const struct rr_trace *t = m->trace;

	for (uint32_t i = 0; i < d->nr_points; i++) {
		struct rr_dpoint *p = &d->points[i];
		const struct rr_event *sh;

		p->pid = p->task != RR_NO_TASK ? t->tasks[p->task].pid : 0;
		p->priority = -1;
		p->batch_scanned = p->batch_reclaimed = 0;
		p->batch_dirty = p->batch_congested = p->batch_writeback = 0;
		p->batch_immediate = 0;
		if (p->batch == RR_NONE || m->batches[p->batch].shrink_event == RR_NONE)
			continue;
		sh = &t->events[m->batches[p->batch].shrink_event];
		if (sh->type != RR_EV_SHRINK_INACTIVE)
			continue;
		p->priority = sh->aux;
		p->batch_scanned = sh->v[RR_V_SI_SCANNED];
		p->batch_reclaimed = sh->v[RR_V_SI_RECLAIMED];
		p->batch_dirty = sh->v[RR_V_SI_DIRTY];
		p->batch_congested = sh->v[RR_V_SI_CONGESTED];
		p->batch_writeback = sh->v[RR_V_SI_WRITEBACK];
		p->batch_immediate = sh->v[RR_V_SI_IMMEDIATE];
	}
}

static int lay_out_items(const struct rr_model *m, struct rr_decisions *d)
{
	const struct rr_trace *t = m->trace;
	struct vec items = { 0 }, tasks = { 0 };
	struct rr_item *grouped;
	size_t n = 2 * (size_t)m->nr_episodes + m->nr_batches + d->nr_points + 1;

	/* sized once: doubling would copy (and fault in) the arrays again */
	items.p = malloc(n * sizeof(struct rr_item));
	tasks.p = malloc(n * sizeof(uint32_t));
	if (!items.p || !tasks.p)
		goto oom;
	items.cap = tasks.cap = n;
	for (uint32_t e = 0; e < m->nr_episodes; e++) {
		const struct rr_episode *ep = &m->episodes[e];

		if (add_task_item(&items, &tasks, ep->begin, RR_ITEM_EPISODE_BEGIN, e, ep->task) ||
		    add_task_item(&items, &tasks, ep->end, RR_ITEM_EPISODE_END, e, ep->task))
			goto oom;
	}
	for (uint32_t i = 0; i < m->nr_batches; i++) {
		const struct rr_batch *b = &m->batches[i];
		const struct rr_event *sh;

		if (b->shrink_event == RR_NONE)
			continue;
		sh = &t->events[b->shrink_event];
		if (add_task_item(&items, &tasks, sh->ts, RR_ITEM_BATCH, i, sh->task))
			goto oom;
	}
	for (uint32_t i = 0; i < d->nr_points; i++)
		if (add_task_item(&items, &tasks, d->points[i].start, RR_ITEM_DECISION, i,
				  d->points[i].task))
			goto oom;
	d->nr_tasks = (uint32_t)t->nr_tasks;
	d->task_off = calloc((size_t)d->nr_tasks + 2, sizeof(*d->task_off));
	/* on success group_items frees the ungrouped array and hands its copy back */
	grouped = items.p;
	if (!d->task_off ||
	    group_items(m, d, &grouped, tasks.p, items.n, d->nr_tasks, d->task_off))
		goto oom;
	d->items = grouped;
	free(tasks.p);
	return 0;
oom:
	free(items.p);
	free(tasks.p);
	return -ENOMEM;
}

/*
 * When did the recorded sleep start? usec_delayed counts jiffies, so
 * ts - usec_delayed is only right to a jiffy; the task's previous event
 * (the isolate or shrink before it) is a sharper bound when it lies in
 * that jiffy. The sleep started right after it. A task records nothing
 * while it sleeps, so a previous event later than ts - usec_delayed (a
 * delay that overlaps the task's own events: clock skew between cpus, or
 * an inconsistent recording) also bounds the start: otherwise the sleep
 * would begin before events that happened ahead of it, and replaying
 * would reorder the task's timeline.
 */
static uint64_t sleep_start(const struct rr_model *m, const struct rr_throttle *th,
			    uint64_t jiffy_ns)
{
	const struct rr_event *prev = rr_model_previous_of_task(m, th->event);
	uint64_t lo = th->start > jiffy_ns ? th->start - jiffy_ns : 0;

	if (prev && prev->ts >= lo && prev->ts < th->end)
		return prev->ts;
	return th->start;
}

int rr_decisions_build(const struct rr_model *m, struct rr_decisions *d)
{
	const struct rr_trace *t = m->trace;
	uint64_t jiffy_ns = 1000000000ULL / rr_model_hz(m, NULL);
	struct vec pts = { 0 };
	struct task_batch *task_batches = NULL;
	uint32_t *tb_off = NULL, *fill = NULL, *batch_task = NULL;
	uint8_t *followed = NULL;
	int ret = -ENOMEM;

	memset(d, 0, sizeof(*d));
	/* the batches of each task in shrink order, to find "the batch before" */
	tb_off = calloc(t->nr_tasks + 2, sizeof(*tb_off));
	task_batches = malloc(((size_t)m->nr_batches + 1) * sizeof(*task_batches));
	batch_task = malloc(((size_t)m->nr_batches + 1) * sizeof(*batch_task));
	fill = calloc(t->nr_tasks + 1, sizeof(*fill));
	followed = calloc((size_t)m->nr_batches + 1, 1);
	if (!tb_off || !task_batches || !batch_task || !fill || !followed)
		goto out;
	for (uint32_t i = 0; i < m->nr_batches; i++) {
		batch_task[i] = RR_NO_TASK;
		if (m->batches[i].shrink_event != RR_NONE) {
			batch_task[i] = t->events[m->batches[i].shrink_event].task;
			tb_off[batch_task[i] + 1]++;
		}
	}
	for (size_t k = 0; k < t->nr_tasks; k++)
		tb_off[k + 1] += tb_off[k];
	/* batches are stored in shrink order, so each task's list is sorted */
	for (uint32_t i = 0; i < m->nr_batches; i++) {
		uint32_t task = batch_task[i];

		if (task == RR_NO_TASK)
			continue;
		task_batches[tb_off[task] + fill[task]++] = task_batch_of(m, i);
	}

	for (uint32_t k = 0; k < m->nr_throttles; k++) {
		const struct rr_throttle *th = &m->throttles[k];
		struct rr_dpoint p;

		if (th->task == RR_NO_TASK || th->reason >= RR_NR_REASONS)
			continue;
		memset(&p, 0, sizeof(p));
		p.start = sleep_start(m, th, jiffy_ns);
		p.end = th->end;
		p.task = th->task;
		p.throttle = k;
		p.episode = th->episode;
		p.nid = th->nid;
		p.flags = RR_DP_OBSERVED | task_flags(t, th->task, th->context);
		p.recorded_timeout_ns = (uint64_t)th->usec_timeout * 1000;
		p.recorded_delayed_ns = (uint64_t)th->usec_delayed * 1000;
		p.batch = batch_before(task_batches, tb_off[th->task], tb_off[th->task + 1],
				       th->end);
		if (p.batch != RR_NONE)
			followed[p.batch] = 1;
		classify_observed(m, th, &p);
		if (add_point(&pts, &p))
			goto out;
		d->nr_observed++;
	}
	{
		size_t before = pts.n;

		for (uint32_t i = 0; i < m->nr_batches; i++)
			if (latent_points(m, i, followed[i], &pts))
				goto out;
		for (size_t k = 0; k < t->nr_tasks; k++)
			if (noprogress_points(m, (uint32_t)k, task_batches + tb_off[k],
					      tb_off[k + 1] - tb_off[k], followed, &pts))
				goto out;
		d->nr_latent += (uint32_t)(pts.n - before);
	}
	d->points = pts.p;
	d->nr_points = (uint32_t)pts.n;
	pts.p = NULL;
	copy_batch_fields(m, d);
	ret = lay_out_items(m, d);
out:
	free(pts.p);
	free(task_batches);
	free(batch_task);
	free(tb_off);
	free(fill);
	free(followed);
	if (ret)
		rr_decisions_release(d);
	return ret;
}

void rr_decisions_release(struct rr_decisions *d)
{
	free(d->points);
	free(d->items);
	free(d->task_off);
	memset(d, 0, sizeof(*d));
}
