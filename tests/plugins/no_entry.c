// SPDX-License-Identifier: GPL-2.0
/* Test-only plugin: a shared object without rr_policy_plugin_entry(). */
#include <reclaim_replay/policy.h>

const struct rr_policy_ops *rr_policy_entry_misspelt(void);

const struct rr_policy_ops *rr_policy_entry_misspelt(void)
{
	return 0;
}
