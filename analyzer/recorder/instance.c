// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder's own tracing instance: checks that tracing is possible,
 * creates a fresh instance (never the top-level buffer, never someone
 * else's instance), enables the events the model decodes one by one so a
 * kernel without some of them still records the rest, and reads the
 * per-cpu ring-buffer statistics that say whether anything was lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "recorder.h"
#include "event_table.h"
#include "reclaim_replay/error.h"

volatile sig_atomic_t rr_rec_stop;
volatile sig_atomic_t rr_rec_signal;

static void on_stop_signal(int sig)
{
	rr_rec_signal = sig;
	rr_rec_stop = 1;
}

void rr_rec_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: waitpid/nanosleep/read must return so the main loop
	 * notices the flag and cleans up the instance. */
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A closed stdout (| head) must not kill us before the instance is gone. */
	signal(SIGPIPE, SIG_IGN);
}

/* Where tracefs is mounted, checked by filesystem type; NULL if nowhere. */
static const char *tracefs_mount(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct statfs sfs;

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!statfs(dirs[i], &sfs) && sfs.f_type == TRACEFS_MAGIC)
			return dirs[i];
	return NULL;
}

int rr_rec_check_tracing(const char *cmd)
{
	const char *dir;
	char path[256];

	if (geteuid() != 0) {
		/* Non-root usually cannot even look into tracefs; say the one
		 * fix that always works. */
		return rr_fail(RR_EXIT_NO_TRACING,
			       "%s: needs root to create a tracing instance: run it as root "
			       "(e.g. sudo reclaim-replay %s ...)", cmd, cmd);
	}
	dir = tracefs_mount();
	if (!dir) {
		return rr_fail(RR_EXIT_NO_TRACING,
			       "%s: tracefs is not mounted: mount it with "
			       "'mount -t tracefs nodev /sys/kernel/tracing' and run again", cmd);
	}
	snprintf(path, sizeof(path), "%s/instances", dir);
	if (access(path, W_OK)) {
		return rr_fail(RR_EXIT_NO_TRACING,
			       "%s: cannot create tracing instances in '%s': %s (kernel without "
			       "instance support, or a read-only tracefs mount)", cmd, path,
			       strerror(errno));
	}
	return 0;
}

/*
 * Every event of parsers/event_table.c, in the same order. rr_rec_session_open
 * checks each against the table, so a new modelled event added there without
 * a line here shows up as a warning rather than silently unrecorded.
 */
#define EV(s, n, a, c) { .system = s, .name = n, .alt = a, .cost = c }
static const struct rr_rec_event event_list[] = {
	EV("vmscan", "mm_vmscan_direct_reclaim_begin", NULL,
	  "no direct-reclaim episodes: direct stall time and per-task stall are unknown"),
	EV("vmscan", "mm_vmscan_direct_reclaim_end", NULL,
	  "direct-reclaim episodes never close: no direct stall durations"),
	EV("vmscan", "mm_vmscan_memcg_reclaim_begin", NULL,
	  "no memcg limit-reclaim episodes: memcg stall time is unknown"),
	EV("vmscan", "mm_vmscan_memcg_reclaim_end", NULL,
	  "memcg reclaim episodes never close: no memcg stall durations"),
	EV("vmscan", "mm_vmscan_memcg_softlimit_reclaim_begin", NULL,
	  "no soft-limit reclaim episodes"),
	EV("vmscan", "mm_vmscan_memcg_softlimit_reclaim_end", NULL,
	  "soft-limit reclaim episodes never close"),
	EV("vmscan", "mm_vmscan_node_reclaim_begin", NULL,
	  "no node (zone_reclaim_mode) reclaim episodes"),
	EV("vmscan", "mm_vmscan_node_reclaim_end", NULL,
	  "node reclaim episodes never close"),
	EV("vmscan", "mm_vmscan_kswapd_wake", NULL, "kswapd active time is unknown"),
	EV("vmscan", "mm_vmscan_kswapd_sleep", NULL, "kswapd active spans never close"),
	EV("vmscan", "mm_vmscan_wakeup_kswapd", NULL, "who woke kswapd, and why, is unknown"),
	EV("vmscan", "mm_vmscan_lru_isolate", NULL,
	  "no isolation batches: isolated-page peaks and the ISOLATED throttle replay are guesses"),
	EV("vmscan", "mm_vmscan_lru_shrink_inactive", NULL,
	  "no scanned/reclaimed per batch: efficiency and node attribution are lost"),
	EV("vmscan", "mm_vmscan_lru_shrink_active", NULL, "active-list aging is not seen"),
	EV("vmscan", "mm_vmscan_throttled", "writeback_congestion_wait",
	  "no reclaim throttles: throttle replay has nothing to replay"),
	EV("writeback", "writeback_congestion_wait", "mm_vmscan_throttled",
	  "legacy throttle (kernels before 5.16)"),
	EV("writeback", "writeback_wait_iff_congested", "mm_vmscan_throttled",
	  "legacy throttle (kernels before 5.16)"),
	EV("vmscan", "mm_vmscan_write_folio", "mm_vmscan_writepage",
	  "pages written by reclaim itself are not seen"),
	EV("vmscan", "mm_vmscan_writepage", "mm_vmscan_write_folio",
	  "pages written by reclaim itself are not seen"),
	EV("vmscan", "mm_vmscan_reclaim_pages", NULL,
	  "reclaim_pages() (DAMON, MADV_PAGEOUT) is not counted"),
	EV("vmscan", "mm_shrink_slab_start", NULL, "slab shrinking is not seen"),
	EV("vmscan", "mm_shrink_slab_end", NULL, "slab shrinking results are not seen"),
	EV("compaction", "mm_compaction_isolate_migratepages", NULL,
	  "compaction migrate scanning is not counted"),
	EV("compaction", "mm_compaction_isolate_freepages", NULL,
	  "compaction free scanning is not counted"),
	EV("compaction", "mm_compaction_fast_isolate_freepages", NULL,
	  "fast free-page isolation is not counted"),
	EV("compaction", "mm_compaction_migratepages", NULL, "migrated pages are not counted"),
	EV("compaction", "mm_compaction_begin", NULL, "compaction runs are not seen"),
	EV("compaction", "mm_compaction_end", NULL, "compaction results are not seen"),
	EV("compaction", "mm_compaction_try_to_compact_pages", NULL,
	  "direct compaction attempts are not seen"),
	EV("compaction", "mm_compaction_kcompactd_wake", NULL, "kcompactd wakeups are not seen"),
	EV("writeback", "writeback_written", NULL, "flusher writeback volume is unknown"),
	EV("writeback", "writeback_pages_written", NULL, "flusher writeback volume is unknown"),
	EV("block", "block_rq_issue", NULL, "block I/O issue is not seen"),
	EV("block", "block_rq_complete", NULL,
	  "block I/O completions are not seen: no write bandwidth for writeback replay"),
};

