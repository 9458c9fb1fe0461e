/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The extra report files of `replay` and `compare`: --plot FILE.svg and
 * --export-timeline FILE.json. Both are fed while the replays run (through
 * one rr_replay_hook), and the plot again from each input's results.
 */
#ifndef RR_CLI_REPORT_FILES_H
#define RR_CLI_REPORT_FILES_H

#include <stdio.h>

#include "cli.h"
#include "replay_inputs.h"

struct rr_plot;
struct rr_timeline;

struct rr_report_files {
	const char *plot_path, *timeline_path;
	FILE *plot_f, *timeline_f;
	struct rr_plot *plot;
	struct rr_timeline *tl;
	struct rr_replay_hook hook;
};

#define RR_REPORT_FILES_LONG \
	{ "plot", required_argument, NULL, 1100 }, \
	{ "export-timeline", required_argument, NULL, 1101 }

#define RR_HELP_REPORT_FILES \
	"      --plot FILE.svg stall and wasted scanning per node and policy, and the\n" \
	"                      cumulative stall over time, as an SVG drawing\n" \
	"      --export-timeline FILE.json\n" \
	"                      every replayed episode and throttle in the Chrome Trace\n" \
	"                      Event format (Perfetto, chrome://tracing)\n"

/* Take --plot / --export-timeline: 1 when @opt was one of them. */
int rr_report_files_option(struct rr_report_files *rf, int opt, const char *arg);
/* Open the files asked for; 0 or an RR_EXIT_* code after printing why. */
int rr_report_files_open(struct rr_report_files *rf, const struct rr_inputs *ins,
			 int nr_policies, const char *command);
/* The hook to replay with, NULL when no file was asked for. */
const struct rr_replay_hook *rr_report_files_hook(struct rr_report_files *rf);
/* After one input's replays: draw its plot block. 0 or an RR_EXIT_* code. */
int rr_report_files_input(struct rr_report_files *rf, const struct rr_replay_result *res,
			  int nr, const struct rr_input *in);
/* Finish and close both files; @code is the command's exit code so far.
 * Returns it, or RR_EXIT_FAILURE when a file could not be written. */
int rr_report_files_close(struct rr_report_files *rf, int code);

#endif
