// SPDX-License-Identifier: GPL-2.0
/*
 * The Chrome Trace Event writer (timeline_export.h). Events are written as
 * they come, one line each, so a long replay never holds the document in
 * memory; the only state is which (policy, node) process is current and
 * which threads it has named.
 *
 * Time: microseconds from the trace's first record, with the nanoseconds
 * as three decimals ("ts":12345.678), printed from integers so no
 * floating-point rounding creeps in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "replay/curves.h"
#include "timeline_export.h"

#define MAX_COUNTER_POINTS 4000	/* per counter track: enough to draw, small to load */

struct rr_timeline {
	FILE *f;
	int nr_inputs, events;
	int next_pid, base_pid;
	const struct rr_input *in;
	uint64_t t0;
	int nr_nodes;
	size_t nr_tasks;
	uint8_t *named;		/* [node * nr_tasks + task]: thread name written */
	uint64_t *last_end;	/* [node * nr_tasks + task]: end of its last slice written */
	struct held {		/* per task: sleeps and retries waiting for their episode */
		struct rr_replay_span *v;
		size_t n, cap;
	} *held;
	char **paths;		/* each input's path, for otherData */
	int nr_paths;
};

static void flush_all(struct rr_timeline *t);
static void free_held(struct rr_timeline *t);

/* A JSON string of @s: ASCII only, since task names are arbitrary bytes. */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else if (*p >= 0x7f)
			fputc('?', f);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* @ns after the time origin (may be before it) as microseconds.nanoseconds. */
static void put_us(FILE *f, int64_t ns)
{
	uint64_t a = ns < 0 ? (uint64_t)-ns : (uint64_t)ns;

	fprintf(f, "%s%" PRIu64 ".%03u", ns < 0 ? "-" : "", a / 1000, (unsigned)(a % 1000));
}

static void put_ts(struct rr_timeline *t, uint64_t ns)
{
	put_us(t->f, (int64_t)(ns - t->t0));
}

/* Start one event object: the separator, name, phase, pid and tid. */
static void event_head(struct rr_timeline *t, const char *name, const char *ph, int pid,
		       uint32_t tid)
{
	fputs(t->events++ ? ",\n{\"name\":" : "\n{\"name\":", t->f);
	put_str(t->f, name);
	fprintf(t->f, ",\"ph\":\"%s\",\"pid\":%d,\"tid\":%" PRIu32, ph, pid, tid);
}

static void metadata(struct rr_timeline *t, const char *what, int pid, uint32_t tid,
		     const char *name)
{
	event_head(t, what, "M", pid, tid);
	fputs(",\"args\":{\"name\":", t->f);
	put_str(t->f, name);
	fputs("}}", t->f);
}

