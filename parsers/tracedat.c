// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat reader: libtracecmd opens the file (versions 6 and 7, compressed
 * or not) and merges every cpu of the top buffer and of every buffer
 * instance in time order; libtraceevent describes each event's fields, which
 * are looked up by name once per event type and then read per record
 * (parsers/decode.c, shared with the live view).
 *
 * This file is the reading thread: it iterates, types and decodes each
 * record and queues the result for the building thread (tracedat_reader.h,
 * tracedat_consume.c), so libtracecmd's iteration and the building of the
 * trace run on two cpus at once, in the same record order as one thread
 * would.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd/trace-cmd.h>

#include "parser.h"
#include "asan_compat.h"
#include "tracedat_reader.h"
#include "reclaim_replay/error.h"

/* Consumed file pages leave our RSS (page_release.h). */
static inline void release_behind(struct tracedat_reader *r, struct tracecmd_input *handle,
				  const struct tep_record *rec)
{
	int h = 0;

	if (!r->release.enabled || rec->cpu < 0 || rec->cpu >= r->nr_cpus)
		return;
	while (h < r->nr_handles && r->handles[h] != handle)
		h++;
	rr_release_note(&r->release, (size_t)h * (size_t)r->nr_cpus + (size_t)rec->cpu,
			rec->data, rec->offset);
}

static int type_table_init(struct tracedat_reader *r)
{
	int n = tep_get_events_count(r->tep);

	r->max_id = 0;
	r->type_offset = -1;
	for (int i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(r->tep, i);
		struct tep_format_field *f = e ? tep_find_common_field(e, "common_type") : NULL;

		if (e && e->id > r->max_id)
			r->max_id = e->id;
		/* every format shares the common fields; read the type ourselves
		 * when it is the usual unsigned short in our byte order */
		if (i == 0 && f && f->size == 2 && f->offset >= 0 && !r->swap)
			r->type_offset = f->offset;
	}
	r->types = calloc((size_t)r->max_id + 1, sizeof(*r->types));
	return r->types ? 0 : -ENOMEM;
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
 * 1 when @pid is new to the reading thread (its comm is then looked up
 * here, where libtraceevent is used), 0 when seen, -1 on OOM.
 */
static int pid_is_new(struct tracedat_reader *r, uint32_t pid)
{
	size_t i;

	if ((r->nr_pids + 1) * 2 > r->pid_cap) {
		size_t cap = r->pid_cap ? r->pid_cap * 2 : 1024;
		uint32_t *p = malloc(cap * sizeof(*p));

		if (!p)
			return -1;
		memset(p, 0xff, cap * sizeof(*p));
		for (size_t j = 0; j < r->pid_cap; j++) {
			if (r->pids[j] == UINT32_MAX)
				continue;
			for (i = (r->pids[j] * 2654435761u) & (cap - 1); p[i] != UINT32_MAX;
			     i = (i + 1) & (cap - 1))
				;
			p[i] = r->pids[j];
		}
		free(r->pids);
		r->pids = p;
		r->pid_cap = cap;
	}
	for (i = (pid * 2654435761u) & (r->pid_cap - 1); r->pids[i] != UINT32_MAX;
	     i = (i + 1) & (r->pid_cap - 1))
		if (r->pids[i] == pid)
			return 0;
	r->pids[i] = pid;
	r->nr_pids++;
	return 1;
}

static struct rr_item *queue_item(struct tracedat_reader *r, int kind, uint32_t copied)
{
	struct rr_item *it;

	/* a print longer than a block (never seen: texts are < a page) is cut */
	if (copied > RR_RQ_BLOCK_SIZE - sizeof(*it))
		copied = RR_RQ_BLOCK_SIZE - sizeof(*it);
	it = rr_rq_reserve(&r->queue, RR_ITEM_LEN(copied));
	if (!it) {
		r->read_error = -ENOMEM;
		return NULL;
	}
	it->kind = (uint8_t)kind;
	it->size = 0;
	it->copied = copied;
	it->comm = NULL;
	it->lost = 0;
	return it;
}

static int on_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
	struct tracedat_reader *r = data;
	struct type_info *ti;
	struct rr_item *it;
	const char *comm = NULL;
	uint32_t pid;
	uint16_t type;
	int id, fresh;

	(void)cpu;
	release_behind(r, handle, rec);
	/* a valid record in libtracecmd's mmap (asan_compat.h) */
	rr_asan_unpoison(rec->data, (size_t)(rec->size > 0 ? rec->size : 0));
	/* what tep_data_type() reads, without its generic number reader */
	if (r->type_offset >= 0 && r->type_offset + 2 <= rec->size) {
		memcpy(&type, (const char *)rec->data + r->type_offset, 2);
		id = type;
	} else {
		id = tep_data_type(r->tep, rec);
	}
	ti = id >= 0 && id <= r->max_id ? &r->types[id] : NULL;
	if (ti && !ti->ready) {
		struct tep_event *e = tep_find_event(r->tep, id);

		if (e)
			learn_type(ti, e);
		else
			ti = NULL;
	}
	if (!ti)
		return queue_item(r, ITEM_BAD, 0) ? 0 : -1;
	if (!ti->dec.desc && !ti->is_print) {
		it = queue_item(r, ITEM_COUNT, 0);
		if (!it)
			return -1;
		it->ts = rec->ts;
		it->id = id;
		return 0;
	}
	if (ti->dec.common_pid) {
		int ok = 1;

		pid = (uint32_t)rr_decode_number(ti->dec.common_pid, rec->data, rec->size, r->swap,
						 &ok);
	} else {
		pid = (uint32_t)tep_data_pid(r->tep, rec);
	}
	fresh = pid == UINT32_MAX ? 0 : pid_is_new(r, pid);
	if (fresh < 0) {
		r->read_error = -ENOMEM;
		return -1;
	}
	if (fresh)
		comm = tep_data_comm_from_pid(r->tep, (int)pid);
	it = queue_item(r, ITEM_RECORD, ti->is_print ? print_bytes(ti, rec) : 0);
	if (!it)
		return -1;
	it->size = rec->size > 0 ? (uint32_t)rec->size : 0;
	it->ts = rec->ts;
	it->id = id;
	it->pid = pid;
	it->cpu = rec->cpu;
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
		  rr_decode_fields(&ti->dec, rec->data, rec->size, r->swap, &it->ev) ?
		  DEC_FAILED : DEC_OK;
	return 0;
}

