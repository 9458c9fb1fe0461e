/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recorder library behind `reclaim-replay record` and `live`: a private
 * tracing instance with the modelled events, a counter sampler that writes
 * rr-meta / rr-counters lines into the instance's trace_marker, extraction
 * to a trace.dat with trace-cmd, ground-truth snapshots, and the live
 * decoder. Nothing here calls exit() or touches the top-level buffer.
 */
#ifndef RR_RECORDER_H
#define RR_RECORDER_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <jansson.h>
#include <tracefs.h>

#include "reclaim_replay/event.h"

/* Set by the SIGINT/SIGTERM/SIGHUP handler; every wait loop polls it. */
extern volatile sig_atomic_t rr_rec_stop;
extern volatile sig_atomic_t rr_rec_signal;

/* Install the stop handlers (no SA_RESTART, so blocking calls return EINTR). */
void rr_rec_signals_install(void);

/*
 * rr_rec_check_tracing - can we trace at all?
 * Returns 0, or RR_EXIT_NO_TRACING after one message saying what is missing
 * (root, tracefs) and how to fix it. @cmd names the command in the message.
 */
int rr_rec_check_tracing(const char *cmd);

/* One event the recorder enables, with what its absence costs. */
struct rr_rec_event {
	const char *system;
	const char *name;
	const char *alt;	/* another event that stands in for it, or NULL */
	const char *cost;	/* what the replay loses without it */
	int present;		/* in this kernel */
	int enabled;
};

struct rr_rec_session {
	struct tracefs_instance *inst;
	char name[64];
	struct rr_rec_event *events;	/* copy of the table with present/enabled */
	int nr_events;
	int nr_missing;			/* missing with no alternative */
	int nr_cpus;
	int sched_events;		/* sched:* events enabled by rr_rec_enable_sched */
};

/*
 * rr_rec_session_open - create instance @name (must not exist yet), enable
 * the modelled events, set buffer_size_kb and the local clock, tracing off.
 * @quiet: do not print the list of missing events.
 * Returns 0 or an RR_EXIT_* code after an error message; on error nothing
 * is left behind.
 */
int rr_rec_session_open(struct rr_rec_session *s, const char *name, unsigned long buffer_kb,
			int quiet);
/* Tracing off, instance removed and freed. Safe to call twice. */
void rr_rec_session_close(struct rr_rec_session *s);
/* Also record sched:sched_wakeup and sched:sched_switch (those present). */
int rr_rec_enable_sched(struct rr_rec_session *s, int quiet);
int rr_rec_trace_on(struct rr_rec_session *s);
int rr_rec_trace_off(struct rr_rec_session *s);
/* The missing events as a JSON array of {event, cost}. */
json_t *rr_rec_missing_json(const struct rr_rec_session *s);

/* Ring-buffer statistics summed over cpus (per_cpu/cpuN/stats). */
struct rr_rec_loss {
	uint64_t entries, overrun, commit_overrun, dropped;
	uint64_t bytes;		/* unread bytes in the buffer: the trace volume */
	int cpus_read;
};
int rr_rec_read_loss(struct rr_rec_session *s, struct rr_rec_loss *loss);
static inline uint64_t rr_rec_lost(const struct rr_rec_loss *l)
{
	return l->overrun + l->commit_overrun + l->dropped;
}

/* System facts for rr-meta lines. */
struct rr_sysinfo {
	int hz;
	const char *hz_source;		/* "config", "measured", "default" */
	int page_size;
	int nr_nodes;			/* highest online nid + 1 */
	int node_online[RR_MAX_NODES];
	struct rr_node_range ranges[RR_MAX_NODES];	/* indexed by nid */
	int have_range[RR_MAX_NODES];
	char kernel[64];
};
int rr_sysinfo_read(struct rr_sysinfo *si);

/* The counter sampler thread. */
struct rr_sampler;
/*
 * rr_sampler_start - write the rr-meta lines, then one rr-counters line per
 * node every @period_us into @s's trace_marker from a locked thread.
 */
int rr_sampler_start(struct rr_rec_session *s, const struct rr_sysinfo *si,
		     unsigned period_us, struct rr_sampler **out);
struct rr_sampler_stats {
	uint64_t samples;	/* lines written */
	uint64_t write_errors;	/* marker writes that failed (buffer full...) */
	uint64_t late;		/* periods missed because a sample ran long */
	uint64_t cpu_ns;	/* the thread's own CPU time */
	uint64_t wall_ns;
	uint64_t bytes;		/* marker bytes written */
};
void rr_sampler_stop(struct rr_sampler *sp, struct rr_sampler_stats *st);

/* Spawn argv (PATH lookup) with default signal dispositions; 0 or -errno. */
int rr_rec_spawn(char *const argv[], pid_t *pid);
/*
 * Wait for @pid; on rr_rec_stop forward the signal to it once.
 * Returns the wait status, or -1 on error.
 */
int rr_rec_wait(pid_t pid);
/* Sleep up to @ns, returning early on rr_rec_stop. */
void rr_rec_sleep_ns(uint64_t ns);
uint64_t rr_rec_now_ns(void);

/* trace-cmd extract -B INSTANCE -o @path; 0 or an RR_EXIT_* after a message. */
int rr_rec_extract(struct rr_rec_session *s, const char *path);

/* Ground truth: /proc/vmstat and PSI totals around the window. */
struct rr_gt_snapshot;
struct rr_gt_snapshot *rr_gt_snapshot_take(void);
void rr_gt_snapshot_free(struct rr_gt_snapshot *snap);
/* Write the "ground_truth"-shaped document to @path; 0 or RR_EXIT_FAILURE. */
int rr_gt_write(const char *path, const struct rr_gt_snapshot *before,
		const struct rr_gt_snapshot *after);

/* Live view. */
struct rr_live_opts {
	uint64_t interval_ns;
	int json;
	int redraw;		/* terminal: clear and redraw in place */
	unsigned long buffer_kb;
	const char *instance;
	FILE *out;
};
int rr_live_run(const struct rr_live_opts *o);

#endif
