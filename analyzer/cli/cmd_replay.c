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
#include "replay_inputs.h"

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
		RR_HELP_POLICY RR_HELP_COMMON);
}

static int parse_args(int argc, char **argv, struct rr_cli *cli, struct rr_policy_args *pa)
{
	static const struct option longopts[] = {
		RR_CLI_COMMON_LONG,
		RR_POLICY_LONG,
		{ 0 },
	};
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, RR_CLI_COMMON_SHORT RR_POLICY_SHORT, longopts,
				  NULL)) != -1) {
		if (opt == 'h') {
			replay_usage(stdout);
			return -1;
		}
		ret = rr_policy_args_option(pa, "replay", opt, optarg);
		if (ret > 0)
			return ret;
		if (!ret)
			continue;
		if (!rr_cli_common_option(cli, opt, optarg)) {
			replay_usage(stderr);
			return RR_EXIT_USAGE;
		}
	}
	ret = rr_policy_args_check(pa, "replay", 1);
	if (ret)
		return ret;
	if (optind >= argc)
		return rr_fail(RR_EXIT_USAGE, "replay: no TRACE given");
	return 0;
}

int cmd_replay(int argc, char **argv, struct rr_cli *cli)
{
	struct rr_policy_args pa;
	struct rr_replay_result res[RR_MAX_POLICIES + 1];
	struct rr_inputs ins;
	json_t *doc = NULL, *results = NULL;
	int nr, ret;

	memset(&pa, 0, sizeof(pa));
	ret = parse_args(argc, argv, cli, &pa);
	if (ret)
		return ret < 0 ? RR_EXIT_OK : ret;
	nr = pa.nr;
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
		ret = rr_replay_policies(&ins.in[i], &pa, 1, res);
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
