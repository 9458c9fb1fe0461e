// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-identity TRACE...: one line per trace with a digest of everything
 * rr_trace_load() + rr_model_build() make observable (every event's 48
 * bytes, tasks, name counts, missing fields, samples, lost counts, record
 * counts, the model's indexes, episodes, batches and throttles), or the
 * load's exit code. Built against an old and a new tree, the two outputs
 * must be equal (tests/bench/ingest_identity.sh): ingest speed work is
 * only kept when it changes none of it. Each part has its own digest, so a
 * difference says where it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reclaim_replay/error.h"
#include "reclaim_replay/model.h"
#include "reclaim_replay/trace.h"

/* FNV-1a, 64 bits: a comparison digest, not a security one. */
struct dig {
	uint64_t h;
};

static void put(struct dig *d, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		d->h = (d->h ^ c[i]) * 0x100000001b3ull;
}

#define PUT(d, x) do { __typeof__(x) v_ = (x); put(d, &v_, sizeof(v_)); } while (0)

static void put_str(struct dig *d, const char *s)
{
	put(d, s ? s : "(null)", s ? strlen(s) + 1 : 7);
}

static void put_names(struct dig *d, const struct rr_name_count *n, size_t nr)
{
	PUT(d, nr);
	for (size_t i = 0; i < nr; i++) {
		put_str(d, n[i].name);
		PUT(d, n[i].count);
		PUT(d, n[i].used);
	}
}

static void put_index(struct dig *d, const struct rr_index *ix, uint32_t n)
{
	PUT(d, ix->nr_keys);
	for (uint32_t k = 0; ix->off && k <= ix->nr_keys; k++)
		PUT(d, ix->off[k]);
	for (uint32_t i = 0; ix->idx && ix->off && i < ix->off[ix->nr_keys]; i++)
		PUT(d, ix->idx[i]);
	(void)n;
}

static void show(const char *what, struct dig *d)
{
	printf(" %s=%016llx", what, (unsigned long long)d->h);
	d->h = 0xcbf29ce484222325ull;
}

int main(int argc, char **argv)
{
	for (int a = 1; a < argc; a++) {
		struct dig d = { 0xcbf29ce484222325ull };
		struct rr_trace *t;
		struct rr_model *m;
		int ret = rr_trace_load(argv[a], &t);

		printf("%s", argv[a]);
		if (ret) {
			printf(" load-failed=%d\n", ret);
			continue;
		}
		put_str(&d, t->format);
		PUT(&d, t->file_size);
		show("format", &d);
		PUT(&d, t->nr_events);
		for (size_t i = 0; i < t->nr_events; i++)
			put(&d, &t->events[i], sizeof(t->events[i]));
		show("events", &d);
		PUT(&d, t->nr_tasks);
		for (size_t i = 0; i < t->nr_tasks; i++) {
			PUT(&d, t->tasks[i].pid);
			put(&d, t->tasks[i].comm, sizeof(t->tasks[i].comm));
			PUT(&d, t->tasks[i].is_kswapd);
			PUT(&d, t->tasks[i].kswapd_nid);
		}
		show("tasks", &d);
		put_names(&d, t->names, t->nr_names);
		show("names", &d);
		put_names(&d, t->missing_fields, t->nr_missing_fields);
		show("missing", &d);
		PUT(&d, t->nr_samples);
		PUT(&d, t->malformed_samples);
		for (size_t i = 0; i < t->nr_samples; i++) {
			const struct rr_counter_sample *s = &t->samples[i];

			PUT(&d, s->ts);
			put(&d, s->value, sizeof(s->value));
			PUT(&d, s->present);
			PUT(&d, s->nid);
		}
		show("samples", &d);
		PUT(&d, t->nr_cpus);
		for (int c = 0; c < t->nr_cpus; c++) {
			PUT(&d, t->lost_per_cpu ? t->lost_per_cpu[c] : 0);
			PUT(&d, t->loss_marks_per_cpu ? t->loss_marks_per_cpu[c] : 0);
		}
		show("lost", &d);
		PUT(&d, t->records_read);
		PUT(&d, t->first_record_ts);
		PUT(&d, t->last_record_ts);
		PUT(&d, t->records_used);
		PUT(&d, t->records_ignored);
		PUT(&d, t->records_undecodable);
		PUT(&d, t->records_out_of_order);
		PUT(&d, t->hz);
		PUT(&d, t->page_size);
		PUT(&d, t->meta_nodes);
		put(&d, t->kernel, sizeof(t->kernel));
		PUT(&d, t->sample_us);
		PUT(&d, t->nr_ranges);
		for (int i = 0; i < t->nr_ranges; i++) {
			PUT(&d, t->ranges[i].start_pfn);
			PUT(&d, t->ranges[i].end_pfn);
			PUT(&d, t->ranges[i].nid);
		}
		PUT(&d, t->had_meta);
		PUT(&d, t->nr_nodes);
		show("records", &d);

		if (rr_model_build(t, &m)) {
			printf(" model-failed\n");
			rr_trace_free(t);
			continue;
		}
		/* the model writes attributed nodes back into the events */
		for (size_t i = 0; i < t->nr_events; i++)
			put(&d, &t->events[i], sizeof(t->events[i]));
		show("events_after_model", &d);
		put_index(&d, &m->by_node, (uint32_t)t->nr_events);
		put_index(&d, &m->by_task, (uint32_t)t->nr_events);
		put_index(&d, &m->batches_by_episode, m->nr_batches);
		show("indexes", &d);
		PUT(&d, m->nr_episodes);
		for (uint32_t i = 0; i < m->nr_episodes; i++) {
			const struct rr_episode *e = &m->episodes[i];

			PUT(&d, e->begin); PUT(&d, e->end); PUT(&d, e->task); PUT(&d, e->nid);
			PUT(&d, e->kind); PUT(&d, e->flags); PUT(&d, e->begin_event);
			PUT(&d, e->end_event); PUT(&d, e->first_batch); PUT(&d, e->nr_batches);
			PUT(&d, e->nr_reclaimed_end); PUT(&d, e->throttle_ns);
			PUT(&d, e->nr_throttles); PUT(&d, e->order); PUT(&d, e->gfp);
		}
		show("episodes", &d);
		PUT(&d, m->nr_batches);
		for (uint32_t i = 0; i < m->nr_batches; i++) {
			const struct rr_batch *b = &m->batches[i];

			PUT(&d, b->isolate_event); PUT(&d, b->shrink_event); PUT(&d, b->episode);
			PUT(&d, b->nid); PUT(&d, b->context); PUT(&d, b->flags);
		}
		show("batches", &d);
		PUT(&d, m->nr_throttles);
		for (uint32_t i = 0; i < m->nr_throttles; i++) {
			const struct rr_throttle *r = &m->throttles[i];

			PUT(&d, r->start); PUT(&d, r->end); PUT(&d, r->task); PUT(&d, r->event);
			PUT(&d, r->episode); PUT(&d, r->usec_timeout); PUT(&d, r->usec_delayed);
			PUT(&d, r->nid); PUT(&d, r->reason); PUT(&d, r->context);
		}
		show("throttles", &d);
		PUT(&d, m->nr_cpus);
		for (int c = 0; m->cpu_node && c < m->nr_cpus; c++)
			PUT(&d, m->cpu_node[c]);
		PUT(&d, m->first_ts); PUT(&d, m->last_ts);
		PUT(&d, m->batches_without_isolate); PUT(&d, m->isolates_without_shrink);
		PUT(&d, m->episodes_nid_from_cpu); PUT(&d, m->episodes_nid_unknown);
		PUT(&d, m->episodes_cut_by_loss); PUT(&d, m->pairs_refused_across_loss);
		PUT(&d, m->isolates_cut_by_loss); PUT(&d, m->episodes_end_mismatch);
		PUT(&d, m->throttles_nid_unknown); PUT(&d, m->throttles_unknown_reason);
		PUT(&d, m->throttles_unknown_reason_us); PUT(&d, m->throttles_delay_clamped);
		PUT(&d, m->throttles_delay_clamped_us); PUT(&d, m->events_clamped);
		show("model_counts", &d);
		printf("\n");
		rr_model_free(m);
		rr_trace_free(t);
	}
	return 0;
}
