// SPDX-License-Identifier: GPL-2.0
/*
 * The counter sampler: every period, one rr-counters line per node from
 * /sys/devices/system/node/nodeN/vmstat into the instance's trace_marker,
 * so the samples carry the trace clock and sit in order with the events
 * (design/counter-samples.md). It runs while the machine is short of
 * memory, so the loop never allocates, keeps its files open, and the
 * process is mlocked: a page fault in the sampler would stall it exactly
 * when the samples matter.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "recorder.h"
#include "reclaim_replay/error.h"

#define VMSTAT_BUF	16384
#define LINE_MAX_BYTES	1024	/* the line format's limit */

struct rr_sampler {
	pthread_t thread;
	int started;
	int stop;			/* __atomic */
	int marker_fd;
	int nr_fds;
	int fd[RR_MAX_NODES];
	int nid[RR_MAX_NODES];
	uint64_t period_ns;
	struct rr_sampler_stats st;
	char vmstat[VMSTAT_BUF];
	char line[LINE_MAX_BYTES + 64];
};

/* The keys the model reads; any pgscan_* / pgsteal_* are added if they fit. */
static const char *const keys[] = {
	"nr_free_pages", "nr_inactive_anon", "nr_active_anon", "nr_inactive_file",
	"nr_active_file", "nr_isolated_anon", "nr_isolated_file", "nr_dirty",
	"nr_writeback", "nr_written", "nr_throttled_written", "nr_vmscan_immediate_reclaim",
};

static int wanted(const char *k, size_t len)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i]) == len && !memcmp(keys[i], k, len))
			return 2;
	if ((len > 7 && !memcmp(k, "pgscan_", 7)) || (len > 8 && !memcmp(k, "pgsteal_", 8)))
		return 1;
	return 0;
}

static char *put_str(char *p, const char *end, const char *s, size_t len)
{
	if (!p || (size_t)(end - p) < len)
		return NULL;
	memcpy(p, s, len);
	return p + len;
}

static char *put_uint(char *p, const char *end, unsigned long v)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (!p || end - p < n)
		return NULL;
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* Build one line from the node's vmstat text; returns its length or 0. */
static size_t format_line(struct rr_sampler *sp, int nid, size_t textlen)
{
	const char *t = sp->vmstat, *tend = sp->vmstat + textlen;
	char *p = sp->line, *end = sp->line + LINE_MAX_BYTES - 1;
	static const char head[] = "rr-counters v1 node=";

	p = put_str(p, end, head, sizeof(head) - 1);
	p = put_uint(p, end, (unsigned long)nid);
	while (p && t < tend) {
		const char *nl = memchr(t, '\n', (size_t)(tend - t));
		const char *sp_ = memchr(t, ' ', (size_t)((nl ? nl : tend) - t));
		const char *next = nl ? nl + 1 : tend;
		char *save = p;
		int w;

		if (!sp_) {
			t = next;
			continue;
		}
		w = wanted(t, (size_t)(sp_ - t));
		if (w) {
			p = put_str(p, end, " ", 1);
			p = put_str(p, end, t, (size_t)(sp_ - t));
			p = put_str(p, end, "=", 1);
			p = put_str(p, end, sp_ + 1, (size_t)((nl ? nl : tend) - sp_ - 1));
			/* Optional keys give way to the 1 KiB limit; required ones
			 * come first in the file and always fit. */
			if (!p && w == 1) {
				p = save;
				break;
			}
		}
		t = next;
	}
	if (!p)
		return 0;
	*p++ = '\n';
	return (size_t)(p - sp->line);
}

static void sample_once(struct rr_sampler *sp)
{
	for (int i = 0; i < sp->nr_fds; i++) {
		ssize_t n = pread(sp->fd[i], sp->vmstat, sizeof(sp->vmstat), 0);
		size_t len;

		if (n <= 0) {
			sp->st.write_errors++;
			continue;
		}
		len = format_line(sp, sp->nid[i], (size_t)n);
		if (!len || write(sp->marker_fd, sp->line, len) != (ssize_t)len) {
			/* Buffer full with overwrite off, most likely: counted,
			 * and the ring-buffer stats say so loudly at the end. */
			sp->st.write_errors++;
			continue;
		}
		sp->st.samples++;
		sp->st.bytes += len;
	}
}