#define NR_EVENTS ((int)(sizeof(event_list) / sizeof(event_list[0])))

static int find_event(const struct rr_rec_session *s, const char *name)
{
	for (int i = 0; i < s->nr_events; i++)
		if (!strcmp(s->events[i].name, name))
			return i;
	return -1;
}

/* 1 enabled, 0 the kernel has no such event, else an RR_EXIT_* code (said). */
static int enable_event(struct rr_rec_session *s, const char *system, const char *name)
{
	if (!tracefs_event_file_exists(s->inst, system, name, "enable"))
		return 0;
	/* The exact file, not tracefs_event_enable(): that takes a regex,
	 * and "..._reclaim_begin" would match more than one event. */
	if (tracefs_event_file_write(s->inst, system, name, "enable", "1") < 0)
		return -rr_fail(RR_EXIT_FAILURE, "cannot enable %s:%s in instance '%s': %s",
				system, name, s->name, strerror(errno));
	return 1;
}

static int enable_events(struct rr_rec_session *s, int quiet)
{
	for (int i = 0; i < s->nr_events; i++) {
		struct rr_rec_event *e = &s->events[i];
		int ret;

		if (!rr_event_desc_find(e->system, e->name))
			rr_warn("internal: %s:%s is recorded but not in the event table", e->system,
				e->name);
		ret = enable_event(s, e->system, e->name);
		if (ret < 0)
			return -ret;
		e->present = e->enabled = ret;
	}
	for (int i = 0; i < s->nr_events; i++) {
		struct rr_rec_event *e = &s->events[i];
		int alt = e->alt ? find_event(s, e->alt) : -1;

		if (e->present)
			continue;
		/* A stand-in event records the same thing under its old/new name. */
		if (alt >= 0 && s->events[alt].present)
			continue;
		/* Report a pair once: only its first member. */
		if (alt >= 0 && alt < i)
			continue;
		s->nr_missing++;
		if (!quiet)
			rr_warn("this kernel has no %s:%s event: %s", e->system, e->name, e->cost);
	}
	return 0;
}

/*
 * Scheduler events, on request: the model does not decode them (stats
 * counts them as ignored, by name), but they time each throttled task's
 * wake (sched_wakeup) and its return to a CPU (sched_switch), which is what
 * separates a wake model's error from run-queue delay (docs/model.md).
 */
int rr_rec_enable_sched(struct rr_rec_session *s, int quiet)
{
	static const char *const names[] = { "sched_wakeup", "sched_switch" };
	int enabled = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int ret = enable_event(s, "sched", names[i]);

		if (ret < 0)
			return -ret;
		if (!ret && !quiet)
			rr_warn("this kernel has no sched:%s event: wake-to-run delays "
				"cannot be measured", names[i]);
		enabled += ret;
	}
	s->sched_events = enabled;
	return 0;
}

