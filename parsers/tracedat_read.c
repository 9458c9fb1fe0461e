// SPDX-License-Identifier: GPL-2.0
/*
 * A reading thread of the trace.dat reader (tracedat_reader.h): iterates
 * its source's records in time order through libtracecmd, types and
 * decodes each and queues the result for the building thread.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd/trace-cmd.h>

#include "format_defer.h"
#include "tracedat_reader.h"

/* The dense index of @handle among the source's handles. */
static inline int handle_index(const struct tracedat_source *s,
			       const struct tracecmd_input *handle)
{
	int h = 0;

	if (s->handle >= 0)
		return s->handle;
	while (h < s->nr_handles && s->handles[h] != handle)
		h++;
	return h;
}

/* Consumed file pages leave our RSS (page_release.h). */
static inline void release_behind(struct tracedat_source *s, int h, const struct tep_record *rec)
{
	if (!s->release.enabled || rec->cpu < 0 || rec->cpu >= s->nr_cpus)
		return;
	rr_release_note(&s->release, (size_t)h * (size_t)s->nr_cpus + (size_t)rec->cpu,
			rec->data, rec->offset);
}

int rr_source_init(struct tracedat_source *s)
{
	int n = tep_get_events_count(s->tep);

	s->max_id = 0;
	s->type_offset = -1;
	for (int i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(s->tep, i);
		struct tep_format_field *f = e ? tep_find_common_field(e, "common_type") : NULL;

		if (e && e->id > s->max_id)
			s->max_id = e->id;
		/* every format shares the common fields; read the type ourselves
		 * when it is the usual unsigned short in our byte order */
		if (i == 0 && f && f->size == 2 && f->offset >= 0 && !s->swap)
			s->type_offset = f->offset;
	}
	if (rr_format_defer_max_id(s->formats) > s->max_id)
		s->max_id = rr_format_defer_max_id(s->formats);
	s->types = calloc((size_t)s->max_id + 1, sizeof(*s->types));
	if (!s->types || rr_rq_init(&s->queue)) {
		free(s->types);
		s->types = NULL;
		return -ENOMEM;
	}
	return 0;
}

void rr_source_release(struct tracedat_source *s)
{
	if (s->types)
		rr_rq_destroy(&s->queue);
	rr_release_fini(&s->release);
	rr_source_reopen_release(s);
	free(s->types);
	free(s->pids);
	rr_format_defer_free(s->formats);
	s->formats = NULL;
	if (s->cpus)
		CPU_FREE(s->cpus);
	s->types = NULL;
	s->pids = NULL;
	s->cpus = NULL;
}

/* The format's side of a type's first record (the decoder does the rest). */
static void learn_type(struct type_info *ti, struct tep_event *e)
{
	rr_decode_learn(&ti->dec, e);
	ti->name = e->name;
	ti->is_print = rr_is_print_event(e->system, e->name);
	if (ti->is_print)
		ti->buf = tep_find_field(e, "buf");
	ti->ready = 1;
}

/*
 * The bytes of a print record the building thread reads: up to the end of
 * its text (as strnlen would read them), no more, so a record whose size
 * field is corrupt is not copied past its buffer.
 */
static uint32_t print_bytes(const struct type_info *ti, const struct tep_record *rec)
{
	uint32_t size = rec->size > 0 ? (uint32_t)rec->size : 0, off;

	if (!ti->buf || ti->buf->offset < 0 || (uint32_t)ti->buf->offset >= size)
		return 0;
	off = (uint32_t)ti->buf->offset;
	return off + (uint32_t)strnlen((const char *)rec->data + off, size - off);
}

/*
 * 1 when @pid is new to this source (its comm is then looked up here, where
 * libtraceevent is used), 0 when seen, -1 on OOM.
 */
