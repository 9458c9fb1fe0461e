// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat reader: the structure pre-check, then libtracecmd opens the
 * file (versions 6 and 7, compressed or not) and delivers every cpu of the
 * top buffer and of every buffer instance in time order; libtraceevent
 * describes each event's fields, which are looked up by name once per event
 * type and then read per record (parsers/decode.c, shared with the live
 * view).
 *
 * This file opens the handles and runs the threads (tracedat_reader.h):
 * reading threads that iterate, type and decode the records of their cpu
 * streams (tracedat_read.c, planned by tracedat_plan.c), and the building
 * thread that merges them in libtracecmd's order (tracedat_consume.c).
 */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>
#include <stdio.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd/trace-cmd.h>

#include "format_defer.h"
#include "format_guard.h"
#include "page_guard.h"
#include "parser.h"
#include "precheck.h"
#include "symbol_skip.h"
#include "tracedat_reader.h"
#include "reclaim_replay/error.h"

static int probe(const unsigned char *head, size_t len)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

	return len >= sizeof(magic) && !memcmp(head, magic, sizeof(magic));
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

/*
 * 0; -EBADMSG: headers unreadable; -ERANGE: cpu data past end of file;
 * -EPROTO: an event format the format guard refused (rr_format_guard_refusal()
 * says which). libtracecmd and libtraceevent print nothing at TEP_LOG_NONE,
 * so stderr stays open: a sanitizer report written here reaches the user.
 */
static int open_top(const char *path, struct tracecmd_input **out,
		    struct rr_format_defer **formats)
{
	struct tracecmd_input *top;
	/* RR_EAGER_FORMATS=1: every format parsed at open, as libtracecmd does */
	const char *eager = getenv("RR_EAGER_FORMATS");
	struct rr_format_defer *df = NULL;
	int ret = 0, refused;

	if (!(eager && !strcmp(eager, "1")) && !(df = rr_format_defer_new()))
		return -ENOMEM;
	rr_format_guard_arm();
	rr_format_defer_arm(df);
	rr_symbol_skip_arm();
	top = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	rr_symbol_skip_disarm();
	rr_format_defer_disarm();
	refused = rr_format_guard_disarm();
	if (!top) {
		ret = refused ? -EPROTO : -EBADMSG;
	} else if (refused) {
		tracecmd_close(top);
		ret = -EPROTO;
		top = NULL;
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
	*out = top;
	if (top)
		*formats = df;
	else
		rr_format_defer_free(df);
	return ret;
}

/*
 * The top handle and every buffer instance the library can open, with each
 * one's buffer name (@names[0] is the top buffer's, ""), and the event
 * formats their libtraceevent handle (shared by all) has yet to parse.
 */
int rr_tracedat_open_handles(const char *path, int warn, struct tracecmd_input ***out,
			     const char ***names_out, int *nr, struct rr_format_defer **formats)
{
	struct tracecmd_input *top, **handles;
	const char **names;
	int n, ret;

	ret = open_top(path, &top, formats);
	if (ret)
		return ret;
	n = tracecmd_buffer_instances(top);
	if (n < 0)
		n = 0;
	handles = calloc((size_t)n + 1, sizeof(*handles));
	names = calloc((size_t)n + 1, sizeof(*names));
	if (!handles || !names) {
		free(handles);
		free(names);
		tracecmd_close(top);
		rr_format_defer_free(*formats);
		*formats = NULL;
		return -ENOMEM;
	}
	handles[0] = top;
	names[0] = "";
	*nr = 1;
	for (int i = 0; i < n; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(top, i);

		/* An instance the library cannot open is reported, not hidden. */
		if (!h) {
			if (warn)
				rr_warn("'%s': cannot open buffer instance '%s'; its events are "
					"not read", path, tracecmd_buffer_instance_name(top, i));
			continue;
		}
		names[*nr] = tracecmd_buffer_instance_name(top, i);
		handles[(*nr)++] = h;
	}
	*out = handles;
	*names_out = names;
	return 0;
}

void rr_tracedat_close_handles(struct tracecmd_input **handles, int nr)
{
	/* Instances first: they borrow the top handle's file. */
	for (int i = nr - 1; i >= 0; i--)
		tracecmd_close(handles[i]);
	free(handles);
}

/* The pre-check's verdict on the file, as the one-line message users see. */
static int precheck(const char *path, struct rr_section_map *map)
{
	char err[256];
	int ret = rr_precheck_tracedat(path, map, err, sizeof(err));

	if (ret < 0)
		return rr_fail(RR_EXIT_BAD_INPUT, "cannot read '%s': %s", path, err);
	if (ret)
		return rr_fail(RR_EXIT_BAD_INPUT, "'%s': corrupt trace.dat: %s", path, err);
	return 0;
}

static int open_error(const char *path, int ret)
{
	if (ret == -ENOMEM)
		return rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", path);
	if (ret == -EPROTO)
		return rr_fail(RR_EXIT_BAD_INPUT, "'%s': corrupt trace.dat: %s", path,
			       rr_format_guard_refusal());
	if (ret == -ERANGE)
		return rr_fail(RR_EXIT_BAD_INPUT,
			       "'%s': truncated or corrupt trace.dat: its event data runs past the "
			       "end of the file", path);
	return rr_fail(RR_EXIT_BAD_INPUT,
		       "'%s': not a readable trace.dat (corrupt or truncated header)", path);
}

/* A source over @handles: the given handle and cpus, or all of them merged. */
static int source_setup(struct tracedat_source *s, const char *path,
			const struct rr_section_map *map, int nr_sources,
			struct tracecmd_input **handles, int nr, struct rr_format_defer *formats,
			struct rr_source_plan *plan)
{
	int ret;