static int on_missed(struct tracecmd_input *handle, struct tep_event *event,
		     struct tep_record *rec, int cpu, void *data)
{
	struct tracedat_reader *r = data;
	struct rr_item *it = queue_item(r, ITEM_LOST, 0);

	(void)handle;
	(void)event;
	if (!it)
		return -1;
	it->ts = rec->ts;
	it->cpu = cpu;
	/* missed_events < 0: the page only says "some were lost" */
	it->lost = rec->missed_events > 0 ? (uint64_t)rec->missed_events : 0;
	return 0;
}

static int probe(const unsigned char *head, size_t len)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

	return len >= sizeof(magic) && !memcmp(head, magic, sizeof(magic));
}

/*
 * libtracecmd prints its own diagnostics on stderr even at TEP_LOG_NONE;
 * the user gets our one-line message instead, so mute fd 2 while it parses
 * the headers.
 */
static int mute_stderr(void)
{
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (saved >= 0 && null >= 0) {
		fflush(stderr);
		dup2(null, STDERR_FILENO);
	}
	if (null >= 0)
		close(null);
	return saved;
}

static void unmute_stderr(int saved)
{
	if (saved < 0)
		return;
	dup2(saved, STDERR_FILENO);
	close(saved);
}

/*
 * Handles that must not be closed (see open_top) stay reachable from here
 * until exit: deliberately kept, not lost, so leak checkers do not report
 * them (the fast unwinder of ASan cannot see past libtracecmd's frames, so
 * a suppression by our caller's name would not match).
 */
static struct tracecmd_input **kept_handles;
static size_t nr_kept_handles;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static void keep_unclosable(struct tracecmd_input *h)
{
	struct tracecmd_input **p;

	pthread_mutex_lock(&kept_lock);
	p = realloc(kept_handles, (nr_kept_handles + 1) * sizeof(*p));
	if (p) {
		kept_handles = p;
		kept_handles[nr_kept_handles++] = h;
	}
	pthread_mutex_unlock(&kept_lock);
}

/* 0; -EBADMSG: headers unreadable; -ERANGE: cpu data past end of file. */
static int open_top(const char *path, struct tracecmd_input **out)
{
	int saved = mute_stderr(), ret = 0;
	struct tracecmd_input *top;

	top = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!top) {
		ret = -EBADMSG;
	} else if (tracecmd_init_data(top) < 0) {
		/*
		 * libtracecmd 1.3 crashes in tracecmd_close() on a handle
		 * whose data failed to initialize (as tracecmd_open() does on
		 * a truncated v6 file), so this handle is deliberately not
		 * closed: a small leak beats a crash on bad input.
		 */
		keep_unclosable(top);
		ret = -ERANGE;
		top = NULL;
	}
	unmute_stderr(saved);
	*out = top;
	return ret;
}

static int open_handles(const char *path, struct tracecmd_input ***out, int *nr)
{
	struct tracecmd_input *top, **handles;
	int n, ret;

	ret = open_top(path, &top);
	if (ret)
		return ret;
	n = tracecmd_buffer_instances(top);
	if (n < 0)
		n = 0;
	handles = calloc((size_t)n + 1, sizeof(*handles));
	if (!handles) {
		tracecmd_close(top);
		return -ENOMEM;
	}
	handles[0] = top;
	*nr = 1;
	for (int i = 0; i < n; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(top, i);

		/* An instance the library cannot open is reported, not hidden. */
		if (!h) {
			rr_warn("'%s': cannot open buffer instance '%s'; its events are not read",
				path, tracecmd_buffer_instance_name(top, i));
			continue;
		}
		handles[(*nr)++] = h;
	}
	*out = handles;
	return 0;
}

