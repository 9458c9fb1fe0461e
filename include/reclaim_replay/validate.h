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

struct rr_validation {
	uint64_t identity_error;	/* differing figures between recorded and stats */
	char identity_detail[160];
	struct rr_fidelity *fid;
	int nr_fid;
	uint64_t within, throttles;	/* summed over nodes and reasons */
	double worst_total_error;	/* largest |predicted - recorded| / recorded */
	struct rr_property props[RR_NR_PROPERTIES];
	struct rr_ground_truth truth;
	int sampled;
	uint32_t hz;
	int hz_inferred;
};

/* Run every check on one input; @manifest may be NULL. 0 or -errno. */
int rr_validate(const struct rr_model *m, const char *manifest, struct rr_validation *v);
void rr_validation_release(struct rr_validation *v);
int rr_validation_passed(const struct rr_validation *v);

#endif