	s->formats = formats;
	s->handles = handles;
	s->nr_handles = nr;
	s->handle = plan ? plan->handle : -1;
	if (plan) {
		s->cpus = plan->cpus;
		s->cpus_size = plan->cpus_size;
		plan->cpus = NULL;
	}
	s->tep = tracecmd_get_tep(handles[0]);
	s->swap = tep_is_file_bigendian(s->tep) != tep_is_local_bigendian(s->tep);
	s->nr_cpus = tep_get_cpus(s->tep) > 0 ? tep_get_cpus(s->tep) : 1;
	/* without it (no page size) pages simply stay mapped */
	rr_release_init(&s->release, path, map->page_size);
	s->path = path;
	s->reopen_bytes = rr_tracedat_reopen_bytes(map->compression, nr_sources);
	ret = rr_source_init(s);
	return ret ? ret : rr_source_reopen_init(s);
}

/*
 * The sources: one per planned part when the streams can be shared, each
 * with a handle of its own (the first reuses @handles); else one over all.
 */
static int setup_sources(struct tracedat_reader *r, const char *path,
			 const struct rr_section_map *map, struct tracecmd_input **handles,
			 const char **names, int nr, struct rr_format_defer *formats, int want)
{
	struct rr_source_plan plan[RR_TRACEDAT_MAX_SOURCES];
	int n;

	n = rr_tracedat_plan(map, names, nr, want, plan);
	r->src = calloc(n ? (size_t)n : 1, sizeof(*r->src));
	if (!r->src) {
		for (int i = 0; i < n; i++)
			CPU_FREE(plan[i].cpus);
		return -ENOMEM;
	}
	if (!n) {
		r->nr_src = 1;
		return source_setup(&r->src[0], path, map, 1, handles, nr, formats, NULL);
	}
	for (int i = 0; i < n; i++) {
		struct tracecmd_input **h = handles;
		struct rr_format_defer *df = formats;
		const char **hn = NULL;
		int hnr = nr, ret = 0;

		/* the same file, opened again: the same buffers in the same order */
		if (i && (ret = rr_tracedat_open_handles(path, 0, &h, &hn, &hnr, &df)) == 0) {
			free(hn);
			if (hnr != nr) {
				rr_tracedat_close_handles(h, hnr);
				rr_format_defer_free(df);
				ret = -ESTALE;
			}
		}
		if (!ret) {
			r->nr_src = i + 1;
			ret = source_setup(&r->src[i], path, map, n, h, hnr, df, &plan[i]);
		}
		if (ret) {
			for (int j = i; j < n; j++)
				if (plan[j].cpus)
					CPU_FREE(plan[j].cpus);
			return ret == -ENOMEM ? -ENOMEM : -ESTALE;
		}
	}
	return 0;
}

static void release_sources(struct tracedat_reader *r)
{
	/*
	 * Every source owns the handles it holds now: the first one took the
	 * caller's, and a source that opened the file again (tracedat_reopen.c)
	 * has closed the ones it started with.
	 */
	for (int i = 0; i < r->nr_src; i++) {
		rr_source_release(&r->src[i]);
		rr_tracedat_close_handles(r->src[i].handles, r->src[i].nr_handles);
	}
	free(r->src);
	r->src = NULL;
	r->nr_src = 0;
}

/* Runs the reading threads (the first on the calling thread) and the builder. */
static int run_threads(struct tracedat_reader *r)
{
	pthread_t builder;
	int ret = 0;

	if (pthread_create(&builder, NULL, rr_tracedat_consume, r))
		return -EAGAIN;
	for (int i = 1; i < r->nr_src; i++) {
		struct tracedat_source *s = &r->src[i];

		s->started = !pthread_create(&s->thread, NULL, rr_source_run, s);
		if (!s->started) {
			/* nothing will fill it: the builder must not wait for it */
			s->read_error = -EAGAIN;
			rr_rq_close(&s->queue);
		}
	}
	rr_source_run(&r->src[0]);
	for (int i = 1; i < r->nr_src; i++)
		if (r->src[i].started)
			pthread_join(r->src[i].thread, NULL);
	pthread_join(builder, NULL);
	for (int i = 0; i < r->nr_src; i++) {
		if (r->src[i].read_error == -EAGAIN)
			ret = -EAGAIN;
		else if (r->src[i].read_error && !ret)
			ret = -ENOMEM;
		else if (r->src[i].iterate_ret < 0 && !ret)
			ret = -EIO;
	}
	return r->error ? -ENOMEM : ret;
}

/*
 * Reads the events of @path into @t with up to @want reading threads
 * (@warn: say which buffer instances cannot be opened). Returns 0; an
 * rr_tracedat_open_handles() error with *@opened 0; or, once opened,
 * -ENOMEM, -EAGAIN (no thread), -ESTALE (a second open failed) or -EIO
 * (libtracecmd stopped with an error). *@nr_src: the sources it used.
 */
static int read_events(const char *path, struct rr_trace *t, const struct rr_section_map *map,
		       int want, int warn, int *opened, int *nr_src)
{
	struct tracedat_reader r = { 0 };
	struct tracecmd_input **handles = NULL;
	struct rr_format_defer *formats = NULL;
	const char **names = NULL;
	int nr = 0, ret, guarded;

	*opened = 0;
	*nr_src = 0;
	/* compressed pages are checked as libtracecmd decompresses them */
	guarded = map->version == 7 && strcmp(map->compression, "none");
	if (guarded)
		rr_page_guard_arm(map);
	ret = rr_tracedat_open_handles(path, warn, &handles, &names, &nr, &formats);
	if (ret)
		return guarded && rr_page_guard_disarm() ? -EILSEQ : ret;
	*opened = 1;
	/* the pre-check accepts versions 6 and 7 only */
	if (!t->format && asprintf(&t->format, "trace.dat v%d", map->version) < 0)
		t->format = NULL;
	if (!t->page_size)
		t->page_size = tep_get_page_size(tracecmd_get_tep(handles[0]));
	if (tep_get_cpus(tracecmd_get_tep(handles[0])) > t->nr_cpus)
		t->nr_cpus = tep_get_cpus(tracecmd_get_tep(handles[0]));
	ret = rr_builder_init(&r.builder, t);
	if (!ret)
		ret = setup_sources(&r, path, map, handles, names, nr, formats, want);
	/* the first source took them, unless it was never set up */
	if (!r.nr_src) {
		rr_format_defer_free(formats);
		rr_tracedat_close_handles(handles, nr);
	}
	*nr_src = r.nr_src;
	for (int i = 0; !ret && i < r.nr_src; i++)
		if (r.src[i].max_id > r.max_id)
			r.max_id = r.src[i].max_id;
	if (!ret && !(r.names = calloc((size_t)r.max_id + 1, sizeof(*r.names))))
		ret = -ENOMEM;
	if (!ret) {
		ret = run_threads(&r);
		for (int i = 0; i < r.nr_src; i++)
			rr_source_add_counts(&r.src[i], r.names, &r.builder);
	}
	if (!ret && rr_builder_finish(&r.builder))
		ret = -ENOMEM;
	rr_builder_release(&r.builder);
	release_sources(&r);
	free(r.names);
	free(names);
	/*
	 * The reading threads' arenas keep what libtracecmd freed at its
	 * close (decompressed chunks, pages, records): tens of MiB that the
	 * model and the replays would otherwise hold on to. 74 MiB on
	 * slow-writeback.dat (docs/performance.md, "Ingest memory: the arenas
	 * trimmed").
	 */
	malloc_trim(0);
	/* a damaged page was read as empty: the figures would miss its records */
	if (guarded && rr_page_guard_disarm())
		ret = -EILSEQ;
	return ret;
}

/*
 * How many records the one-thread reader delivers before libtracecmd
 * fails: several threads read on past the point where the one-thread
 * merge stops, and the message must not depend on the thread count.
 */
static uint64_t records_before_failure(const char *path, const struct rr_section_map *map)
{
	struct rr_trace *scratch = calloc(1, sizeof(*scratch));
	uint64_t n = 0;
	int opened, nr_src;

	if (!scratch)
		return 0;
	read_events(path, scratch, map, 1, 0, &opened, &nr_src);
	n = scratch->records_read;
	rr_trace_free(scratch);
	return n;
}

static int parse(const char *path, struct rr_trace *t)
{
	struct rr_section_map map;
	uint64_t bytes = 0;
	int ret, opened, nr_src;

	/* our message for a damaged structure, before libtracecmd trusts it */
	ret = precheck(path, &map);
	if (ret)
		goto out;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	for (size_t i = 0; i < map.nr_streams; i++)
		bytes += map.streams[i].bytes;
	ret = read_events(path, t, &map, rr_tracedat_want_sources(bytes), 1, &opened, &nr_src);
	if (!ret)
		goto out;
	if (ret == -EILSEQ) {
		ret = rr_fail(RR_EXIT_BAD_INPUT, "'%s': corrupt trace.dat: %s", path,
			      rr_page_guard_refusal());
	} else if (!opened) {
		ret = open_error(path, ret);
	} else if (ret == -ESTALE) {
		ret = rr_fail(RR_EXIT_BAD_INPUT, "'%s': cannot open the file again for a second "
			      "reading thread (changed while read?)", path);
	} else if (ret == -EAGAIN) {
		ret = rr_fail(RR_EXIT_FAILURE, "'%s': cannot start the reading threads", path);
	} else if (ret == -ENOMEM) {
		ret = rr_fail(RR_EXIT_FAILURE, "'%s': out of memory after %llu records", path,
			      (unsigned long long)t->records_read);
	} else {
		ret = rr_fail(RR_EXIT_BAD_INPUT, "'%s': cannot read the event data after %llu "
			      "records (corrupt file)", path, (unsigned long long)
			      (nr_src > 1 ? records_before_failure(path, &map) : t->records_read));
	}
out:
	rr_section_map_release(&map);
	return ret;
}

const struct rr_parser rr_tracedat_parser = {
	.name = "trace.dat",
	.probe = probe,
	.parse = parse,
};