struct rr_timeline *rr_timeline_open(FILE *f, int nr_inputs)
{
	struct rr_timeline *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->paths = calloc((size_t)(nr_inputs > 0 ? nr_inputs : 1), sizeof(*t->paths));
	if (!t->paths) {
		free(t);
		return NULL;
	}
	t->f = f;
	t->nr_inputs = nr_inputs;
	t->next_pid = 1;
	fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[", f);
	return t;
}

/* Thin a curve to MAX_COUNTER_POINTS: keep a point when it is far enough in
 * time from the last one kept, and always the last one. */
static int keep_point(uint64_t ts, uint64_t *last, uint64_t min_gap, int is_last)
{
	if (!is_last && *last != UINT64_MAX && ts - *last < min_gap)
		return 0;
	*last = ts;
	return 1;
}

static void counter(struct rr_timeline *t, int pid, const char *name, const char *key,
		    uint64_t ts, int64_t v)
{
	event_head(t, name, "C", pid, 0);
	fputs(",\"ts\":", t->f);
	put_ts(t, ts);
	fprintf(t->f, ",\"args\":{\"%s\":%" PRId64 "}}", key, v);
}

static uint64_t min_gap(const struct rr_input *in)
{
	uint64_t span = in->model->last_ts - in->model->first_ts;

	return span / MAX_COUNTER_POINTS;
}

static void points(struct rr_timeline *t, int pid, const char *name, const char *key,
		   const struct rr_point *p, size_t n)
{
	uint64_t last = UINT64_MAX, gap = min_gap(t->in);

	for (size_t i = 0; i < n; i++)
		if (keep_point(p[i].ts, &last, gap, i + 1 == n))
			counter(t, pid, name, key, p[i].ts, (int64_t)p[i].v);
}

struct delta {
	uint64_t ts;
	int64_t d;
};

static int cmp_delta(const void *a, const void *b)
{
	const struct delta *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/*
 * Pages isolated on @nid reconstructed from the batches: each batch holds
 * its isolate's nr_taken from the isolate to the shrink that puts them back.
 */
static int isolated_reconstructed(struct rr_timeline *t, int pid, int nid)
{
	const struct rr_model *m = t->in->model;
	const struct rr_event *ev = m->trace->events;
	struct delta *d = malloc(((size_t)m->nr_batches * 2 + 1) * sizeof(*d));
	uint64_t last = UINT64_MAX, gap = min_gap(t->in);
	size_t n = 0;
	int64_t level = 0;

	if (!d)
		return -ENOMEM;
	for (uint32_t i = 0; i < m->nr_batches; i++) {
		const struct rr_batch *b = &m->batches[i];

		if (b->nid != nid || b->isolate_event == RR_NONE || b->shrink_event == RR_NONE)
			continue;
		d[n++] = (struct delta){ ev[b->isolate_event].ts,
					 ev[b->isolate_event].v[RR_V_ISO_TAKEN] };
		d[n++] = (struct delta){ ev[b->shrink_event].ts,
					 -(int64_t)ev[b->isolate_event].v[RR_V_ISO_TAKEN] };
	}
	qsort(d, n, sizeof(*d), cmp_delta);
	for (size_t i = 0; i < n; i++) {
		level += d[i].d;
		/* One point per timestamp: the level after all its changes. */
		if (i + 1 < n && d[i + 1].ts == d[i].ts)
			continue;
		if (keep_point(d[i].ts, &last, gap, i + 1 == n))
			counter(t, pid, "isolated pages", "pages", d[i].ts, level);
	}
	free(d);
	return 0;
}

static void sampled(struct rr_timeline *t, int pid, const struct rr_node_curves *nc)
{
	static const struct {
		const char *name;
		int c1, c2;
	} tracks[] = {
		{ "isolated pages", RR_C_NR_ISOLATED_ANON, RR_C_NR_ISOLATED_FILE },
		{ "dirty pages", RR_C_NR_DIRTY, -1 },
		{ "writeback pages", RR_C_NR_WRITEBACK, -1 },
		{ "free pages", RR_C_NR_FREE_PAGES, -1 },
	};

	for (size_t k = 0; k < sizeof(tracks) / sizeof(tracks[0]); k++) {
		uint64_t last = UINT64_MAX, gap = min_gap(t->in);

		for (size_t i = 0; i < nc->nr_samples; i++) {
			const struct rr_counter_sample *s = nc->samples[i];
			int64_t v;

			if (!(s->present & (1u << tracks[k].c1)))
				continue;
			v = (int64_t)s->value[tracks[k].c1];
			if (tracks[k].c2 >= 0 && (s->present & (1u << tracks[k].c2)))
				v += (int64_t)s->value[tracks[k].c2];
			if (keep_point(s->ts, &last, gap, i + 1 == nc->nr_samples))
				counter(t, pid, tracks[k].name, "pages", s->ts, v);
		}
	}
}

/* The node state curves, in the node's process of the input's first policy:
 * they do not depend on the policy (curves.h), so once is enough. */
static int curves(struct rr_timeline *t, const struct rr_curves *c)
{
	for (int n = 0; n < t->nr_nodes && n < c->nr_nodes; n++) {
		const struct rr_node_curves *nc = &c->node[n];
		int pid = t->base_pid + n;
		uint64_t last = UINT64_MAX, gap = min_gap(t->in);

		points(t, pid, "written pages", "pages", nc->written, nc->nr_written);
		for (size_t i = 0; i < nc->nr_cum; i++) {
			uint64_t ts = nc->cum_scanned[i].ts;
			int64_t ppm;

			if (!keep_point(ts, &last, gap, i + 1 == nc->nr_cum))
				continue;
			ppm = rr_curve_efficiency_ppm(nc, ts);
			if (ppm >= 0)
				counter(t, pid, "reclaim efficiency", "percent", ts, ppm / 10000);
		}
		if (c->sampled && nc->nr_samples) {
			sampled(t, pid, nc);
		} else if (isolated_reconstructed(t, pid, n)) {
			return -ENOMEM;
		}
	}
	if (t->nr_nodes)
		points(t, t->base_pid, "block requests in flight", "requests", c->inflight,
		       c->nr_inflight);
	return 0;
}

/* Lost-event notices, as global instants at the time of the notice. */
static void losses(struct rr_timeline *t)
{
	const struct rr_trace *tr = t->in->trace;
	const struct rr_model *m = t->in->model;

	for (size_t i = 0; i < tr->nr_events; i++) {
		const struct rr_event *e = &tr->events[i];
		int nid = e->cpu < m->nr_cpus && m->cpu_node ? m->cpu_node[e->cpu] : -1;

		if (e->type != RR_EV_LOST)
			continue;
		if (nid < 0 || nid >= t->nr_nodes)
			nid = 0;
		event_head(t, "lost events", "i", t->base_pid + nid, 0);
		fputs(",\"s\":\"g\",\"ts\":", t->f);
		put_ts(t, e->ts);
		fprintf(t->f, ",\"args\":{\"cpu\":%u,\"count\":%" PRIu32 "}}", e->cpu,
			e->v[RR_V_LOST_COUNT]);
	}
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int rr_timeline_policy_begin(struct rr_timeline *t, const struct rr_input *in, int k,
			     const char *label, const struct rr_curves *c)
{
	char name[256];
	size_t need;

	/* The previous replay's held slices belong to its own input. */
	if (t->in)
		flush_all(t);
	if (in != t->in) {
		t->in = in;
		t->t0 = in->model->first_ts;
		if (t->nr_paths < t->nr_inputs) {
			t->paths[t->nr_paths] = strdup(in->trace->path);
			if (!t->paths[t->nr_paths++])
				return -ENOMEM;
		}
	}
	free_held(t);
	t->nr_nodes = in->trace->nr_nodes;
	t->nr_tasks = in->trace->nr_tasks;
	t->base_pid = t->next_pid;
	t->next_pid += t->nr_nodes;
	need = (size_t)t->nr_nodes * (t->nr_tasks ? t->nr_tasks : 1);
	free(t->named);
	t->named = calloc(need, 1);
	t->last_end = calloc(need, sizeof(*t->last_end));
	t->held = calloc(t->nr_tasks ? t->nr_tasks : 1, sizeof(*t->held));
	if (!t->named || !t->last_end || !t->held)
		return -ENOMEM;
	for (int n = 0; n < t->nr_nodes; n++) {
		if (t->nr_inputs > 1)
			snprintf(name, sizeof(name), "%s node %d [%s]", label, n,
				 base_name(in->trace->path));
		else
			snprintf(name, sizeof(name), "%s node %d", label, n);
		metadata(t, "process_name", t->base_pid + n, 0, name);
		event_head(t, "process_sort_index", "M", t->base_pid + n, 0);
		fprintf(t->f, ",\"args\":{\"sort_index\":%d}}", t->base_pid + n);
	}
	if (k == 0) {
		if (curves(t, c))
			return -ENOMEM;
		losses(t);
	}
	/* A write error is reported once, naming the file, when it is closed. */
	return 0;
}

static const char *episode_name(int ctx)
{
	switch (ctx) {
	case RR_CTX_DIRECT: return "mm_vmscan_direct_reclaim";
	case RR_CTX_MEMCG: return "mm_vmscan_memcg_reclaim";
	case RR_CTX_SOFTLIMIT: return "mm_vmscan_memcg_softlimit_reclaim";
	case RR_CTX_NODE: return "mm_vmscan_node_reclaim";
	case RR_CTX_KSWAPD: return "kswapd";
	default: return "reclaim";
	}
}

static const char *throttle_name(int reason)
{
	/* The legacy waits had their own events before reclaim_throttle(). */
	if (reason == RR_POLICY_REASON_CONGESTION_WAIT)
		return "writeback_congestion_wait";
	if (reason == RR_POLICY_REASON_WAIT_IFF_CONGESTED)
		return "writeback_wait_iff_congested";
	return "mm_vmscan_throttled";
}

/* Write one slice drawn over [@b, @e]; @s keeps the replayed times. */
static void slice(struct rr_timeline *t, const struct rr_replay_span *s, uint64_t b, uint64_t e)
{
	const struct rr_task *task = &t->in->trace->tasks[s->task];
	int nid = s->nid >= 0 && s->nid < t->nr_nodes ? s->nid : 0;
	int pid = t->base_pid + nid;
	char name[40];
	const char *ev;

	if (!t->named[(size_t)nid * t->nr_tasks + s->task]) {
		t->named[(size_t)nid * t->nr_tasks + s->task] = 1;
		snprintf(name, sizeof(name), "%.16s-%" PRIu32, task->comm, task->pid);
		metadata(t, "thread_name", pid, task->pid, name);
	}
	ev = s->kind == RR_SPAN_EPISODE ? episode_name(s->ctx) :
	     s->kind == RR_SPAN_THROTTLE ? throttle_name(s->ctx) : "retry";
	event_head(t, ev, "X", pid, task->pid);
	fprintf(t->f, ",\"cat\":\"%s\",\"ts\":", s->kind == RR_SPAN_EPISODE ? "reclaim" :
		s->kind == RR_SPAN_THROTTLE ? "throttle" : "retry");
	put_ts(t, b);
	fputs(",\"dur\":", t->f);
	put_us(t->f, (int64_t)(e - b));
	switch (s->kind) {
	case RR_SPAN_EPISODE:
		fprintf(t->f, ",\"args\":{\"episode\":%" PRIu32 ",\"open\":%s", s->index,
			s->flags & RR_SPAN_OPEN ? "true" : "false");
		break;
	case RR_SPAN_THROTTLE:
		fputs(",\"args\":{\"reason\":", t->f);
		put_str(t->f, s->ctx < RR_NR_REASONS ? rr_reason_name(s->ctx) : "unknown");
		fputs(",\"timeout\":", t->f);
		put_us(t->f, (int64_t)s->timeout_ns);
		fprintf(t->f, ",\"timed_out\":%s,\"recorded\":%s",
			s->flags & RR_SPAN_TIMED_OUT ? "true" : "false",
			s->flags & RR_SPAN_RECORDED ? "true" : "false");
		break;
	default:
		fprintf(t->f, ",\"args\":{\"batches\":%" PRIu64, s->batches);
	}
	/* What the replay said, when the drawing had to clip it to nest. */
	fprintf(t->f, ",\"clipped\":%s,\"replayed_dur\":",
		b != s->begin_ns || e != s->end_ns ? "true" : "false");
	put_us(t->f, (int64_t)(s->end_ns - s->begin_ns));
	fputs("}}", t->f);
}

/* [@lo, @hi] clamps of @s's times, never inverted. */
static void clamp(const struct rr_replay_span *s, uint64_t lo, uint64_t hi, uint64_t *b,
		  uint64_t *e)
{
	*b = s->begin_ns > lo ? s->begin_ns : lo;
	*e = s->end_ns < hi ? s->end_ns : hi;
	if (*e < *b)
		*e = *b;
}

static uint64_t *cursor(struct rr_timeline *t, const struct rr_replay_span *s)
{
	int nid = s->nid >= 0 && s->nid < t->nr_nodes ? s->nid : 0;

	return &t->last_end[(size_t)nid * t->nr_tasks + s->task];
}

/*
 * Write @task's held slices and then its episode @ep (NULL: the replay is
 * over). Slices of one thread must nest for the viewers, but recorded
 * sleeps are jiffy-rounded (usec_delayed may exceed the time between the
 * decision and the next event), so each slice is clipped to start after
 * its predecessor on the thread and to end inside its episode; the args
 * keep the replayed length.
 */
static void flush_task(struct rr_timeline *t, uint32_t task, const struct rr_replay_span *ep)
{
	struct held *h = &t->held[task];
	uint64_t b, e, eb = 0, ee = 0, *cur;
	size_t i;

	/* Before the episode, or on another node's thread: siblings only. */
	for (i = 0; i < h->n; i++) {
		const struct rr_replay_span *s = &h->v[i];

		if (ep && s->nid == ep->nid && s->end_ns > ep->begin_ns)
			continue;
		cur = cursor(t, s);
		clamp(s, *cur, ep && s->nid == ep->nid ? ep->begin_ns : UINT64_MAX, &b, &e);
		slice(t, s, b, e);
		*cur = e;
	}
	if (ep) {
		cur = cursor(t, ep);
		clamp(ep, *cur, UINT64_MAX, &eb, &ee);
		slice(t, ep, eb, ee);
		*cur = eb;
		for (i = 0; i < h->n; i++) {
			const struct rr_replay_span *s = &h->v[i];

			if (!(s->nid == ep->nid && s->end_ns > ep->begin_ns))
				continue;
			clamp(s, *cur, ee, &b, &e);
			slice(t, s, b, e);
			*cur = e;
		}
		*cur = ee;
	}
	h->n = 0;
}

static void flush_all(struct rr_timeline *t)
{
	for (size_t k = 0; t->held && k < t->nr_tasks; k++)
		if (t->held[k].n)
			flush_task(t, (uint32_t)k, NULL);
}

int rr_timeline_span(void *data, const struct rr_replay_span *s)
{
	struct rr_timeline *t = data;
	struct held *h;

	if (!t->in || s->task >= t->nr_tasks)
		return 0;
	if (s->kind == RR_SPAN_EPISODE) {
		flush_task(t, s->task, s);
		return 0;
	}
	/* Sleeps and retries close before their episode: hold them until it does. */
	h = &t->held[s->task];
	if (h->n == h->cap) {
		size_t ncap = h->cap ? h->cap * 2 : 8;
		struct rr_replay_span *nv = realloc(h->v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		h->v = nv;
		h->cap = ncap;
	}
	h->v[h->n++] = *s;
	return 0;
}

static void free_held(struct rr_timeline *t)
{
	for (size_t k = 0; t->held && k < t->nr_tasks; k++)
		free(t->held[k].v);
	free(t->held);
	free(t->last_end);
	t->held = NULL;
	t->last_end = NULL;
}

int rr_timeline_close(struct rr_timeline *t)
{
	int ret;

	if (!t)
		return 0;
	if (t->in)
		flush_all(t);
	free_held(t);
	fputs("\n],\"otherData\":{\"tool\":\"reclaim-replay\",\"version\":\"" RR_VERSION "\","
	      "\"time_origin\":\"each trace's first record\",\"inputs\":[", t->f);
	for (int i = 0; i < t->nr_paths; i++) {
		if (i)
			fputc(',', t->f);
		put_str(t->f, t->paths[i]);
		free(t->paths[i]);
	}
	fputs("]}}\n", t->f);
	ret = fflush(t->f) || ferror(t->f) ? -1 : 0;
	free(t->paths);
	free(t->named);
	free(t);
	return ret;
}
