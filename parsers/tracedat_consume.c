// SPDX-License-Identifier: GPL-2.0
/*
 * The building thread of the trace.dat reader (tracedat_reader.h): the
 * sources' records arrive already typed and decoded, each source's in
 * libtracecmd's time order; they are merged here in the order
 * tracecmd_iterate_events_multi gives, then counted and pushed into the
 * builder exactly as a single-threaded reader would.
 */
#include <errno.h>
#include <string.h>

#include "tracedat_reader.h"

/* The builder's side of a type's first record: its name and absent fields. */
static int name_type(struct tracedat_reader *r, struct type_name *tn,
		     const struct type_info *ti)
{
	const struct rr_event_desc *d = ti->dec.desc;

	tn->name_index = rr_builder_name_index(&r->builder, ti->name, d || ti->is_print);
	if (tn->name_index < 0)
		return -ENOMEM;
	tn->named = 1;
	if (!d)
		return 0;
	/* Say once, at the end, which fields this kernel's format lacks. */
	for (int i = 0; i < d->nr_fields; i++)
		if (!ti->dec.fields[i] &&
		    rr_builder_missing_field(&r->builder, ti->name, d->fields[i].name))
			return -ENOMEM;
	return 0;
}

static int read_print(struct tracedat_reader *r, const struct type_info *ti,
		      const struct rr_item *it, const unsigned char *data)
{
	const char *text;
	int len;

	if (!ti->buf || ti->buf->offset >= (int)it->size) {
		r->builder.trace->records_undecodable++;
		return 0;
	}
	text = (const char *)data + ti->buf->offset;
	len = (int)it->size - ti->buf->offset;
	/* the text was copied up to its NUL, or all of len when it has none */
	if (len > (int)it->copied - ti->buf->offset)
		len = (int)it->copied - ti->buf->offset;
	return rr_builder_print(&r->builder, it->ts, it->pid, it->cpu, text,
				strnlen(text, (size_t)len));
}

static int record(struct tracedat_reader *r, const struct type_info *ti, const struct rr_item *it)
{
	struct rr_trace *t = r->builder.trace;
	const unsigned char *data = (const unsigned char *)(it + 1);
	struct rr_event *ev;
	uint32_t task = rr_builder_task_lookup(&r->builder, it->pid);

	if (task == RR_NO_TASK) {
		if (rr_builder_task(&r->builder, it->pid, it->comm))
			return -ENOMEM;
		task = rr_builder_task_lookup(&r->builder, it->pid);
	}
	if (ti->is_print)
		return read_print(r, ti, it, data);
	if (it->dec != DEC_OK) {
		t->records_undecodable++;
		return 0;
	}
	ev = rr_builder_push_task(&r->builder, it->ts, task, it->cpu, ti->dec.desc->type);
	if (!ev)
		return -ENOMEM;
	ev->nid = it->ev.nid;
	ev->aux = it->ev.aux;
	ev->flags |= it->ev.flags;
	memcpy(ev->v, it->ev.v, sizeof(ev->v));
	return 0;
}

static int item(struct tracedat_reader *r, const struct tracedat_source *s,
		const struct rr_item *it)
{
	struct rr_trace *t = r->builder.trace;
	const struct type_info *ti;
	struct type_name *tn;

	switch (it->kind) {
	case ITEM_BAD:
		t->records_read++;
		t->records_undecodable++;
		return 0;
	case ITEM_LOST:
		return rr_builder_lost(&r->builder, it->cpu, it->ts, it->lost);
	default:
		break;
	}
	/* every source opened the same file: its event ids are the same */
	ti = &s->types[it->id];
	tn = &r->names[it->id];
	if (!tn->named && name_type(r, tn, ti))
		return -ENOMEM;
	rr_builder_count(&r->builder, tn->name_index, it->ts);
	if (it->kind == ITEM_COUNT) {
		t->records_ignored++;
		return 0;
	}
	return record(r, ti, it);
}

void rr_source_add_counts(const struct tracedat_source *s, const struct type_name *names,
			  struct rr_builder *b)
{
	for (int id = 0; id <= s->max_id; id++) {
		const struct type_info *ti = &s->types[id];

		/* unnamed only when the builder stopped first: the load fails */
		if (!ti->counted || !names[id].named)
			continue;
		rr_builder_count_many(b, names[id].name_index, ti->counted, ti->counted_first_ts,
				      ti->counted_last_ts);
		b->trace->records_ignored += ti->counted;
	}
}

/* The builder gave up: every reading thread stops queueing. */
static void cancel_all(struct tracedat_reader *r)
{
	r->error = -ENOMEM;
	for (int i = 0; i < r->nr_src; i++)
		rr_rq_cancel(&r->src[i].queue);
}

/* The source's next item, NULL once it has delivered all. */
static const struct rr_item *refill(struct tracedat_source *s)
{
	while (!s->block || s->at >= s->block->used) {
		if (s->block)
			rr_rq_recycle(&s->queue, s->block);
		s->at = 0;
		s->block = s->done ? NULL : rr_rq_take(&s->queue);
		if (!s->block) {
			s->done = 1;
			return NULL;
		}
	}
	return (const struct rr_item *)(s->block->data + s->at);
}

/* Past @it to the source's next item. Inline: it runs for every record. */
static inline const struct rr_item *next(struct tracedat_source *s, const struct rr_item *it)
{
	s->at += RR_ITEM_LEN(it->copied);
	if (s->at < s->block->used)
		return (const struct rr_item *)(s->block->data + s->at);
	return refill(s);
}

/* tracecmd_iterate_events_multi's order: time, then buffer, then cpu. */
static inline int before(const struct rr_item *a, const struct rr_item *b)
{
	if (a->ts != b->ts)
		return a->ts < b->ts;
	if (a->handle != b->handle)
		return a->handle < b->handle;
	return a->cpu < b->cpu;
}

static inline void take(struct tracedat_reader *r, const struct tracedat_source *s,
			const struct rr_item *it)
{
	/* after an error the rest is drained, so the readers can finish */
	if (!r->error && item(r, s, it))
		cancel_all(r);
}

/* Two sources, the usual case: a merge of two runs. */
static void consume_two(struct tracedat_reader *r, struct tracedat_source *a,
			struct tracedat_source *b)
{
	const struct rr_item *x = refill(a), *y = refill(b);

	while (x && y) {
		if (before(x, y)) {
			take(r, a, x);
			x = next(a, x);
		} else {
			take(r, b, y);
			y = next(b, y);
		}
	}
	for (; x; x = next(a, x))
		take(r, a, x);
	for (; y; y = next(b, y))
		take(r, b, y);
}

void *rr_tracedat_consume(void *arg)
{
	struct tracedat_reader *r = arg;
	const struct rr_item *heads[RR_TRACEDAT_MAX_SOURCES];
	int n = r->nr_src;

	if (n == 1) {
		/* one source: its order is already the file's */
		for (const struct rr_item *it = refill(&r->src[0]); it; it = next(&r->src[0], it))
			take(r, &r->src[0], it);
		return NULL;
	}
	if (n == 2) {
		consume_two(r, &r->src[0], &r->src[1]);
		return NULL;
	}
	for (int i = 0; i < n; i++)
		heads[i] = refill(&r->src[i]);
	for (;;) {
		int best = -1;

		for (int i = 0; i < n; i++)
			if (heads[i] && (best < 0 || before(heads[i], heads[best])))
				best = i;
		if (best < 0)
			break;
		take(r, &r->src[best], heads[best]);
		heads[best] = next(&r->src[best], heads[best]);
	}
	return NULL;
}
