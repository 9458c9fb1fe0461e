/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `replay` and `compare` share: the --policy/--set arguments and
 * replaying one loaded input under a list of policies, so both commands
 * accept the same options and run the engine the same way.
 */
#ifndef RR_CLI_REPLAY_INPUTS_H
#define RR_CLI_REPLAY_INPUTS_H

#include <stdint.h>

#include "cli.h"
#include "reclaim_replay/replay.h"

#define RR_MAX_POLICIES 32
#define RR_MAX_SETTINGS 32

struct rr_policy_arg {
	const char *name;
	const char *settings[RR_MAX_SETTINGS];	/* "KEY=VALUE", point into argv */
	uint32_t nr_settings;
};

struct rr_policy_args {
	struct rr_policy_arg arg[RR_MAX_POLICIES];
	int nr;
};

#define RR_POLICY_SHORT "P:s:"
#define RR_POLICY_LONG \
	{ "policy", required_argument, NULL, 'P' }, \
	{ "set", required_argument, NULL, 's' }

#define RR_HELP_POLICY \
	"  -P, --policy NAME   a policy to replay (repeatable): a built-in, or a plugin\n" \
	"                      PATH.so[:KEY=VAL,...] (docs/plugins.md)\n" \
	"  -s, --set KEY=VAL   a setting of the last --policy (a plugin's: NAME.KEY=VAL)\n"

/*
 * rr_policy_args_option - take -P/--policy and -s/--set
 * Returns 0 when @opt was one of them, -1 when it was not, or an RR_EXIT_*
 * code after printing why (--set before any --policy, no '=', too many).
 */
int rr_policy_args_option(struct rr_policy_args *pa, const char *cmd, int opt, const char *arg);
/* At least @min policies, each built-in or a plugin that loads (replay/plugin.h);
 * 0 or an RR_EXIT_* code after printing why. */
int rr_policy_args_check(const struct rr_policy_args *pa, const char *cmd, int min);

/*
 * rr_replay_policies - replay one input under every policy of @pa
 * @with_recorded: run `recorded` first, in @res[0], as `replay` does
 * @res:           RR_MAX_POLICIES + 1 slots; @res[0 .. with_recorded + pa->nr)
 *                 are filled, release each with rr_replay_result_release()
 * Returns 0 or an RR_EXIT_* code after printing why (nothing is left to free).
 */
int rr_replay_policies(const struct rr_input *in, const struct rr_policy_args *pa,
		       int with_recorded, struct rr_replay_result *res);

/* Told about each replay as it runs: for --plot and --export-timeline. */
struct rr_replay_hook {
	/* before policy @k (its slot in res[]) replays @in; 0 or -errno */
	int (*begin)(void *data, const struct rr_input *in, int k,
		     const struct rr_policy_instance *pol, const struct rr_curves *curves);
	struct rr_replay_observer obs;	/* obs.data is also begin's @data */
};

/* rr_replay_policies() with @hook (NULL: the same) told about every slice. */
int rr_replay_policies_hooked(const struct rr_input *in, const struct rr_policy_args *pa,
			      int with_recorded, const struct rr_replay_hook *hook,
			      struct rr_replay_result *res);

#endif
