// SPDX-License-Identifier: GPL-2.0
/*
 * The building thread of the trace.dat reader (tracedat_reader.h): records
 * arrive in libtracecmd's time order, already typed and decoded; here they
 * are counted and pushed into the builder, exactly as a single-threaded
 * reader would in the same order.
 */
#include <errno.h>
#include <string.h>

#include "tracedat_reader.h"

/* The builder's side of a type's first record: its name and absent fields. */
static int name_type(struct tracedat_reader *r, struct type_info *ti)
{
	const struct rr_event_desc *d = ti->dec.desc;

	ti->name_index = rr_builder_name_index(&r->builder, ti->name, d || ti->is_print);
	if (ti->name_index < 0)
		return -ENOMEM;
	ti->named = 1;
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

static int record(struct tracedat_reader *r, struct type_info *ti, const struct rr_item *it)
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

static int item(struct tracedat_reader *r, const struct rr_item *it)
{
	struct rr_trace *t = r->builder.trace;
	struct type_info *ti;

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
	ti = &r->types[it->id];
	if (!ti->named && name_type(r, ti))
		return -ENOMEM;
	rr_builder_count(&r->builder, ti->name_index, it->ts);
	if (it->kind == ITEM_COUNT) {
		t->records_ignored++;
		return 0;
	}
	return record(r, ti, it);
}

void *rr_tracedat_consume(void *arg)
{
	struct tracedat_reader *r = arg;
	struct rr_rq_block *b;

	while ((b = rr_rq_take(&r->queue))) {
		size_t at = 0;

		while (!r->error && at < b->used) {
			const struct rr_item *it = (const struct rr_item *)(b->data + at);

			if (item(r, it)) {
				/* the reader stops queueing; what it queued is dropped */
				r->error = -ENOMEM;
				rr_rq_cancel(&r->queue);
			}
			at += RR_ITEM_LEN(it->copied);
		}
		rr_rq_recycle(&r->queue, b);
	}
	return NULL;
}
