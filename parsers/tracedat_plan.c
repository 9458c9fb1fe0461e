// SPDX-License-Identifier: GPL-2.0
/*
 * Sharing a trace.dat's cpu streams between reading threads.
 *
 * libtracecmd's per-record work (paging, kbuffer parsing, a calloc and a
 * free per record) is most of what reading costs, and one cpu stream never
 * depends on another until the records are merged by time. So the streams
 * are split into sources, each read by a thread with a handle of its own,
 * and merged again by the building thread in the order
 * tracecmd_iterate_events_multi gives (tracedat_consume.c).
 *
 * The plan relies on the pre-check's list of streams with data (buffer
 * name, cpu, bytes; parsers/precheck.h): every one of them must be placed
 * on exactly one handle, otherwise a stream could go unread, and the
 * reader falls back to one thread merging everything.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "precheck.h"
#include "tracedat_reader.h"

/* A cpu id beyond this is not planned (the cpu set would be huge). */
#define PLAN_MAX_CPU	65535
/* Below this much event data a second thread costs more than it saves. */
#define PLAN_MIN_BYTES	(4u << 20)

int rr_tracedat_want_sources(uint64_t bytes)
{
	const char *env = getenv("RR_READ_THREADS");
	long n;

	/* tests and benchmarks choose; 1 is the one-thread reader */
	if (env && *env) {
		n = strtol(env, NULL, 10);
		return n < 1 ? 1 : n > RR_TRACEDAT_MAX_SOURCES ? RR_TRACEDAT_MAX_SOURCES : (int)n;
	}
	if (bytes < PLAN_MIN_BYTES)
		return 1;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 2 ? 1 : n > 4 ? 4 : (int)n;
}

struct placed {
	int handle;
	uint32_t cpu;
	uint64_t bytes;
};

static int by_bytes_desc(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes < y->bytes ? 1 : -1;
	if (x->handle != y->handle)
		return x->handle - y->handle;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* The handle whose buffer is @name, -1 when none or more than one. */
static int find_handle(const char *const *names, int nr_handles, const char *name)
{
	int found = -1;

	for (int h = 0; h < nr_handles; h++) {
		if (!names[h] || strcmp(names[h], name))
			continue;
		if (found >= 0)
			return -1;
		found = h;
	}
	return found;
}

static int add_cpu(struct rr_source_plan *p, uint32_t cpu)
{
	size_t size = CPU_ALLOC_SIZE(cpu + 1);

	if (size > p->cpus_size) {
		cpu_set_t *set = CPU_ALLOC(cpu + 1);

		if (!set)
			return -1;
		CPU_ZERO_S(size, set);
		if (p->cpus) {
			memcpy(set, p->cpus, p->cpus_size);
			CPU_FREE(p->cpus);
		}
		p->cpus = set;
		p->cpus_size = size;
	}
	CPU_SET_S(cpu, p->cpus_size, p->cpus);
	return 0;
}

static int fail(struct rr_source_plan *out, int n, struct placed *st)
{
	for (int i = 0; i < n; i++)
		if (out[i].cpus)
			CPU_FREE(out[i].cpus);
	free(st);
	return 0;
}

int rr_tracedat_plan(const struct rr_section_map *map, const char *const *names, int nr_handles,
		     int want, struct rr_source_plan *out)
{
	struct placed *st;
	size_t n = map->nr_streams;
	int nr_out = 0, handles_with_data = 0, last = -1;

	if (want < 2 || !map->streams_complete || n < 2)
		return 0;
	if (want > RR_TRACEDAT_MAX_SOURCES)
		want = RR_TRACEDAT_MAX_SOURCES;
	st = calloc(n, sizeof(*st));
	if (!st)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct rr_data_stream *d = &map->streams[i];

		st[i].handle = find_handle(names, nr_handles, d->buffer);
		st[i].cpu = d->cpu;
		st[i].bytes = d->bytes;
		if (st[i].handle < 0 || d->cpu > PLAN_MAX_CPU)
			return fail(out, 0, st);
		/* a stream listed twice would be read twice */
		for (size_t j = 0; j < i; j++)
			if (st[j].handle == st[i].handle && st[j].cpu == st[i].cpu)
				return fail(out, 0, st);
	}
	for (int h = 0; h < nr_handles; h++)
		for (size_t i = 0; i < n; i++)
			if (st[i].handle == h) {
				handles_with_data++;
				last = h;
				break;
			}
	memset(out, 0, sizeof(*out) * RR_TRACEDAT_MAX_SOURCES);
	if (handles_with_data == 1) {
		/* one buffer: its streams, largest first, each to the lightest source */
		nr_out = (int)n < want ? (int)n : want;
		qsort(st, n, sizeof(*st), by_bytes_desc);
		for (int k = 0; k < nr_out; k++)
			out[k].handle = last;
		for (size_t i = 0; i < n; i++) {
			int k = 0;

			for (int j = 1; j < nr_out; j++)
				if (out[j].bytes < out[k].bytes)
					k = j;
			out[k].bytes += st[i].bytes;
			if (add_cpu(&out[k], st[i].cpu))
				return fail(out, nr_out, st);
		}
	} else {
		/* several buffers: one source each, every cpu of it */
		if (handles_with_data > RR_TRACEDAT_MAX_SOURCES)
			return fail(out, 0, st);
		for (int h = 0; h < nr_handles; h++) {
			int used = 0;

			for (size_t i = 0; i < n; i++) {
				if (st[i].handle != h)
					continue;
				out[nr_out].handle = h;
				out[nr_out].bytes += st[i].bytes;
				if (add_cpu(&out[nr_out], st[i].cpu))
					return fail(out, nr_out + 1, st);
				used = 1;
			}
			nr_out += used;
		}
	}
	free(st);
	return nr_out;
}