static int pid_is_new(struct tracedat_source *s, uint32_t pid)
{
	size_t i;

	if ((s->nr_pids + 1) * 2 > s->pid_cap) {
		size_t cap = s->pid_cap ? s->pid_cap * 2 : 1024;
		uint32_t *p = malloc(cap * sizeof(*p));

		if (!p)
			return -1;
		memset(p, 0xff, cap * sizeof(*p));
		for (size_t j = 0; j < s->pid_cap; j++) {
			if (s->pids[j] == UINT32_MAX)
				continue;
			for (i = (s->pids[j] * 2654435761u) & (cap - 1); p[i] != UINT32_MAX;
			     i = (i + 1) & (cap - 1))
				;
			p[i] = s->pids[j];
		}
		free(s->pids);
		s->pids = p;
		s->pid_cap = cap;
	}
	for (i = (pid * 2654435761u) & (s->pid_cap - 1); s->pids[i] != UINT32_MAX;
	     i = (i + 1) & (s->pid_cap - 1))
		if (s->pids[i] == pid)
			return 0;
	s->pids[i] = pid;
	s->nr_pids++;
	return 1;
}

static struct rr_item *queue_item(struct tracedat_source *s, int kind, uint32_t copied,
				  int h, const struct tep_record *rec)
{
	struct rr_item *it;

	/* a print longer than a block (never seen: texts are < a page) is cut */
	if (copied > RR_RQ_BLOCK_SIZE - sizeof(*it))
		copied = RR_RQ_BLOCK_SIZE - sizeof(*it);
	it = rr_rq_reserve(&s->queue, RR_ITEM_LEN(copied));
	if (!it) {
		s->read_error = -ENOMEM;
		return NULL;
	}
	it->kind = (uint8_t)kind;
	it->size = 0;
	it->copied = copied;
	it->comm = NULL;
	it->lost = 0;
	it->ts = rec->ts;
	it->cpu = rec->cpu;
	it->handle = (uint16_t)h;
	return it;
}

/* Types, decodes and queues @rec of handle @h (the dense index). */
static int take_record(struct tracedat_source *s, int h, struct tep_record *rec)
{
	struct type_info *ti;
	struct rr_item *it;
	const char *comm = NULL;
	uint32_t pid;
	uint16_t type;
	int id, fresh;

	release_behind(s, h, rec);
	/* what tep_data_type() reads, without its generic number reader */
	if (s->type_offset >= 0 && s->type_offset + 2 <= rec->size) {
		memcpy(&type, (const char *)rec->data + s->type_offset, 2);
		id = type;
	} else {
		id = tep_data_type(s->tep, rec);
	}
	ti = id >= 0 && id <= s->max_id ? &s->types[id] : NULL;
	if (ti && !ti->ready) {
		struct tep_event *e = tep_find_event(s->tep, id);

		if (!e)
			e = rr_format_defer_parse(s->formats, s->tep, id);
		if (e)
			learn_type(ti, e);
		else
			ti = NULL;
	}
	if (!ti)
		return queue_item(s, ITEM_BAD, 0, h, rec) ? 0 : -1;
	if (!ti->dec.desc && !ti->is_print) {
		/*
		 * Ignored: only counted by name, and counts do not depend on
		 * the order. The first record of the type goes through the
		 * builder, which gives names their order of first appearance;
		 * the others are counted here instead of queued (traces with
		 * sched or writeback events besides reclaim are mostly these).
		 */
		if (ti->queued_one) {
			if (!ti->counted++ || rec->ts < ti->counted_first_ts)
				ti->counted_first_ts = rec->ts;
			if (rec->ts > ti->counted_last_ts)
				ti->counted_last_ts = rec->ts;
			return 0;
		}
		it = queue_item(s, ITEM_COUNT, 0, h, rec);
		if (!it)
			return -1;
		it->id = id;
		ti->queued_one = 1;
		return 0;
	}
	if (ti->dec.common_pid) {
		int ok = 1;

		pid = (uint32_t)rr_decode_number(ti->dec.common_pid, rec->data, rec->size, s->swap,
						 &ok);
	} else {
		pid = (uint32_t)tep_data_pid(s->tep, rec);
	}
	fresh = pid == UINT32_MAX ? 0 : pid_is_new(s, pid);
	if (fresh < 0) {
		s->read_error = -ENOMEM;
		return -1;
	}
	if (fresh)
		comm = tep_data_comm_from_pid(s->tep, (int)pid);
	it = queue_item(s, ITEM_RECORD, ti->is_print ? print_bytes(ti, rec) : 0, h, rec);
	if (!it)
		return -1;
	it->size = rec->size > 0 ? (uint32_t)rec->size : 0;
	it->id = id;
	it->pid = pid;
	it->comm = comm;
	if (ti->is_print) {
		memcpy(it + 1, rec->data, it->copied);
		return 0;
	}
	/*
	 * Decoded here, where the record is: a record shorter than its format
	 * (or of a format without a required field) is counted undecodable
	 * and not kept, so used + ignored + undecodable == read.
	 */
	memset(&it->ev, 0, sizeof(it->ev));
	it->ev.nid = RR_NID_NONE;
	it->dec = ti->dec.undecodable ||
		  rr_decode_fields(&ti->dec, rec->data, rec->size, s->swap, &it->ev) ?
		  DEC_FAILED : DEC_OK;
	return 0;
}

