// SPDX-License-Identifier: GPL-2.0
/* --plot and --export-timeline for `replay` and `compare` (report_files.h). */
#include <errno.h>
#include <string.h>

#include "report_files.h"
#include "reclaim_replay/error.h"
#include "report/plot.h"
#include "report/timeline_export.h"

int rr_report_files_option(struct rr_report_files *rf, int opt, const char *arg)
{
	if (opt == 1100)
		rf->plot_path = arg;
	else if (opt == 1101)
		rf->timeline_path = arg;
	else
		return 0;
	return 1;
}

/* One replay begins: both writers learn which policy the slices belong to. */
static int hook_begin(void *data, const struct rr_input *in, int k,
		      const struct rr_policy_instance *pol, const struct rr_curves *curves)
{
	struct rr_report_files *rf = data;

	if (rf->plot)
		rr_plot_policy_begin(rf->plot, k);
	if (rf->tl)
		return rr_timeline_policy_begin(rf->tl, in, k, pol->label, curves);
	return 0;
}

static int hook_span(void *data, const struct rr_replay_span *s)
{
	struct rr_report_files *rf = data;
	int ret = 0;

	if (rf->plot)
		ret = rr_plot_span(rf->plot, s);
	if (!ret && rf->tl)
		ret = rr_timeline_span(rf->tl, s);
	return ret;
}

static FILE *open_file(const char *path, int *code)
{
	FILE *f = fopen(path, "w");

	if (!f)
		*code = rr_fail(RR_EXIT_FAILURE, "cannot write '%s': %s", path, strerror(errno));
	return f;
}

int rr_report_files_open(struct rr_report_files *rf, const struct rr_inputs *ins,
			 int nr_policies, const char *command)
{
	char title[160];
	int code = 0;

	if (rf->plot_path) {
		rf->plot_f = open_file(rf->plot_path, &code);
		if (!rf->plot_f)
			return code;
		snprintf(title, sizeof(title), "reclaim-replay %s: stall and wasted scanning "
			 "per policy", command);
		rf->plot = rr_plot_open(rf->plot_f, title, ins->in, ins->nr, nr_policies);
		if (!rf->plot)
			return rr_fail(RR_EXIT_FAILURE, "out of memory");
	}
	if (rf->timeline_path) {
		rf->timeline_f = open_file(rf->timeline_path, &code);
		if (!rf->timeline_f)
			return code;
		rf->tl = rr_timeline_open(rf->timeline_f, ins->nr);
		if (!rf->tl)
			return rr_fail(RR_EXIT_FAILURE, "out of memory");
	}
	rf->hook.begin = hook_begin;
	rf->hook.obs.span = hook_span;
	rf->hook.obs.data = rf;
	return 0;
}

const struct rr_replay_hook *rr_report_files_hook(struct rr_report_files *rf)
{
	return rf->plot || rf->tl ? &rf->hook : NULL;
}

int rr_report_files_input(struct rr_report_files *rf, const struct rr_replay_result *res,
			  int nr, const struct rr_input *in)
{
	if (rf->plot && rr_plot_input(rf->plot, res, nr, in))
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	return 0;
}

/* Close @f written through @writer_ret; a failure of either is one error. */
static int finish(FILE *f, const char *path, int writer_ret, int code)
{
	int err = writer_ret || ferror(f);

	if (fclose(f))
		err = 1;
	if (err && !code)
		code = rr_fail(RR_EXIT_FAILURE, "cannot write '%s': %s", path,
			       strerror(errno ? errno : EIO));
	return code;
}

int rr_report_files_close(struct rr_report_files *rf, int code)
{
	if (rf->plot_f)
		code = finish(rf->plot_f, rf->plot_path, rr_plot_close(rf->plot), code);
	else
		rr_plot_close(rf->plot);
	if (rf->timeline_f)
		code = finish(rf->timeline_f, rf->timeline_path, rr_timeline_close(rf->tl), code);
	rf->plot = NULL;
	rf->tl = NULL;
	rf->plot_f = rf->timeline_f = NULL;
	return code;
}
