// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim-replay replay TRACE... --policy P [--set k=v] [--policy Q ...]:
 * per node and policy, stall time and wasted scanning, against `recorded`.
 * reclaim-replay policies: the built-in table.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/replay.h"

#define MAX_POLICIES 32
#define MAX_SETTINGS 32

struct policy_arg {
	const char *name;
	const char *settings[MAX_SETTINGS];
	uint32_t nr_settings;
};

static void replay_usage(FILE *f)
{
	fprintf(f, "usage: reclaim-replay replay [options] --policy P [--set KEY=VALUE]... TRACE...\n\n"
		"Replays each recording under each policy (repeat --policy) and reports, per\n"
		"NUMA node, stall time and wasted scanning with their difference to the\n"
		"`recorded` policy, which always runs first. --set applies to the policy named\n"
		"before it (parametric: writeback.timeout=50ms, isolated.timeout=5j,\n"
		"noprogress.timeout=1j, congested.timeout=1j, writeback.pages_per_waiter=32,\n"
		"noprogress.wake_efficiency=0.125, isolated.wake=0|1; legacy-intended:\n"
		"congestion.nr_requests=128). Durations take ns, us, ms, s or j (jiffies at\n"
		"the trace's HZ). 'reclaim-replay policies' lists the policies.\n\n"
		"  -P, --policy NAME   a policy to replay (repeatable)\n"
		"  -s, --set KEY=VAL   a setting of the last --policy\n" RR_HELP_COMMON);
}

static int parse_args(int argc, char **argv, struct rr_cli *cli, struct policy_arg *pols,
		      int *nr_pols)
{
	static const struct option longopts[] = {
		RR_CLI_COMMON_LONG,
		{ "policy", required_argument, NULL, 'P' },
		{ "set", required_argument, NULL, 's' },
		{ 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, RR_CLI_COMMON_SHORT "P:s:", longopts, NULL)) != -1) {
		if (opt == 'h') {
			replay_usage(stdout);
			return -1;
		}
		if (opt == 'P') {
			if (*nr_pols == MAX_POLICIES)
				return rr_fail(RR_EXIT_USAGE, "replay: at most %d policies", MAX_POLICIES);
			memset(&pols[*nr_pols], 0, sizeof(pols[0]));
			pols[(*nr_pols)++].name = optarg;
			continue;
		}
		if (opt == 's') {
			struct policy_arg *p = *nr_pols ? &pols[*nr_pols - 1] : NULL;

			if (!p)
				return rr_fail(RR_EXIT_USAGE, "replay: --set %s comes before any --policy",
					       optarg);
			if (!strchr(optarg, '=') || p->nr_settings == MAX_SETTINGS)
				return rr_fail(RR_EXIT_USAGE, "replay: --set wants KEY=VALUE, got '%s'",
					       optarg);
			p->settings[p->nr_settings++] = optarg;
			continue;
		}
		if (!rr_cli_common_option(cli, opt, optarg)) {
			replay_usage(stderr);
			return RR_EXIT_USAGE;
		}
	}
	if (!*nr_pols)
		return rr_fail(RR_EXIT_USAGE, "replay: give at least one --policy");
	if (optind >= argc)
		return rr_fail(RR_EXIT_USAGE, "replay: no TRACE given");
	return 0;
}

/* Replay one input under `recorded` and every requested policy. */
static int replay_input(const struct rr_input *in, const struct policy_arg *pols, int nr,
			struct rr_replay_result *res)
{
	struct rr_curves *curves;
	int ret = 0;

	if (rr_curves_build(in->model, &curves))
		return rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", in->trace->path);
	for (int p = 0; p <= nr && !ret; p++) {
		struct rr_policy_instance inst;
		const char *name = p ? pols[p - 1].name : "recorded";

		ret = rr_policy_open(name, p ? pols[p - 1].settings : NULL,
				     p ? pols[p - 1].nr_settings : 0, in->model, &inst);
		if (ret)
			break;
		if (rr_replay(in->model, curves, &inst, &res[p]))
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

int cmd_replay(int argc, char **argv, struct rr_cli *cli)
{
	struct policy_arg pols[MAX_POLICIES];
	struct rr_replay_result res[MAX_POLICIES + 1];
	struct rr_inputs ins;
	json_t *doc = NULL, *results = NULL;
	int nr = 0, ret;

	ret = parse_args(argc, argv, cli, pols, &nr);
	if (ret)
		return ret < 0 ? RR_EXIT_OK : ret;
	for (int p = 0; p < nr; p++)
		if (!rr_policy_find(pols[p].name))
			return rr_fail(RR_EXIT_USAGE, "unknown policy '%s' (see 'reclaim-replay policies')",
				       pols[p].name);
	ret = rr_cli_open_output(cli);
	if (ret)
		return ret;
	ret = rr_inputs_load(&ins, argv + optind, argc - optind);
	if (ret)
		goto out;
	if (cli->json) {
		doc = rr_json_report_new("replay", ins.in, ins.nr, &ins.warnings);
		results = json_array();
	}
	for (int i = 0; i < ins.nr && !ret; i++) {
		ret = replay_input(&ins.in[i], pols, nr, res);
		if (ret)
			break;
		if (cli->json) {
			json_t *r = rr_replay_json(res, nr + 1, &ins.in[i]);

			json_object_set_new(r, "input", json_integer(i));
			json_array_append_new(results, r);
		} else {
			rr_replay_print_table(cli->out, res, nr + 1, &ins.in[i], cli->color);
		}
		for (int p = 0; p <= nr; p++)
			rr_replay_result_release(&res[p]);
	}
	if (cli->json) {
		json_object_set_new(doc, "results", results);
		if (!ret)
			rr_json_print(doc, cli->out, cli->pretty);
		json_decref(doc);
	} else if (!ret) {
		rr_warnings_print(cli->out, &ins.warnings);
	}
	if (!ret && cli->strict && rr_inputs_lossy(&ins))
		ret = rr_fail(RR_EXIT_DATA_LOSS, "the recording lost events (--strict)");
out:
	rr_inputs_release(&ins);
	return ret;
}

static void print_policy(const struct rr_policy_ops *ops, void *data)
{
	struct rr_cli *cli = data;

	if (cli->json)
		json_array_append_new((json_t *)cli->user, json_pack("{s:s,s:s}", "name", ops->name,
								     "summary", ops->summary));
	else
		fprintf(cli->out, "  %-16s %s\n", ops->name, ops->summary);
}

int cmd_policies(int argc, char **argv, struct rr_cli *cli)
{
	static const struct option longopts[] = { RR_CLI_COMMON_LONG, { 0 } };
	json_t *doc = NULL;
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, RR_CLI_COMMON_SHORT, longopts, NULL)) != -1) {
		if (opt == 'h') {
			printf("usage: reclaim-replay policies [--json]\n");
			return RR_EXIT_OK;
		}
		if (!rr_cli_common_option(cli, opt, optarg))
			return RR_EXIT_USAGE;
	}
	ret = rr_cli_open_output(cli);
	if (ret)
		return ret;
	if (cli->json) {
		doc = rr_json_report_new("policies", NULL, 0, NULL);
		cli->user = json_array();
		rr_policy_list(print_policy, cli);
		json_object_set_new(doc, "results", (json_t *)cli->user);
		rr_json_print(doc, cli->out, cli->pretty);
		json_decref(doc);
	} else {
		rr_policy_list(print_policy, cli);
	}
	return RR_EXIT_OK;
}
