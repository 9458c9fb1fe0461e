/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line front end: the only place that knows argv, stdout and exit
 * codes. Each subcommand lives in its own cmd_<name>.c.
 */
#ifndef RR_CLI_H
#define RR_CLI_H

#include <stdio.h>

#include "reclaim_replay/report.h"

struct rr_cli {
	int json;
	int pretty;
	int color;		/* tables only; auto: stdout is a terminal */
	int strict;		/* lost events make the exit code RR_EXIT_DATA_LOSS */
	int quiet;
	const char *output;	/* -o FILE, else stdout */
	FILE *out;
	void *user;		/* a command's own state for callbacks */
};

/* Loaded inputs: traces and their models, decoded once. */
struct rr_inputs {
	struct rr_input *in;
	int nr;
	struct rr_warnings warnings;
};

int rr_inputs_load(struct rr_inputs *ins, char **paths, int nr);
void rr_inputs_release(struct rr_inputs *ins);
/* Any input lost events? */
int rr_inputs_lossy(const struct rr_inputs *ins);

/* Parse the options every command shares; returns 1 if @opt was one. */
int rr_cli_common_option(struct rr_cli *cli, int opt, const char *arg);
#define RR_CLI_COMMON_SHORT "jpo:qh"
#define RR_CLI_COMMON_LONG \
	{ "json", no_argument, NULL, 'j' }, \
	{ "pretty", no_argument, NULL, 'p' }, \
	{ "output", required_argument, NULL, 'o' }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ "no-color", no_argument, NULL, 1000 }, \
	{ "color", no_argument, NULL, 1001 }, \
	{ "strict", no_argument, NULL, 1002 }, \
	{ "max-memory", required_argument, NULL, 1003 }

#define RR_HELP_COMMON \
	"  -j, --json          one JSON document (schema v1) on stdout\n" \
	"  -p, --pretty        indented JSON (implies --json)\n" \
	"  -o, --output FILE   write the report to FILE (tables without colour)\n" \
	"  -q, --quiet         with --json, do not repeat the report's warnings on stderr\n" \
	"                      (they stay in the document; reader warnings, errors still show)\n" \
	"      --strict        exit 3 when the recording lost events\n" \
	"      --color         coloured table headings even when stdout is not a terminal\n" \
	"      --no-color      plain tables even on a terminal (also: NO_COLOR set)\n" \
	"      --max-memory SIZE  refuse inputs whose decoded events and model need more\n" \
	"                      than SIZE (512M, 2G; at least 1M); exit 4 (default: no limit)\n" \
	"  -h, --help          this help\n"

/* Open -o FILE; emit and close. Return an exit code. */
int rr_cli_open_output(struct rr_cli *cli);
int rr_cli_finish_output(struct rr_cli *cli, int code);
/* Under --json a failure is still one document: {"error": "..."} */
void rr_cli_json_error(struct rr_cli *cli, const char *msg);

int cmd_stats(int argc, char **argv, struct rr_cli *cli);
int cmd_replay(int argc, char **argv, struct rr_cli *cli);
int cmd_compare(int argc, char **argv, struct rr_cli *cli);
int cmd_sweep(int argc, char **argv, struct rr_cli *cli);
int cmd_merge(int argc, char **argv, struct rr_cli *cli);
int cmd_validate(int argc, char **argv, struct rr_cli *cli);
int cmd_policies(int argc, char **argv, struct rr_cli *cli);
int cmd_record(int argc, char **argv, struct rr_cli *cli);
int cmd_live(int argc, char **argv, struct rr_cli *cli);

#endif
