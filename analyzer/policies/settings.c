// SPDX-License-Identifier: GPL-2.0
/* --set key=value for policies: durations with units, ratios, counts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/replay.h"

/* Longest duration accepted: 10^18 ns (about 31 years), well inside uint64_t. */
#define MAX_DURATION_NS 1e18

int rr_parse_duration(const char *s, uint32_t hz, uint64_t *ns)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	double unit = 0, v, x;
	char *end;

	if (!s || !*s)
		return -1;
	v = strtod(s, &end);
	/* written so that NaN fails too */
	if (end == s || !(v >= 0 && v <= MAX_DURATION_NS))
		return -1;
	if (!strcmp(end, "j"))
		unit = 1e9 / (hz ? hz : 250);
	for (size_t i = 0; !unit && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit))
			unit = units[i].ns;
	if (!unit)
		return -1;
	x = v * unit + 0.5;
	if (!(x <= MAX_DURATION_NS))
		return -1;
	*ns = (uint64_t)x;
	return 0;
}

static int parse_value(const struct rr_param *p, const char *val, uint32_t hz)
{
	char *end;
	double d;

	switch (p->type) {
	case RR_PARAM_DURATION:
		return rr_parse_duration(val, hz, p->value);
	case RR_PARAM_RATIO:
		d = strtod(val, &end);
		if (end == val || *end || !(d >= 0 && d <= 1))
			return -1;
		*p->value = (uint64_t)(d * 1e6 + 0.5);
		return 0;
	case RR_PARAM_COUNT:
		d = strtod(val, &end);
		if (end == val || *end || !(d >= 0 && d <= 1e9) || d != (double)(uint64_t)d)
			return -1;
		*p->value = (uint64_t)d;
		return 0;
	}
	return -1;
}

int rr_policy_parse_settings(const struct rr_policy_env *env, const char *policy,
			     const struct rr_param *params, int nr_params)
{
	for (uint32_t i = 0; i < env->nr_settings; i++) {
		const char *s = env->settings[i], *eq = strchr(s, '=');
		size_t klen = eq ? (size_t)(eq - s) : strlen(s);
		int found = 0;

		for (int k = 0; k < nr_params; k++) {
			if (strlen(params[k].key) != klen || strncmp(params[k].key, s, klen))
				continue;
			found = 1;
			if (!eq || parse_value(&params[k], eq + 1, env->hz))
				return rr_error("policy %s: bad value in '%s' (%s)", policy, s,
						params[k].type == RR_PARAM_DURATION ?
						"a duration such as 50ms, 2j, 1.5s" :
						params[k].type == RR_PARAM_RATIO ?
						"a ratio from 0 to 1" : "a whole number");
		}
		if (!found)
			return rr_error("policy %s: unknown setting '%.*s'%s", policy, (int)klen, s,
					nr_params ? "" : " (this policy takes none)");
	}
	return 0;
}
