// SPDX-License-Identifier: GPL-2.0
/* --policy/--set parsing and per-input replays shared by `replay` and `compare`. */
#include <string.h>

#include "replay_inputs.h"
#include "reclaim_replay/error.h"
#include "replay/plugin.h"

int rr_policy_args_option(struct rr_policy_args *pa, const char *cmd, int opt, const char *arg)
{
	struct rr_policy_arg *p;

	if (opt == 'P') {
		if (pa->nr == RR_MAX_POLICIES)
			return rr_fail(RR_EXIT_USAGE, "%s: at most %d policies", cmd,
				       RR_MAX_POLICIES);
		p = &pa->arg[pa->nr++];
		memset(p, 0, sizeof(*p));
		p->name = arg;
		return 0;
	}
	if (opt != 's')
		return -1;
	/* --set belongs to the policy named before it, as in replay's help. */
	p = pa->nr ? &pa->arg[pa->nr - 1] : NULL;
	if (!p)
		return rr_fail(RR_EXIT_USAGE, "%s: --set %s comes before any --policy", cmd, arg);
	if (!strchr(arg, '=') || p->nr_settings == RR_MAX_SETTINGS)
		return rr_fail(RR_EXIT_USAGE, "%s: --set wants KEY=VALUE, got '%s'", cmd, arg);
	p->settings[p->nr_settings++] = arg;
	return 0;
}

/* A plugin loads, passes the loader's checks and its settings are well formed;
 * its init runs later, with each recording's environment. */
static int check_plugin(const struct rr_policy_arg *a)
{
	const struct rr_policy_ops *ops;
	char **set;
	uint32_t nr;
	int ret = rr_plugin_load(a->name, &ops);

	if (ret)
		return ret;
	ret = rr_plugin_settings(ops, a->name, a->settings, a->nr_settings, &set, &nr);
	if (!ret)
		rr_plugin_settings_free(set, nr);
	rr_plugin_put(ops);
	return ret;
}

int rr_policy_args_check(const struct rr_policy_args *pa, const char *cmd, int min)
{
	if (pa->nr < min && min == 1)
		return rr_fail(RR_EXIT_USAGE, "%s: give at least one --policy", cmd);
	if (pa->nr < min)
		return rr_fail(RR_EXIT_USAGE, "%s: give at least %d --policy options (the first is "
			       "the baseline)", cmd, min);
	/* Before loading any trace: a typo should not cost a long decode. */
	for (int p = 0; p < pa->nr; p++) {
		const struct rr_policy_arg *a = &pa->arg[p];
		int ret;

		if (rr_plugin_is_spec(a->name)) {
			ret = check_plugin(a);
			if (ret)
				return ret;
		} else if (!rr_policy_find(a->name)) {
			return rr_fail(RR_EXIT_USAGE,
				       "unknown policy '%s' (see 'reclaim-replay policies')",
				       a->name);
		}
	}
	return 0;
}

int rr_replay_policies(const struct rr_input *in, const struct rr_policy_args *pa,
		       int with_recorded, struct rr_replay_result *res)
{
	return rr_replay_policies_hooked(in, pa, with_recorded, NULL, res);
}

int rr_replay_policies_hooked(const struct rr_input *in, const struct rr_policy_args *pa,
			      int with_recorded, const struct rr_replay_hook *hook,
			      struct rr_replay_result *res)
{
	int nr = pa->nr + !!with_recorded, ret = 0;
	struct rr_curves *curves;

	/* The curves do not depend on the policy: build them once per input. */
	if (rr_curves_build(in->model, &curves))
		return rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", in->trace->path);
	for (int p = 0; p < nr && !ret; p++) {
		const struct rr_policy_arg *a = with_recorded ? (p ? &pa->arg[p - 1] : NULL) :
					       &pa->arg[p];
		struct rr_policy_instance inst;

		ret = rr_policy_open(a ? a->name : "recorded", a ? a->settings : NULL,
				     a ? a->nr_settings : 0, in->model, &inst);
		if (ret) {
			for (int q = 0; q < p; q++)
				rr_replay_result_release(&res[q]);
			break;
		}
		if (hook && hook->begin && hook->begin(hook->obs.data, in, p, &inst, curves))
			ret = rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", in->trace->path);
		else if (rr_replay_observed(in->model, curves, &inst, hook ? &hook->obs : NULL,
					    &res[p]))
			ret = rr_fail(RR_EXIT_FAILURE, "'%s': policy %s failed", in->trace->path,
				      inst.label);
		rr_policy_close(&inst);
		if (ret)
			for (int q = 0; q < p; q++)
				rr_replay_result_release(&res[q]);
	}
	rr_curves_free(curves);
	return ret;
}