json_t *rr_rec_missing_json(const struct rr_rec_session *s)
{
	json_t *a = json_array();

	for (int i = 0; i < s->nr_events; i++) {
		const struct rr_rec_event *e = &s->events[i];
		int alt = e->alt ? find_event(s, e->alt) : -1;

		if (e->present || (alt >= 0 && s->events[alt].present) || (alt >= 0 && alt < i))
			continue;
		json_array_append_new(a, json_pack("{s:s++,s:s}", "event", e->system, ":", e->name,
						   "cost", e->cost));
	}
	return a;
}

static int write_file(struct rr_rec_session *s, const char *file, const char *val)
{
	if (tracefs_instance_file_write(s->inst, file, val) < 0)
		return rr_fail(RR_EXIT_FAILURE, "cannot write '%s' to %s of tracing instance '%s': %s",
			       val, file, s->name, strerror(errno ? errno : EIO));
	return 0;
}

int rr_rec_session_open(struct rr_rec_session *s, const char *name, unsigned long buffer_kb,
			int quiet)
{
	char val[32];
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (tracefs_instance_exists(name))
		return rr_fail(RR_EXIT_USAGE, "tracing instance '%s' already exists; it is not ours "
			       "to reuse: pick another --instance NAME (or rmdir it if it is stale)",
			       name);
	s->inst = tracefs_instance_create(name);
	if (!s->inst)
		return rr_fail(RR_EXIT_FAILURE, "cannot create tracing instance '%s': %s", name,
			       strerror(errno ? errno : EIO));
	if (!tracefs_instance_is_new(s->inst)) {
		/* Raced with someone creating the same name: leave it alone. */
		tracefs_instance_free(s->inst);
		s->inst = NULL;
		return rr_fail(RR_EXIT_USAGE, "tracing instance '%s' appeared meanwhile; not ours",
			       name);
	}
	s->events = malloc(sizeof(event_list));
	if (!s->events) {
		rr_rec_session_close(s);
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	}
	memcpy(s->events, event_list, sizeof(event_list));
	s->nr_events = NR_EVENTS;

	ret = write_file(s, "tracing_on", "0");
	/*
	 * No overwrite: when the buffer fills, the newest events are dropped
	 * (and counted as "dropped events") instead of the oldest. The oldest
	 * include the rr-meta lines the replay needs; a clean prefix beats a
	 * headless tail.
	 */
	if (!ret)
		ret = write_file(s, "options/overwrite", "0");
	if (!ret) {
		snprintf(val, sizeof(val), "%lu", buffer_kb);
		ret = write_file(s, "buffer_size_kb", val);
	}
	/* "local": the clock the shared traces use; the model only needs one
	 * monotonic per-cpu-consistent clock, and local is the cheapest. */
	if (!ret)
		ret = write_file(s, "trace_clock", "local");
	if (!ret)
		ret = enable_events(s, quiet);
	if (ret)
		rr_rec_session_close(s);
	return ret;
}

void rr_rec_session_close(struct rr_rec_session *s)
{
	if (s->inst) {
		tracefs_instance_file_write(s->inst, "tracing_on", "0");
		/* trace-cmd extract -B removes the instance itself when done. */
		if (tracefs_instance_exists(s->name) && tracefs_instance_destroy(s->inst) < 0)
			rr_warn("cannot remove tracing instance '%s': %s; remove it with "
				"'rmdir %s'", s->name, strerror(errno),
				tracefs_instance_get_dir(s->inst) ?: s->name);
		tracefs_instance_free(s->inst);
		s->inst = NULL;
	}
	free(s->events);
	s->events = NULL;
}

int rr_rec_trace_on(struct rr_rec_session *s)
{
	return write_file(s, "tracing_on", "1");
}

int rr_rec_trace_off(struct rr_rec_session *s)
{
	return write_file(s, "tracing_on", "0");
}

static uint64_t stat_value(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, klen) && p[klen] == ':')
			return strtoull(p + klen + 1, NULL, 10);
	return 0;
}

int rr_rec_read_loss(struct rr_rec_session *s, struct rr_rec_loss *loss)
{
	memset(loss, 0, sizeof(*loss));
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		char file[64], *text;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(s->inst, file, NULL);
		if (!text)
			continue;	/* offline or absent cpu */
		loss->entries += stat_value(text, "entries");
		loss->overrun += stat_value(text, "overrun");
		loss->commit_overrun += stat_value(text, "commit overrun");
		loss->dropped += stat_value(text, "dropped events");
		loss->bytes += stat_value(text, "bytes");
		loss->cpus_read++;
		free(text);
	}
	return loss->cpus_read ? 0 : -1;
}
