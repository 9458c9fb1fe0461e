// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim-replay compare TRACE... --policy A --policy B [...]: per node, the
 * policies' stall, p99 episode, sleep, wasted scanning and efficiency side by
 * side, with each one's difference to A; one block per trace, then totals.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "replay_inputs.h"
#include "report_files.h"
#include "reclaim_replay/error.h"
#include "report/compare.h"

static void compare_usage(FILE *f)
{
	fprintf(f, "usage: reclaim-replay compare [options] --policy A --policy B [--set K=V]... "
		"TRACE...\n\n"
		"Replays each recording under every policy and shows, per NUMA node, stall\n"
		"time, p99 episode, throttle sleep, wasted scanning and efficiency side by\n"
		"side, with the absolute and relative difference of each policy to the first\n"
		"one. With several traces, one block per trace and then the totals over all.\n"
		"Name `recorded` first to compare against what the kernel did. --set applies\n"
		"to the policy named before it (see 'reclaim-replay replay --help').\n\n"
		RR_HELP_POLICY RR_HELP_REPORT_FILES
		"      --width N       keep tables within N columns (default %d)\n" RR_HELP_COMMON,
		RR_COMPARE_DEFAULT_WIDTH);
}

struct compare_opts {
	struct rr_policy_args pa;
	struct rr_compare_layout lay;
	struct rr_report_files rf;
};

static int parse_args(int argc, char **argv, struct rr_cli *cli, struct compare_opts *o)
{
	static const struct option longopts[] = {
		RR_CLI_COMMON_LONG,
		RR_POLICY_LONG,
		RR_REPORT_FILES_LONG,
		{ "width", required_argument, NULL, 'W' },
		{ 0 },
	};
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, RR_CLI_COMMON_SHORT RR_POLICY_SHORT, longopts,
				  NULL)) != -1) {
		if (opt == 'h') {
			compare_usage(stdout);
			return -1;
		}
		ret = rr_policy_args_option(&o->pa, "compare", opt, optarg);
		if (ret >= 0) {
			if (ret)
				return ret;
			continue;
		}
		if (rr_report_files_option(&o->rf, opt, optarg))
			continue;
		if (opt == 'W') {
			char *end;
			long w = strtol(optarg, &end, 10);

			if (*end || end == optarg || w < RR_COMPARE_MIN_WIDTH || w > 10000)
				return rr_fail(RR_EXIT_USAGE,
					       "compare: --width wants %d to 10000, got '%s'",
					       RR_COMPARE_MIN_WIDTH, optarg);
			o->lay.width = (int)w;
			continue;
		}
		if (!rr_cli_common_option(cli, opt, optarg)) {
			compare_usage(stderr);
			return RR_EXIT_USAGE;
		}
	}
	ret = rr_policy_args_check(&o->pa, "compare", 2);
	if (ret)
		return ret;
	if (optind >= argc)
		return rr_fail(RR_EXIT_USAGE, "compare: no TRACE given");
	return 0;
}

static int run(struct rr_cli *cli, struct compare_opts *o, struct rr_inputs *ins)
{
	struct rr_compare_policy pol[RR_MAX_POLICIES];
	struct rr_replay_result res[RR_MAX_POLICIES + 1];
	struct rr_compare_totals tot;
	json_t *doc = NULL, *results = NULL;
	int nr = o->pa.nr, ret = 0;

	for (int p = 0; p < nr; p++) {
		pol[p].name = o->pa.arg[p].name;
		pol[p].settings = o->pa.arg[p].settings;
		pol[p].nr_settings = o->pa.arg[p].nr_settings;
	}
	if (rr_compare_totals_init(&tot, nr))
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	if (cli->json) {
		doc = rr_json_report_new("compare", ins->in, ins->nr, &ins->warnings);
		results = json_array();
		json_object_set_new(doc, "results", results);
	}
	for (int i = 0; i < ins->nr && !ret; i++) {
		/* The first policy is the baseline: no implicit `recorded` here. */
		ret = rr_replay_policies_hooked(&ins->in[i], &o->pa, 0, rr_report_files_hook(&o->rf),
						res);
		if (ret)
			break;
		ret = rr_report_files_input(&o->rf, res, nr, &ins->in[i]);
		rr_compare_totals_add(&tot, res);
		if (cli->json)
			json_array_append_new(results,
					      rr_compare_trace_json(res, nr, pol, &ins->in[i], i));
		else
			rr_compare_print_trace(cli->out, res, nr, pol, &ins->in[i], &o->lay);
		for (int p = 0; p < nr; p++)
			rr_replay_result_release(&res[p]);
	}
	if (!ret && cli->json) {
		json_array_append_new(results, rr_compare_totals_json(&tot, pol));
		rr_json_print(doc, cli->out, cli->pretty);
	} else if (!ret) {
		/* One trace with one node: the totals would repeat its only table. */
		if (tot.nr_inputs > 1 || tot.nr_nodes > 1)
			rr_compare_print_totals(cli->out, &tot, pol, &o->lay);
		rr_compare_print_warnings(cli->out, &ins->warnings, &o->lay);
	}
	json_decref(doc);
	rr_compare_totals_release(&tot);
	return ret;
}

int cmd_compare(int argc, char **argv, struct rr_cli *cli)
{
	struct compare_opts *o = calloc(1, sizeof(*o));
	struct rr_inputs ins;
	int ret;

	if (!o)
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	o->lay.width = RR_COMPARE_DEFAULT_WIDTH;
	ret = parse_args(argc, argv, cli, o);
	if (ret) {
		free(o);
		return ret < 0 ? RR_EXIT_OK : ret;
	}
	ret = rr_cli_open_output(cli);
	if (ret) {
		free(o);
		return ret;
	}
	/* rr_cli_open_output() clears colour for -o FILE; take it after. */
	o->lay.color = cli->color;
	ret = rr_inputs_load(&ins, argv + optind, argc - optind);
	if (!ret) {
		/* As `stats`: under --json the warnings are also said on stderr. */
		for (size_t i = 0; !cli->quiet && cli->json && i < ins.warnings.nr; i++)
			fprintf(stderr, "reclaim-replay: warning: %s\n", ins.warnings.msg[i]);
		ret = rr_report_files_open(&o->rf, &ins, o->pa.nr, "compare");
		if (!ret)
			ret = run(cli, o, &ins);
		if (!ret && cli->strict && rr_inputs_lossy(&ins))
			ret = rr_fail(RR_EXIT_DATA_LOSS, "the recording lost events (--strict)");
	}
	ret = rr_report_files_close(&o->rf, ret);
	rr_inputs_release(&ins);
	free(o);
	return ret;
}
