// SPDX-License-Identifier: GPL-2.0
/*
 * The live view: a private instance with the recorder's events, drained
 * every interval through tracefs_iterate_raw_events(), each record decoded
 * by the trace.dat reader's own code (parsers/decode.c: fields found by name
 * in the tep format, values stored by rr_builder_apply_field), folded into per-node figures: reclaim stall from
 * begin/end pairs, throttles per reason, scanned/reclaimed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode.h"
#include "recorder.h"
#include "trace_builder.h"
#include "reclaim_replay/error.h"

/* direct, memcg, softlimit, node: the kinds with begin/end pairs */
#define RR_NR_EPISODE_KINDS_LIVE 4

/* What we learnt about one event id on its first record (parsers/decode.h). */
struct live_type {
	uint8_t ready;
	struct rr_decode_type dec;
};

struct live_node {
	uint64_t stall_ns;
	uint64_t episodes[RR_NR_EPISODE_KINDS_LIVE];
	uint64_t scanned, reclaimed;
	uint64_t thr_count[RR_NR_REASONS], thr_delayed_us[RR_NR_REASONS];
	uint64_t kswapd_wakes;
};

/* A task inside a direct/memcg/softlimit/node reclaim episode. */
struct open_episode {
	uint64_t begin;
	uint32_t pid;
	int16_t nid;		/* from its shrink batches; -1 until one is seen */
	uint8_t kind;
};

#define MAX_OPEN 4096

struct live_state {
	struct tep_handle *tep;
	struct live_type *types;
	int max_id;
	int nr_nodes;
	struct live_node cur[RR_MAX_NODES], total[RR_MAX_NODES];
	struct open_episode open[MAX_OPEN];
	int nr_open;
	uint64_t records, lost, unpaired, undecodable;
	uint64_t lost_seen;		/* ring-buffer loss counters at the last drain */
	uint64_t total_records, total_lost;
};

static const char *const kind_names[RR_NR_EPISODE_KINDS_LIVE] = { "direct", "memcg",
								  "softlimit", "node" };

static int find_open(const struct live_state *st, uint32_t pid)
{
	for (int i = 0; i < st->nr_open; i++)
		if (st->open[i].pid == pid)
			return i;
	return -1;
}

static int begin_kind(int type)
{
	switch (type) {
	case RR_EV_DIRECT_BEGIN: return 0;
	case RR_EV_MEMCG_BEGIN: return 1;
	case RR_EV_SOFTLIMIT_BEGIN: return 2;
	case RR_EV_NODE_BEGIN: return 3;
	default: return -1;
	}
}

static int end_kind(int type)
{
	switch (type) {
	case RR_EV_DIRECT_END: return 0;
	case RR_EV_MEMCG_END: return 1;
	case RR_EV_SOFTLIMIT_END: return 2;
	case RR_EV_NODE_END: return 3;
	default: return -1;
	}
}

static struct live_node *node_of(struct live_state *st, int nid)
{
	if (nid < 0 || nid >= RR_MAX_NODES)
		nid = 0;	/* no node known: node 0, as the model does without a map */
	if (nid + 1 > st->nr_nodes)
		st->nr_nodes = nid + 1;
	return &st->cur[nid];
}

