// SPDX-License-Identifier: GPL-2.0
/* reclaim-replay stats TRACE...: what reclaim did on each node. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "reclaim_replay/error.h"

static void stats_usage(FILE *f)
{
	fprintf(f, "usage: reclaim-replay stats [options] TRACE...\n\n"
		"Per NUMA node: reclaim episodes by kind, kswapd active time, pages scanned\n"
		"and reclaimed, wasted scanning, throttles per reason, isolation peaks; the\n"
		"ten tasks with most stall; lost and ignored events.\n\n" RR_HELP_COMMON);
}

static int render(struct rr_cli *cli, struct rr_inputs *ins)
{
	json_t *doc = NULL, *results = NULL;
	int ret = RR_EXIT_OK;

	if (cli->json) {
		doc = rr_json_report_new("stats", ins->in, ins->nr, &ins->warnings);
		results = json_array();
	}
	for (int i = 0; i < ins->nr; i++) {
		struct rr_stats s;

		if (rr_stats_compute(ins->in[i].model, &s)) {
			ret = rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", ins->in[i].trace->path);
			break;
		}
		if (cli->json) {
			json_t *r = rr_stats_json(&s, &ins->in[i]);

			json_object_set_new(r, "input", json_integer(i));
			json_array_append_new(results, r);
		} else {
			rr_stats_print_table(cli->out, &s, &ins->in[i], cli->color);
		}
		rr_stats_release(&s);
	}
	if (cli->json) {
		json_object_set_new(doc, "results", results);
		if (ret == RR_EXIT_OK)
			rr_json_print(doc, cli->out, cli->pretty);
		json_decref(doc);
	} else {
		rr_warnings_print(cli->out, &ins->warnings);
	}
	return ret;
}

int cmd_stats(int argc, char **argv, struct rr_cli *cli)
{
	static const struct option longopts[] = { RR_CLI_COMMON_LONG, { 0 } };
	struct rr_inputs ins;
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, RR_CLI_COMMON_SHORT, longopts, NULL)) != -1) {
		if (opt == 'h') {
			stats_usage(stdout);
			return RR_EXIT_OK;
		}
		if (!rr_cli_common_option(cli, opt, optarg)) {
			stats_usage(stderr);
			return RR_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		rr_error("stats: no TRACE given");
		stats_usage(stderr);
		return RR_EXIT_USAGE;
	}
	ret = rr_cli_open_output(cli);
	if (ret)
		return ret;
	ret = rr_inputs_load(&ins, argv + optind, argc - optind);
	if (!ret) {
		if (!cli->quiet && cli->json)
			for (size_t i = 0; i < ins.warnings.nr; i++)
				fprintf(stderr, "reclaim-replay: warning: %s\n", ins.warnings.msg[i]);
		ret = render(cli, &ins);
		if (!ret && cli->strict && rr_inputs_lossy(&ins))
			ret = rr_fail(RR_EXIT_DATA_LOSS, "the recording lost events (--strict)");
	}
	rr_inputs_release(&ins);
	return ret;
}
