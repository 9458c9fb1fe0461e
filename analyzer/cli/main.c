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
	{ "compare", cmd_compare, "policies side by side per node, with differences to the first" },
	{ "sweep", cmd_sweep, "tune parametric settings over a grid: Pareto front, recommendation" },
	{ "merge", cmd_merge, "aggregate per-trace replay or sweep --json reports (fleets)" },
	{ "validate", cmd_validate, "how well the replay model reproduces a recording" },
	{ "policies", cmd_policies, "list the throttle policies: built-ins and plugins (-P x.so)" },
	{ "record", cmd_record, "record a replay-grade trace.dat through a tracing instance" },
	{ "live", cmd_live, "rolling per-node reclaim figures from a live tracing instance" },
};

#ifdef __SANITIZE_ADDRESS__
/*
 * ASan build only: a corrupt trace.dat header can make libtracecmd ask
 * malloc() for an absurd size. The real allocator returns NULL and the
 * library fails cleanly (exit 4); ASan's default is to abort instead, so
 * make it behave like the real one. ASAN_OPTIONS still overrides this.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#endif

static char last_error[1024];
/* argv[0] of a subcommand, so getopt's own messages read "reclaim-replay: stats: ..." */
static char cmd_argv0[64];

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
		"options of a command.\n\n"
		"exit codes (man reclaim-replay(1), docs/exit-codes.md):\n"
		"  0  ok\n"
		"  1  runtime failure (I/O error, out of memory)\n"
		"  2  bad command line\n"
		"  3  --strict and the recording lost events\n"
		"  4  bad input: missing, unreadable, not a trace, corrupt or truncated,\n"
		"     or over --max-memory\n"
		"  5  validate: identity or a property check failed\n"
		"  6  record/live: not root, or no tracefs\n");
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
		snprintf(cmd_argv0, sizeof(cmd_argv0), "reclaim-replay: %s", name);
		argv[1] = cmd_argv0;
		code = commands[i].fn(argc - 1, argv + 1, &cli);
		if (code != RR_EXIT_OK && code != RR_EXIT_DATA_LOSS && cli.json && last_error[0])
			rr_cli_json_error(&cli, last_error);
		return rr_cli_finish_output(&cli, code);
	}
	fprintf(stderr, "reclaim-replay: unknown command '%s'\n\n", name);
	usage(stderr);
	return RR_EXIT_USAGE;
}