static void close_handles(struct tracecmd_input **handles, int nr)
{
	/* Instances first: they borrow the top handle's file. */
	for (int i = nr - 1; i >= 0; i--)
		tracecmd_close(handles[i]);
	free(handles);
}

static char *describe_format(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char head[32];
	size_t n = 0;
	char *s = NULL;

	if (f) {
		n = fread(head, 1, sizeof(head), f);
		fclose(f);
	}
	/* magic(3) "tracing"(7) version string "6\0" or "7\0" */
	if (n > 11 && (head[10] == '6' || head[10] == '7')) {
		if (asprintf(&s, "trace.dat v%c", head[10]) < 0)
			s = NULL;
	}
	return s ? s : strdup("trace.dat");
}

/*
 * The ring-buffer page size the file was recorded with, from its fixed
 * header (magic, "tracing", version string, endianness, long size, page
 * size); libtracecmd keeps it private. 0 when unreadable.
 */
static uint64_t header_page_size(const char *path, int swap)
{
	FILE *f = fopen(path, "rb");
	unsigned char head[64];
	size_t n = 0, v;
	uint32_t size;

	if (f) {
		n = fread(head, 1, sizeof(head), f);
		fclose(f);
	}
	v = 10;
	while (v < n && head[v])
		v++;
	/* NUL, endianness, long size, then 4 bytes of page size */
	if (v + 7 > n)
		return 0;
	memcpy(&size, head + v + 3, 4);
	return swap ? __builtin_bswap32(size) : size;
}

static int parse(const char *path, struct rr_trace *t)
{
	struct tracedat_reader r = { 0 };
	struct tracecmd_input **handles = NULL;
	int nr = 0, ret, queue_ready = 0;
	pthread_t decoder;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	ret = open_handles(path, &handles, &nr);
	if (ret == -ENOMEM)
		return rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", path);
	if (ret == -ERANGE)
		return rr_fail(RR_EXIT_BAD_INPUT,
			       "'%s': truncated or corrupt trace.dat: its event data runs past the "
			       "end of the file", path);
	if (ret)
		return rr_fail(RR_EXIT_BAD_INPUT,
			       "'%s': not a readable trace.dat (corrupt or truncated header)", path);

	t->format = describe_format(path);
	r.tep = tracecmd_get_tep(handles[0]);
	r.swap = tep_is_file_bigendian(r.tep) != tep_is_local_bigendian(r.tep);
	if (!t->page_size)
		t->page_size = tep_get_page_size(r.tep);
	ret = rr_builder_init(&r.builder, t);
	if (!ret)
		ret = type_table_init(&r);
	if (ret) {
		ret = rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", path);
		goto out;
	}
	for (int i = 0; i < nr; i++)
		tracecmd_follow_missed_events(handles[i], on_missed, &r);
	if (tep_get_cpus(r.tep) > t->nr_cpus)
		t->nr_cpus = tep_get_cpus(r.tep);
	r.handles = handles;
	r.nr_handles = nr;
	r.nr_cpus = tep_get_cpus(r.tep) > 0 ? tep_get_cpus(r.tep) : 1;
	/* without it (no page size) pages simply stay mapped */
	rr_release_init(&r.release, path, header_page_size(path, r.swap));

	if (rr_rq_init(&r.queue)) {
		ret = rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", path);
		goto out;
	}
	queue_ready = 1;
	if (pthread_create(&decoder, NULL, rr_tracedat_consume, &r)) {
		ret = rr_fail(RR_EXIT_FAILURE, "'%s': cannot start the decoding thread", path);
		goto out;
	}
	ret = tracecmd_iterate_events_multi(handles, nr, on_record, &r);
	rr_rq_close(&r.queue);
	pthread_join(decoder, NULL);
	if (r.error || r.read_error) {
		ret = rr_fail(RR_EXIT_FAILURE, "'%s': out of memory after %llu records", path,
			       (unsigned long long)t->records_read);
		goto out;
	}
	if (ret < 0) {
		ret = rr_fail(RR_EXIT_BAD_INPUT, "'%s': cannot read the event data after %llu records (corrupt file)",
			       path, (unsigned long long)t->records_read);
		goto out;
	}
	if (rr_builder_finish(&r.builder)) {
		ret = rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", path);
		goto out;
	}
	ret = 0;
out:
	rr_builder_release(&r.builder);
	rr_release_fini(&r.release);
	if (queue_ready)
		rr_rq_destroy(&r.queue);
	free(r.pids);
	free(r.types);
	close_handles(handles, nr);
	return ret;
}

const struct rr_parser rr_tracedat_parser = {
	.name = "trace.dat",
	.probe = probe,
	.parse = parse,
};
