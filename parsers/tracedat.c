// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat reader: libtracecmd opens the file (versions 6 and 7, compressed
 * or not) and merges every cpu of the top buffer and of every buffer
 * instance in time order; libtraceevent describes each event's fields, which
 * are looked up by name once per event type and then read per record
 * (parsers/decode.c, shared with the live view).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd/trace-cmd.h>

#include "decode.h"
#include "parser.h"
#include "trace_builder.h"
#include "reclaim_replay/error.h"

/* What we learnt about one event id, filled on its first record. */
struct type_info {
	uint8_t ready;
	uint8_t is_print;
	long name_index;
	struct rr_decode_type dec;	/* fields, common_pid (parsers/decode.h) */
	struct tep_format_field *buf;	/* ftrace:print text */
};

struct tracedat_reader {
	struct rr_builder builder;
	struct tep_handle *tep;
	int swap;		/* the file's byte order is not ours */
	struct type_info *types;
	int max_id;
	int error;
};

static int type_table_init(struct tracedat_reader *r)
{
	int n = tep_get_events_count(r->tep);

	r->max_id = 0;
	for (int i = 0; i < n; i++) {
		struct tep_event *e = tep_get_event(r->tep, i);

		if (e && e->id > r->max_id)
			r->max_id = e->id;
	}
	r->types = calloc((size_t)r->max_id + 1, sizeof(*r->types));
	return r->types ? 0 : -ENOMEM;
}

static int learn_type(struct tracedat_reader *r, struct type_info *ti, struct tep_event *e)
{
	const struct rr_event_desc *d;

	rr_decode_learn(&ti->dec, e);
	d = ti->dec.desc;
	ti->ready = 1;
	ti->is_print = rr_is_print_event(e->system, e->name);
	ti->name_index = rr_builder_name_index(&r->builder, e->name, d || ti->is_print);
	if (ti->name_index < 0)
		return -ENOMEM;
	if (ti->is_print)
		ti->buf = tep_find_field(e, "buf");
	if (!d)
		return 0;
	/* Say once, at the end, which fields this kernel's format lacks. */
	for (int i = 0; i < d->nr_fields; i++)
		if (!ti->dec.fields[i] &&
		    rr_builder_missing_field(&r->builder, e->name, d->fields[i].name))
			return -ENOMEM;
	return 0;
}

static void read_print(struct tracedat_reader *r, struct type_info *ti, struct tep_record *rec,
		       uint32_t pid)
{
	const char *text;
	int len;

	if (!ti->buf || ti->buf->offset >= rec->size) {
		r->builder.trace->records_undecodable++;
		return;
	}
	text = (const char *)rec->data + ti->buf->offset;
	len = rec->size - ti->buf->offset;
	if (rr_builder_print(&r->builder, rec->ts, pid, rec->cpu, text,
			     strnlen(text, (size_t)len)))
		r->error = -ENOMEM;
}

static int on_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
	struct tracedat_reader *r = data;
	struct rr_trace *t = r->builder.trace;
	struct type_info *ti;
	struct rr_event *ev, tmp = { .nid = RR_NID_NONE };
	int id = tep_data_type(r->tep, rec);
	uint32_t pid;

	(void)handle;
	(void)cpu;
	if (id < 0 || id > r->max_id) {
		t->records_read++;
		t->records_undecodable++;
		return 0;
	}
	ti = &r->types[id];
	if (!ti->ready) {
		struct tep_event *e = tep_find_event(r->tep, id);

		if (!e) {
			t->records_read++;
			t->records_undecodable++;
			return 0;
		}
		if (learn_type(r, ti, e)) {
			r->error = -ENOMEM;
			return 1;
		}
	}
	rr_builder_count(&r->builder, ti->name_index, rec->ts);
	if (!ti->dec.desc && !ti->is_print) {
		t->records_ignored++;
		return 0;
	}
	if (ti->dec.common_pid) {
		int ok = 1;

		pid = (uint32_t)rr_decode_number(ti->dec.common_pid, rec->data, rec->size, r->swap,
						 &ok);
	} else {
		pid = (uint32_t)tep_data_pid(r->tep, rec);
	}
	if (!rr_builder_task_known(&r->builder, pid) &&
	    rr_builder_task(&r->builder, pid, tep_data_comm_from_pid(r->tep, (int)pid))) {
		r->error = -ENOMEM;
		return 1;
	}
	if (ti->is_print) {
		read_print(r, ti, rec, pid);
		return r->error ? 1 : 0;
	}
	if (ti->dec.undecodable) {
		t->records_undecodable++;
		return 0;
	}
	/*
	 * Decode first: a record shorter than its format is counted
	 * undecodable and not kept, so used + ignored + undecodable == read.
	 */
	if (rr_decode_fields(&ti->dec, rec->data, rec->size, r->swap, &tmp)) {
		t->records_undecodable++;
		return 0;
	}
	ev = rr_builder_push(&r->builder, rec->ts, pid, rec->cpu, ti->dec.desc->type);
	if (!ev) {
		r->error = -ENOMEM;
		return 1;
	}
	ev->nid = tmp.nid;
	ev->aux = tmp.aux;
	ev->flags |= tmp.flags;
	memcpy(ev->v, tmp.v, sizeof(ev->v));
	return 0;
}

static int on_missed(struct tracecmd_input *handle, struct tep_event *event,
		     struct tep_record *rec, int cpu, void *data)
{
	struct tracedat_reader *r = data;
	/* missed_events < 0: the page only says "some were lost" */
	uint64_t count = rec->missed_events > 0 ? (uint64_t)rec->missed_events : 0;

	(void)handle;
	(void)event;
	if (rr_builder_lost(&r->builder, cpu, rec->ts, count)) {
		r->error = -ENOMEM;
		return 1;
	}
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

static int parse(const char *path, struct rr_trace *t)
{
	struct tracedat_reader r = { 0 };
	struct tracecmd_input **handles = NULL;
	int nr = 0, ret;

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

	ret = tracecmd_iterate_events_multi(handles, nr, on_record, &r);
	if (r.error) {
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
	free(r.types);
	close_handles(handles, nr);
	return ret;
}

const struct rr_parser rr_tracedat_parser = {
	.name = "trace.dat",
	.probe = probe,
	.parse = parse,
};