static void fold(struct live_state *st, const struct rr_event *ev, uint32_t pid)
{
	struct live_node *n;
	int k, i;

	k = begin_kind(ev->type);
	if (k >= 0) {
		i = find_open(st, pid);
		if (i < 0 && st->nr_open < MAX_OPEN)
			i = st->nr_open++;
		if (i < 0)
			return;
		st->open[i] = (struct open_episode){ .begin = ev->ts, .pid = pid, .nid = ev->nid,
						     .kind = (uint8_t)k };
		return;
	}
	k = end_kind(ev->type);
	if (k >= 0) {
		i = find_open(st, pid);
		if (i < 0 || st->open[i].kind != k || ev->ts < st->open[i].begin) {
			st->unpaired++;
			return;
		}
		n = node_of(st, st->open[i].nid);
		n->stall_ns += ev->ts - st->open[i].begin;
		n->episodes[k]++;
		st->open[i] = st->open[--st->nr_open];
		return;
	}
	switch (ev->type) {
	case RR_EV_SHRINK_INACTIVE:
		n = node_of(st, ev->nid);
		n->scanned += ev->v[RR_V_SI_SCANNED];
		n->reclaimed += ev->v[RR_V_SI_RECLAIMED];
		i = find_open(st, pid);
		if (i >= 0 && st->open[i].nid < 0)
			st->open[i].nid = ev->nid;
		break;
	case RR_EV_THROTTLED:
		if (ev->aux >= RR_NR_REASONS)
			break;
		n = node_of(st, ev->nid);
		n->thr_count[ev->aux]++;
		n->thr_delayed_us[ev->aux] += ev->v[RR_V_THR_DELAYED];
		break;
	case RR_EV_CONGESTION_WAIT:
	case RR_EV_WAIT_IFF_CONGESTED:
		k = ev->type == RR_EV_CONGESTION_WAIT ? RR_REASON_LEGACY_CONGESTION_WAIT
						      : RR_REASON_LEGACY_WAIT_IFF_CONGESTED;
		n = node_of(st, RR_NID_NONE);
		n->thr_count[k]++;
		n->thr_delayed_us[k] += ev->v[RR_V_THR_DELAYED];
		break;
	case RR_EV_KSWAPD_WAKE:
		node_of(st, ev->nid)->kswapd_wakes++;
		break;
	default:
		break;
	}
}

static int on_record(struct tep_event *e, struct tep_record *rec, int cpu, void *data)
{
	struct live_state *st = data;
	struct live_type *ti;
	struct rr_event ev;
	uint64_t pid = 0;
	int ok = 1;

	st->records++;
	if (!e || e->id < 0 || e->id > st->max_id)
		return 0;
	ti = &st->types[e->id];
	if (!ti->ready) {
		rr_decode_learn(&ti->dec, e);
		ti->ready = 1;
	}
	if (!ti->dec.desc)
		return 0;
	if (ti->dec.undecodable) {
		st->undecodable++;
		return 0;
	}
	memset(&ev, 0, sizeof(ev));
	ev.ts = rec->ts;
	ev.cpu = (uint16_t)cpu;
	ev.nid = RR_NID_NONE;
	ev.type = (uint8_t)ti->dec.desc->type;
	/* live records are always in this machine's byte order: no swap */
	if (rr_decode_fields(&ti->dec, rec->data, rec->size, 0, &ev)) {
		st->undecodable++;
		return 0;
	}
	if (ti->dec.common_pid)
		pid = rr_decode_number(ti->dec.common_pid, rec->data, rec->size, 0, &ok);
	fold(st, &ev, (uint32_t)pid);
	return rr_rec_stop ? 1 : 0;
}

static json_t *node_json(const struct live_node *n, int nid, const struct live_node *tot)
{
	json_t *o = json_object(), *thr = json_object(), *eps = json_object();

	json_object_set_new(o, "nid", json_integer(nid));
	json_object_set_new(o, "stall_ms", json_real((double)n->stall_ns / 1e6));
	json_object_set_new(o, "stall_ms_total", json_real((double)tot->stall_ns / 1e6));
	for (int k = 0; k < RR_NR_EPISODE_KINDS_LIVE; k++)
		json_object_set_new(eps, kind_names[k], json_integer((json_int_t)n->episodes[k]));
	json_object_set_new(o, "episodes", eps);
	json_object_set_new(o, "scanned", json_integer((json_int_t)n->scanned));
	json_object_set_new(o, "reclaimed", json_integer((json_int_t)n->reclaimed));
	json_object_set_new(o, "efficiency", n->scanned ?
			    json_real((double)n->reclaimed / (double)n->scanned) : json_null());
	for (int r = 0; r < RR_NR_REASONS; r++) {
		if (!n->thr_count[r] && r >= RR_REASON_LEGACY_CONGESTION_WAIT)
			continue;
		json_object_set_new(thr, rr_reason_name((enum rr_throttle_reason)r),
				    json_pack("{s:I,s:f}", "count", (json_int_t)n->thr_count[r],
					      "delayed_ms", (double)n->thr_delayed_us[r] / 1e3));
	}
	json_object_set_new(o, "throttles", thr);
	json_object_set_new(o, "kswapd_wakes", json_integer((json_int_t)n->kswapd_wakes));
	return o;
}

