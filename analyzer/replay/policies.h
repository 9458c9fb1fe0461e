/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `reclaim-replay policies` shows of a policy beyond its summary: a
 * help paragraph and its --set options, from the ops when the policy fills
 * the appended fields (plugins do), else from the built-ins' table.
 */
#ifndef RR_REPLAY_POLICIES_H
#define RR_REPLAY_POLICIES_H

#include "reclaim_replay/policy.h"

/* The help paragraph, "" when there is none. */
const char *rr_policy_help(const struct rr_policy_ops *ops);
/* The options, ending with a NULL key; never NULL. */
const struct rr_policy_option *rr_policy_options(const struct rr_policy_ops *ops);

/*
 * What a policy's decide() reads of a decision point's changing figures, as
 * RR_IN_* bits plus RR_READS_TASK_FIGURES, so that a replay looks up only
 * those (the curve lookups were most of an ask). For a built-in, from the
 * table in policies.c, written from its rules; its verdict is then also a
 * function of the point alone (no state), so the engine may reuse it while
 * those figures stay the same. RR_READS_ALL for a plugin: every field is
 * filled and every verdict asked for, as documented in docs/plugins.md.
 */
#define RR_READS_TASK_FIGURES	0x10000	/* task_* and trace_* */
#define RR_READS_BUILTIN	0x20000	/* a built-in: the verdict may be reused */
#define RR_READS_ALL		(0xffffffffu & ~RR_READS_BUILTIN)
uint32_t rr_policy_reads(const struct rr_policy_ops *ops);

#endif