/*
 * Events lost before @rec on its cpu (libtracecmd's missed-events follower).
 * The notice is keyed like the record it precedes: its own buffer's cpu
 * (tracecmd_iterate_events_multi would pass its running index over all
 * buffers' cpus, which for an instance is not the cpu its events carry).
 * libtracecmd first looks the record's event up in the handle's
 * libtraceevent handle, and stops the whole iteration when that finds
 * nothing; for a format kept for later, format_defer.c's
 * tep_find_event_by_record() parses it then.
 */
static int on_missed(struct tracecmd_input *handle, struct tep_event *event,
		     struct tep_record *rec, int cpu, void *data)
{
	struct tracedat_source *s = data;
	struct rr_item *it = queue_item(s, ITEM_LOST, 0, handle_index(s, handle), rec);

	(void)event;
	(void)cpu;
	if (!it)
		return -1;
	/* missed_events < 0: the page only says "some were lost" */
	it->lost = rec->missed_events > 0 ? (uint64_t)rec->missed_events : 0;
	return 0;
}

/*
 * libtracecmd's record callback: take_record(), then, when the file is to
 * be reopened (tracedat_reopen.c), where each stream got to; once the
 * source has delivered its budget since the last open, the iteration stops
 * right after this record.
 */
static int on_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
	struct tracedat_source *s = data;
	int h = handle_index(s, handle);
	int ret = take_record(s, h, rec);
	size_t k;

	(void)cpu;
	if (ret < 0 || !s->reopen_bytes)
		return ret;
	if (rec->cpu < 0 || rec->cpu >= s->nr_cpus) {
		s->reopen_bytes = 0;	/* its place could not be kept */
		return ret;
	}
	k = (size_t)h * (size_t)s->nr_cpus + (size_t)rec->cpu;
	s->resume[k] = rec->offset + 1;
	s->resume_ts[k] = rec->ts;
	s->since_open += rec->record_size > 0 ? (uint64_t)rec->record_size : (uint64_t)rec->size;
	if (s->since_open < s->reopen_bytes)
		return ret;
	s->reopen_wanted = 1;
	return -1;
}

static int iterate(struct tracedat_source *s)
{
	/* once per handle: libtracecmd calls every follower it was given */
	if (!s->followed) {
		for (int i = 0; i < s->nr_handles; i++)
			tracecmd_follow_missed_events(s->handles[i], on_missed, s);
		s->followed = 1;
	}
	if (s->handle < 0)
		return tracecmd_iterate_events_multi(s->handles, s->nr_handles,
						     on_record, s);
	return tracecmd_iterate_events(s->handles[s->handle], s->cpus, (int)s->cpus_size,
				       on_record, s);
}

void *rr_source_run(void *arg)
{
	struct tracedat_source *s = arg;

	for (;;) {
		s->iterate_ret = iterate(s);
		if (!s->reopen_wanted)
			break;
		s->reopen_wanted = 0;
		s->iterate_ret = 0;
		/*
		 * Fresh handles from where these stopped; when that cannot be
		 * done the old ones go on from the same place.
		 */
		if (!rr_source_reopen(s))
			s->followed = 0;
	}
	rr_rq_close(&s->queue);
	return NULL;
}