static int print_json(const struct rr_live_opts *o, const struct live_state *st, double t,
		      double interval)
{
	json_t *doc = json_object(), *nodes = json_array();
	int ret;

	json_object_set_new(doc, "t_s", json_real(t));
	json_object_set_new(doc, "interval_s", json_real(interval));
	json_object_set_new(doc, "records", json_integer((json_int_t)st->records));
	json_object_set_new(doc, "lost_events", json_integer((json_int_t)st->lost));
	json_object_set_new(doc, "lost_events_total", json_integer((json_int_t)st->total_lost));
	json_object_set_new(doc, "clean", json_boolean(!st->total_lost));
	json_object_set_new(doc, "in_reclaim", json_integer(st->nr_open));
	for (int nid = 0; nid < st->nr_nodes; nid++)
		json_array_append_new(nodes, node_json(&st->cur[nid], nid, &st->total[nid]));
	json_object_set_new(doc, "nodes", nodes);
	ret = json_dumpf(doc, o->out, JSON_SORT_KEYS | JSON_COMPACT | JSON_REAL_PRECISION(6));
	json_decref(doc);
	if (ret || fputc('\n', o->out) == EOF || fflush(o->out))
		return -1;
	return 0;
}

static int print_table(const struct rr_live_opts *o, const struct live_state *st,
		       const char *inst, double t, double interval)
{
	FILE *f = o->out;

	if (o->redraw)
		fputs("\033[H\033[2J", f);
	fprintf(f, "reclaim-replay live  instance %s  t=%.1fs  every %.2fs  records %llu  "
		"lost %llu%s  in reclaim %d\n\n", inst, t, interval,
		(unsigned long long)st->records, (unsigned long long)st->lost,
		st->total_lost ? " (LOSSY)" : "", st->nr_open);
	fprintf(f, "%4s %10s %10s %7s %7s %10s %10s %5s %14s %14s %14s %14s\n", "node",
		"stall ms", "total ms", "direct", "memcg", "scanned", "reclaimed", "eff%",
		"WRITEBACK n/ms", "ISOLATED n/ms", "NOPROGR n/ms", "CONGEST n/ms");
	for (int nid = 0; nid < st->nr_nodes; nid++) {
		const struct live_node *n = &st->cur[nid];
		char thr[4][32], eff[8];

		for (int r = 0; r < 4; r++)
			snprintf(thr[r], sizeof(thr[r]), "%llu/%.0f",
				 (unsigned long long)n->thr_count[r],
				 (double)n->thr_delayed_us[r] / 1e3);
		if (n->scanned)
			snprintf(eff, sizeof(eff), "%.0f",
				 100.0 * (double)n->reclaimed / (double)n->scanned);
		else
			snprintf(eff, sizeof(eff), "-");
		fprintf(f, "%4d %10.1f %10.1f %7llu %7llu %10llu %10llu %5s %14s %14s %14s %14s\n",
			nid, (double)n->stall_ns / 1e6, (double)st->total[nid].stall_ns / 1e6,
			(unsigned long long)n->episodes[0], (unsigned long long)n->episodes[1],
			(unsigned long long)n->scanned, (unsigned long long)n->reclaimed, eff,
			thr[0], thr[1], thr[2], thr[3]);
	}
	if (!o->redraw)
		fputc('\n', f);
	return fflush(f) || ferror(f) ? -1 : 0;
}

static void add_totals(struct live_state *st)
{
	for (int nid = 0; nid < st->nr_nodes; nid++) {
		struct live_node *c = &st->cur[nid], *t = &st->total[nid];

		t->stall_ns += c->stall_ns;
		t->scanned += c->scanned;
		t->reclaimed += c->reclaimed;
		t->kswapd_wakes += c->kswapd_wakes;
		for (int k = 0; k < RR_NR_EPISODE_KINDS_LIVE; k++)
			t->episodes[k] += c->episodes[k];
		for (int r = 0; r < RR_NR_REASONS; r++) {
			t->thr_count[r] += c->thr_count[r];
			t->thr_delayed_us[r] += c->thr_delayed_us[r];
		}
	}
	st->total_records += st->records;
	st->total_lost += st->lost;
}

