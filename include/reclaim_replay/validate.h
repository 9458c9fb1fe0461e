/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checks of `reclaim-replay validate` (design note section 6): identity
 * of the `recorded` replay, fidelity of `mainline` on recorded throttles,
 * properties every policy must keep, and ground truth from a manifest.
 */
#ifndef RECLAIM_REPLAY_VALIDATE_H
#define RECLAIM_REPLAY_VALIDATE_H

#include <stdint.h>

#include "reclaim_replay/replay.h"

struct rr_fidelity {
	int nid;
	int reason;
	uint64_t throttles;
	uint64_t within;		/* predicted within max(1 jiffy, 10%) */
	uint64_t early, late;		/* the others: predicted shorter / longer than recorded */
	uint64_t recorded_us, predicted_us;
};

/*
 * Total-time error of one (node, reason): (predicted - recorded) / recorded,
 * signed; 1 when nothing was recorded and something was predicted.
 */
double rr_fidelity_error(const struct rr_fidelity *f);

#define RR_NR_PROPERTIES 3
struct rr_property {
	const char *name;
	int ok;
	int exercised;		/* the trace had points this property tests */
	char detail[160];
};

struct rr_ground_truth {
	int present;
	double scanned_truth, reclaimed_truth, psi_some_us;
	double scanned_trace, reclaimed_trace, stall_union_us;
};

/*
 * How long woken tasks waited for a cpu, measured from the recording alone.
 * With sched_wakeup events (from_wakeups): from each throttled task's
 * wakeup to its resume, the wait the model then adds to its wakes. Without
 * them, an estimate: a throttle that timed out right after the same task's
 * previous throttle resumed (the task only re-checked its condition in
 * between) should resume one timeout after that resume; what it resumed
 * later is cpu wait, the wait before the sleep began included, less up to
 * a jiffy of timer phase (docs/model.md, "What limits the accuracy").
 */
struct rr_cpu_wait {
	int from_wakeups;
	uint64_t samples;	/* throttles measured */
	uint64_t over_jiffy;	/* of them, waits over one jiffy */
	uint64_t p50_us, p90_us;	/* the wait (at least 0) */
};

/*
 * `mainline` replayed freely (tasks on their own clocks, as `replay` does)
 * against the recording, per node: on a recording of a 5.16 or later
 * kernel it replays the kernel that was recorded, so what it differs by is
 * the bias the model adds to every what-if. No target.
 */
struct rr_free_replay {
	int nid;
	uint64_t stall_ns[2];		/* [0] recorded, [1] replayed */
	uint64_t sleep_ns[2];		/* throttle sleep, kswapd's included */
	uint64_t throttles[2];
	uint64_t wasted[2];		/* pages scanned and not reclaimed */
};

/* struct rr_validation.limits: why a fidelity target was missed */
#define RR_LIMIT_CPU_WAIT	0x1	/* cpu wait beyond the tolerance in >= 10 % */
#define RR_LIMIT_NO_SAMPLES	0x2	/* WRITEBACK missed, written pages reconstructed */

/* The targets of the design note, section 6, per node and reason. */
#define RR_FIDELITY_WITHIN_TARGET_PCT	90.0
#define RR_FIDELITY_ERROR_TARGET_PCT	10.0

struct rr_validation {
	uint64_t identity_error;	/* differing figures between recorded and stats */
	char identity_detail[160];
	struct rr_fidelity *fid;
	int nr_fid;
	uint64_t within, throttles;	/* summed over nodes and reasons */
	double worst_total_error;	/* largest |predicted - recorded| / recorded */
	uint32_t targets_missed;	/* (node, reason) pairs short of a target */
	struct rr_cpu_wait cpu_wait;
	unsigned limits;		/* RR_LIMIT_*, only when targets_missed */
	struct rr_property props[RR_NR_PROPERTIES];
	/*
	 * Filled when the recording is one `mainline` stands for: it has
	 * mm_vmscan_throttled events and no legacy congestion waits.
	 */
	int free_applicable;
	struct rr_free_replay *free;
	int nr_free;
	struct rr_ground_truth truth;
	int sampled;
	uint32_t hz;
	int hz_inferred;
};

/* Run every check on one input; @manifest may be NULL. 0 or -errno. */
int rr_validate(const struct rr_model *m, const char *manifest, struct rr_validation *v);
/*
 * Fill v->targets_missed, v->cpu_wait and v->limits from the fidelity
 * figures and the recording (after the fidelity check). 0 or -ENOMEM.
 */
int rr_fidelity_limits(const struct rr_model *m, struct rr_validation *v);

void rr_validation_release(struct rr_validation *v);
int rr_validation_passed(const struct rr_validation *v);

#endif
