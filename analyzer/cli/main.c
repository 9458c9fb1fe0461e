// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim-replay: subcommand dispatch (git's cmd_struct, bpftool's cmd
 * table), global options, and the exit code.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "reclaim_replay/error.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv, struct rr_cli *cli);
	const char *summary;
};

static const struct cmd commands[] = {
	{ "stats", cmd_stats, "what reclaim did on each NUMA node of a recording" },
	{ "replay", cmd_replay, "stall and wasted scanning per node under throttle policies" },
	{ "validate", cmd_validate, "how well the replay model reproduces a recording" },
	{ "policies", cmd_policies, "list the built-in throttle policies" },
	{ "record", cmd_record, "record a replay-grade trace.dat through a tracing instance" },
	{ "live", cmd_live, "rolling per-node reclaim figures from a live tracing instance" },
};

static char last_error[1024];

static void error_routine(const char *msg)
{
	snprintf(last_error, sizeof(last_error), "%s", msg);
	fprintf(stderr, "reclaim-replay: %s\n", msg);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: reclaim-replay [--version] [--help] <command> [options] TRACE...\n\n"
		"commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nTRACE is a trace.dat (v6 or v7, compressed or not) or the text of\n"
		"`trace-cmd report` / tracefs `trace`. 'reclaim-replay <command> --help' shows the\n"
		"options of a command; man reclaim-replay(1) lists the exit codes:\n"
		"0 ok, 1 runtime failure, 2 usage, 3 lost events under --strict, 4 bad input.\n");
}

int main(int argc, char **argv)
{
	struct rr_cli cli = { 0 };
	const char *name;
	int code;

	rr_set_error_routine(error_routine);
	cli.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
	if (argc < 2) {
		usage(stderr);
		return RR_EXIT_USAGE;
	}
	name = argv[1];
	if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
		printf("reclaim-replay %s\n", RR_VERSION);
		return RR_EXIT_OK;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		usage(stdout);
		return RR_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(commands[i].name, name))
			continue;
		code = commands[i].fn(argc - 1, argv + 1, &cli);
		if (code != RR_EXIT_OK && code != RR_EXIT_DATA_LOSS && cli.json && last_error[0])
			rr_cli_json_error(&cli, last_error);
		return rr_cli_finish_output(&cli, code);
	}
	fprintf(stderr, "reclaim-replay: unknown command '%s'\n\n", name);
	usage(stderr);
	return RR_EXIT_USAGE;
}