static void reset_interval(struct live_state *st)
{
	memset(st->cur, 0, sizeof(st->cur));
	st->records = 0;
	st->lost = 0;
}

static int types_init(struct live_state *st)
{
	int n = tep_get_events_count(st->tep);

	for (int i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(st->tep, i);

		if (e && e->id > st->max_id)
			st->max_id = e->id;
	}
	st->types = calloc((size_t)st->max_id + 1, sizeof(*st->types));
	return st->types ? 0 : -1;
}

int rr_live_run(const struct rr_live_opts *o)
{
	static const char *const systems[] = { "vmscan", "writeback", "compaction", "block",
					       NULL };
	struct rr_rec_session s;
	struct rr_rec_loss loss;
	struct live_state *st;
	char name[64];
	uint64_t t0, next, last;
	int ret;

	if (o->instance)
		snprintf(name, sizeof(name), "%s", o->instance);
	else
		snprintf(name, sizeof(name), "reclaim-replay-live-%d", (int)getpid());
	st = calloc(1, sizeof(*st));
	if (!st)
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	st->nr_nodes = 1;
	tep_set_loglevel(TEP_LOG_NONE);
	tracefs_set_loglevel(TEP_LOG_NONE);
	/* Formats are global, so the top-level events directory describes
	 * our instance's records too. */
	st->tep = tracefs_local_events_system(NULL, systems);
	if (!st->tep || types_init(st)) {
		tep_free(st->tep);
		free(st);
		return rr_fail(RR_EXIT_FAILURE, "cannot read the event formats under %s/events",
			       tracefs_tracing_dir() ?: "tracefs");
	}
	ret = rr_rec_session_open(&s, name, o->buffer_kb, o->json);
	if (ret)
		goto out_free;
	ret = rr_rec_trace_on(&s);
	if (ret)
		goto out;
	t0 = last = rr_rec_now_ns();
	next = t0 + o->interval_ns;
	while (!rr_rec_stop) {
		uint64_t now = rr_rec_now_ns();

		if (now < next)
			rr_rec_sleep_ns(next - now);
		if (rr_rec_stop)
			break;
		now = rr_rec_now_ns();
		/* Drains what each cpu buffer holds now and returns. */
		if (tracefs_iterate_raw_events(st->tep, s.inst, NULL, 0, on_record, st) < 0 &&
		    !rr_rec_stop) {
			ret = rr_fail(RR_EXIT_FAILURE, "cannot read the buffers of tracing instance "
				      "'%s': %s", name, strerror(errno ? errno : EIO));
			break;
		}
		/*
		 * Loss from the ring-buffer statistics rather than the
		 * missed-events flag of the pages: exact counts, and it also
		 * sees events dropped while the buffer was full.
		 */
		if (!rr_rec_read_loss(&s, &loss)) {
			st->lost = rr_rec_lost(&loss) - st->lost_seen;
			st->lost_seen = rr_rec_lost(&loss);
		}
		add_totals(st);
		if (o->json)
			ret = print_json(o, st, (double)(now - t0) / 1e9, (double)(now - last) / 1e9);
		else
			ret = print_table(o, st, name, (double)(now - t0) / 1e9,
					  (double)(now - last) / 1e9);
		if (ret) {
			/* Reader gone (| head): a normal way to stop. */
			ret = errno == EPIPE ? RR_EXIT_OK : rr_fail(RR_EXIT_FAILURE,
				"cannot write the live report: %s", strerror(errno ? errno : EIO));
			break;
		}
		reset_interval(st);
		last = now;
		next += o->interval_ns;
		if (next < now)
			next = now + o->interval_ns;
	}
out:
	rr_rec_session_close(&s);
out_free:
	tep_free(st->tep);
	free(st->types);
	free(st);
	return ret;
}
