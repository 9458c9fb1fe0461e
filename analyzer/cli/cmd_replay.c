// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim-replay replay TRACE... --policy P [--set k=v] [--policy Q ...]:
 * per node and policy, stall time and wasted scanning, against `recorded`.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/replay.h"
#include "replay_inputs.h"
#include "report_files.h"

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
		RR_HELP_POLICY RR_HELP_REPORT_FILES RR_HELP_COMMON);
}

static int parse_args(int argc, char **argv, struct rr_cli *cli, struct rr_policy_args *pa,
		      struct rr_report_files *rf)
{
	static const struct option longopts[] = {
		RR_CLI_COMMON_LONG,
		RR_POLICY_LONG,
		RR_REPORT_FILES_LONG,
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
		if (!ret || rr_report_files_option(rf, opt, optarg))
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
	struct rr_report_files rf = { 0 };
	struct rr_replay_result res[RR_MAX_POLICIES + 1];
	struct rr_inputs ins;
	json_t *doc = NULL, *results = NULL;
	int nr, ret;

	memset(&pa, 0, sizeof(pa));
	ret = parse_args(argc, argv, cli, &pa, &rf);
	if (ret)
		return ret < 0 ? RR_EXIT_OK : ret;
	nr = pa.nr;
	ret = rr_cli_open_output(cli);
	if (ret)
		return ret;
	ret = rr_inputs_load(&ins, argv + optind, argc - optind);
	if (!ret)
		ret = rr_report_files_open(&rf, &ins, nr + 1, "replay");
	if (ret)
		goto out;
	if (cli->json) {
		doc = rr_json_report_new("replay", ins.in, ins.nr, &ins.warnings);
		results = json_array();
	}
	for (int i = 0; i < ins.nr && !ret; i++) {
		ret = rr_replay_policies_hooked(&ins.in[i], &pa, 1, rr_report_files_hook(&rf), res);
		if (ret)
			break;
		ret = rr_report_files_input(&rf, res, nr + 1, &ins.in[i]);
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
	ret = rr_report_files_close(&rf, ret);
	rr_inputs_release(&ins);
	return ret;
}