static void ts_add(struct timespec *ts, uint64_t ns)
{
	ns += (uint64_t)ts->tv_nsec;
	ts->tv_sec += (time_t)(ns / 1000000000u);
	ts->tv_nsec = (long)(ns % 1000000000u);
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

static void *sampler_main(void *arg)
{
	struct rr_sampler *sp = arg;
	struct timespec next, now, cpu;
	uint64_t t0;

	clock_gettime(CLOCK_MONOTONIC, &next);
	t0 = ts_ns(&next);
	while (!__atomic_load_n(&sp->stop, __ATOMIC_RELAXED)) {
		sample_once(sp);
		ts_add(&next, sp->period_ns);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (ts_ns(&now) > ts_ns(&next)) {
			/* Ran long (or was descheduled): skip, do not burst. */
			uint64_t behind = ts_ns(&now) - ts_ns(&next);

			sp->st.late += behind / sp->period_ns + 1;
			next = now;
			ts_add(&next, sp->period_ns);
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	sp->st.wall_ns = ts_ns(&now) - t0;
	if (!clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu))
		sp->st.cpu_ns = ts_ns(&cpu);
	return NULL;
}

static int open_marker(struct rr_rec_session *s)
{
	char *path = tracefs_instance_get_file(s->inst, "trace_marker");
	int fd;

	if (!path)
		return -1;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	tracefs_put_tracing_file(path);
	return fd;
}

static int write_meta(struct rr_sampler *sp, const struct rr_sysinfo *si, unsigned period_us)
{
	char line[256];
	int n;

	n = snprintf(line, sizeof(line),
		     "rr-meta v1 hz=%d page_size=%d nodes=%d kernel=%s sample_us=%u hz_source=%s\n",
		     si->hz, si->page_size, si->nr_nodes, si->kernel, period_us, si->hz_source);
	if (write(sp->marker_fd, line, (size_t)n) != n)
		return -1;
	for (int nid = 0; nid < si->nr_nodes; nid++) {
		if (!si->have_range[nid])
			continue;
		n = snprintf(line, sizeof(line), "rr-meta v1 node=%d start_pfn=%llu end_pfn=%llu\n",
			     nid, (unsigned long long)si->ranges[nid].start_pfn,
			     (unsigned long long)si->ranges[nid].end_pfn);
		if (write(sp->marker_fd, line, (size_t)n) != n)
			return -1;
	}
	return 0;
}

static void sampler_free(struct rr_sampler *sp)
{
	for (int i = 0; i < sp->nr_fds; i++)
		close(sp->fd[i]);
	if (sp->marker_fd >= 0)
		close(sp->marker_fd);
	free(sp);
}

int rr_sampler_start(struct rr_rec_session *s, const struct rr_sysinfo *si,
		     unsigned period_us, struct rr_sampler **out)
{
	struct rr_sampler *sp;
	pthread_attr_t attr;
	sigset_t all, old;
	int err;

	*out = NULL;
	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	sp->period_ns = (uint64_t)period_us * 1000u;
	sp->marker_fd = open_marker(s);
	if (sp->marker_fd < 0) {
		err = errno;
		sampler_free(sp);
		return rr_fail(RR_EXIT_FAILURE, "cannot open trace_marker of instance '%s': %s",
			       s->name, strerror(err));
	}
	for (int nid = 0; nid < si->nr_nodes; nid++) {
		char path[96];
		int fd;

		if (!si->node_online[nid])
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/vmstat", nid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			/* No per-node vmstat (CONFIG_NUMA=n): no samples for it. */
			rr_warn("cannot open '%s': %s; no counter samples for node %d", path,
				strerror(errno), nid);
			continue;
		}
		sp->nid[sp->nr_fds] = nid;
		sp->fd[sp->nr_fds++] = fd;
	}
	if (write_meta(sp, si, period_us)) {
		err = errno;
		sampler_free(sp);
		return rr_fail(RR_EXIT_FAILURE, "cannot write rr-meta to trace_marker of instance "
			       "'%s': %s", s->name, strerror(err));
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		rr_warn("mlockall: %s; the sampler may stall on page faults under memory pressure",
			strerror(errno));

	pthread_attr_init(&attr);
	/* A small stack: with MCL_FUTURE every stack page is locked. */
	pthread_attr_setstacksize(&attr, 64 * 1024);
	/* Signals go to the main thread, which owns the cleanup. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&sp->thread, &attr, sampler_main, sp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err) {
		sampler_free(sp);
		return rr_fail(RR_EXIT_FAILURE, "cannot start the counter sampler thread: %s",
			       strerror(err));
	}
	sp->started = 1;
	*out = sp;
	return 0;
}

void rr_sampler_stop(struct rr_sampler *sp, struct rr_sampler_stats *st)
{
	if (!sp) {
		if (st)
			memset(st, 0, sizeof(*st));
		return;
	}
	__atomic_store_n(&sp->stop, 1, __ATOMIC_RELAXED);
	if (sp->started)
		pthread_join(sp->thread, NULL);
	if (st)
		*st = sp->st;
	sampler_free(sp);
	munlockall();
}
