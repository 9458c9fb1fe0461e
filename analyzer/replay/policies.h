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

#endif
