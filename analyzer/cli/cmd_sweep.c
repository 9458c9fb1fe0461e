// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim-replay sweep TRACE... --vary KEY=LO..HI[:lin|log[:N]] ...: replay
 * the parametric policy at every point of a grid or sample, and `mainline`
 * as the reference, on every trace decoded once; then the Pareto front of
 * stall against wasted scanning and a recommendation (docs/sweep.md).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "reclaim_replay/error.h"
#include "report/compare.h"
#include "report/sweep_report.h"
#include "sweep/sweep.h"

static void sweep_usage(FILE *f)
{
	fprintf(f, "usage: reclaim-replay sweep [options] --vary KEY=SPEC... TRACE...\n\n"
		"Replays the parametric policy at every point of a grid (or a random or Latin\n"
		"hypercube sample) of its settings, and mainline as the reference, on every\n"
		"trace; reports per point the stall (total and p99 episode) and wasted\n"
		"scanning, the Pareto front of stall against waste, and a recommended setting.\n"
		"KEY is a parametric setting (see 'reclaim-replay replay --help'); SPEC is\n"
		"LO..HI[:lin|log[:N]] (N grid steps, default lin:%d) or V1,V2,... Durations\n"
		"take ns, us, ms, s or j (jiffies at each trace's own HZ).\n\n"
		"  -V, --vary KEY=SPEC     a parameter to vary (repeatable)\n"
		"  -s, --set KEY=VALUE     a parametric setting for every point\n"
		"      --sample METHOD     grid (default), random:N or lhs:N (Latin hypercube)\n"
		"      --seed N            random and lhs points (default 1)\n"
		"  -j, --jobs N            replay on N threads (default: every core, %d here)\n"
		"      --objective OBJ     p99-capped (default: lowest p99 stall whose wasted\n"
		"                          scanning is no worse than mainline's), min-stall,\n"
		"                          min-p99, min-waste or weighted:ALPHA (0..1)\n"
		"      --bad-margin PCT    a trace where the recommendation is worse than\n"
		"                          mainline by more than PCT%% is flagged (default %g)\n"
		"      --all               list every point, not only the Pareto front\n"
		"      --csv FILE          every point's figures as CSV\n"
		"      --plot FILE.svg     the stall/waste trade-off plot\n"
		"      --json              one JSON document (schema v1); -j is --jobs here\n"
		"  -p, --pretty            indented JSON (implies --json)\n"
		"  -o, --output FILE       write the report to FILE\n"
		"  -q, --quiet             no progress bar, no warnings repeated on stderr\n"
		"      --strict            exit 3 when a recording lost events\n"
		"      --max-memory SIZE   refuse inputs whose decoded model needs more\n"
		"      --color, --no-color coloured headings or not\n"
		"  -h, --help              this help\n",
		RR_SWEEP_DEFAULT_STEPS, rr_pool_default_threads(), RR_SWEEP_DEFAULT_MARGIN * 100);
}

struct sweep_opts {
	struct rr_sweep_spec spec;
	struct rr_objective obj;
	int threads;
	int all;
	const char *csv;
	const char *plot;
};

static int number(const char *opt, const char *arg, double lo, double hi, double *v)
{
	char *end;

	*v = strtod(arg, &end);
	if (end == arg || *end || !(*v >= lo && *v <= hi))
		return rr_fail(RR_EXIT_USAGE, "sweep: %s wants a number from %g to %g, got '%s'",
			       opt, lo, hi, arg);
	return 0;
}

static int sweep_option(struct sweep_opts *o, int opt, const char *arg)
{
	char err[512];
	double v;

	switch (opt) {
	case 'V':
		if (o->spec.nr_params == RR_SWEEP_MAX_PARAMS)
			return rr_fail(RR_EXIT_USAGE, "sweep: at most %d --vary",
				       RR_SWEEP_MAX_PARAMS);
		if (rr_sweep_param_parse(arg, &o->spec.param[o->spec.nr_params], err, sizeof(err)))
			return rr_fail(RR_EXIT_USAGE, "sweep: %s", err);
		for (int k = 0; k < o->spec.nr_params; k++)
			if (!strcmp(o->spec.param[k].key, o->spec.param[o->spec.nr_params].key))
				return rr_fail(RR_EXIT_USAGE, "sweep: --vary %s given twice",
					       o->spec.param[k].key);
		o->spec.nr_params++;
		return 0;
	case 's':
		if (o->spec.nr_fixed == RR_SWEEP_MAX_FIXED || !strchr(arg, '='))
			return rr_fail(RR_EXIT_USAGE, "sweep: --set wants KEY=VALUE (at most %d), "
				       "got '%s'", RR_SWEEP_MAX_FIXED, arg);
		o->spec.fixed[o->spec.nr_fixed++] = arg;
		return 0;
	case 'S':
		if (rr_sweep_sample_parse(arg, &o->spec, err, sizeof(err)))
			return rr_fail(RR_EXIT_USAGE, "sweep: %s", err);
		return 0;
	case 'D':
		if (number("--seed", arg, 0, 1e18, &v))
			return RR_EXIT_USAGE;
		o->spec.seed = (uint64_t)v;
		return 0;
	case 'J':
		if (number("--jobs", arg, 1, 4096, &v))
			return RR_EXIT_USAGE;
		o->threads = (int)v;
		return 0;
	case 'O':
		if (rr_objective_parse(arg, &o->obj, err, sizeof(err)))
			return rr_fail(RR_EXIT_USAGE, "sweep: %s", err);
		return 0;
	case 'M':
		if (number("--bad-margin", arg, 0, 10000, &v))
			return RR_EXIT_USAGE;
		o->obj.margin = v / 100;
		return 0;
	case 'A':
		o->all = 1;
		return 0;
	case 'C':
		o->csv = arg;
		return 0;
	case 'G':
		o->plot = arg;
		return 0;
	}
	return -1;
}

/* A fixed --set must not name a varied key, nor an unknown one. */
static int check_fixed(const struct rr_sweep_spec *s)
{
	for (int f = 0; f < s->nr_fixed; f++) {
		const char *eq = strchr(s->fixed[f], '=');
		size_t klen = (size_t)(eq - s->fixed[f]);
		enum rr_sweep_kind kind;

		if (!rr_sweep_key_kind(s->fixed[f], klen, &kind))
			return rr_fail(RR_EXIT_USAGE, "sweep: --set %s: unknown parametric setting",
				       s->fixed[f]);
		for (int k = 0; k < s->nr_params; k++)
			if (strlen(s->param[k].key) == klen &&
			    !strncmp(s->param[k].key, s->fixed[f], klen))
				return rr_fail(RR_EXIT_USAGE,
					       "sweep: %.*s is both --set and --vary", (int)klen,
					       s->fixed[f]);
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct rr_cli *cli, struct sweep_opts *o)
{
	/* -j is --jobs here (as make and parallel have it); --json stays long */
	static const struct option longopts[] = {
		RR_CLI_COMMON_LONG,
		{ "vary", required_argument, NULL, 'V' },
		{ "set", required_argument, NULL, 's' },
		{ "sample", required_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 'D' },
		{ "jobs", required_argument, NULL, 'J' },
		{ "objective", required_argument, NULL, 'O' },
		{ "bad-margin", required_argument, NULL, 'M' },
		{ "all", no_argument, NULL, 'A' },
		{ "csv", required_argument, NULL, 'C' },
		{ "plot", required_argument, NULL, 'G' },
		{ 0 },
	};
	char err[512];
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "j:po:qhV:s:", longopts, NULL)) != -1) {
		if (opt == 'h') {
			sweep_usage(stdout);
			return -1;
		}
		if (opt == 'j' && optarg)	/* -j N; --json comes without an argument */
			opt = 'J';
		ret = sweep_option(o, opt, optarg);
		if (ret >= 0) {
			if (ret)
				return ret;
			continue;
		}
		if (!rr_cli_common_option(cli, opt, optarg)) {
			sweep_usage(stderr);
			return RR_EXIT_USAGE;
		}
	}
	if (!o->spec.nr_params)
		return rr_fail(RR_EXIT_USAGE, "sweep: give at least one --vary KEY=SPEC");
	if (!rr_sweep_nr_points(&o->spec, err, sizeof(err)))
		return rr_fail(RR_EXIT_USAGE, "sweep: %s", err);
	ret = check_fixed(&o->spec);
	if (ret)
		return ret;
	if (optind >= argc)
		return rr_fail(RR_EXIT_USAGE, "sweep: no TRACE given");
	return 0;
}

/* A progress bar on stderr, only when it is a terminal. */
static void progress(void *ctx, size_t done, size_t total)
{
	const int width = 40;
	int fill = total ? (int)(done * (size_t)width / total) : width;

	(void)ctx;
	fprintf(stderr, "\rsweep [%.*s%*s] %zu/%zu replays", fill,
		"########################################", width - fill, "", done, total);
	if (done >= total)
		fprintf(stderr, "\r%*s\r", width + 40, "");
	fflush(stderr);
}

static int outputs(struct rr_cli *cli, const struct sweep_opts *o, struct rr_inputs *ins,
		   const struct rr_sweep_data *d, const struct rr_sweep_analysis *a)
{
	int ret = 0;

	if (o->csv) {
		FILE *f = fopen(o->csv, "w");

		if (!f)
			return rr_fail(RR_EXIT_FAILURE, "cannot write '%s'", o->csv);
		ret = rr_sweep_write_csv(f, d, a);
		if (fclose(f) || ret)
			return rr_fail(RR_EXIT_FAILURE, "cannot write '%s'", o->csv);
	}
	if (o->plot && rr_sweep_write_svg(o->plot, d, a))
		return rr_fail(RR_EXIT_FAILURE, "cannot write the plot '%s'", o->plot);
	if (cli->json) {
		json_t *doc = rr_json_report_new("sweep", ins->in, ins->nr, &ins->warnings);
		json_t *results = json_array();

		json_array_append_new(results, rr_sweep_json(d, a));
		json_object_set_new(doc, "results", results);
		ret = rr_json_print(doc, cli->out, cli->pretty);
		json_decref(doc);
		return ret ? RR_EXIT_FAILURE : 0;
	}
	rr_sweep_print_table(cli->out, d, a, o->all, cli->color);
	if (ins->warnings.nr) {
		struct rr_compare_layout lay = { .width = RR_SWEEP_TABLE_WIDTH };

		rr_compare_print_warnings(cli->out, &ins->warnings, &lay);
	}
	return 0;
}

static int run(struct rr_cli *cli, const struct sweep_opts *o, struct rr_inputs *ins)
{
	struct rr_sweep_data d = { .spec = o->spec };
	struct rr_sweep_analysis a;
	struct rr_sweep_run_opts ro = { .threads = o->threads };
	int ret;

	d.nr_points = (uint32_t)rr_sweep_nr_points(&o->spec, NULL, 0) + 1;
	if (isatty(STDERR_FILENO) && !cli->quiet)
		ro.progress = progress;
	ret = rr_sweep_run(&d, ins->in, ins->nr, &ro);
	if (!ret && rr_sweep_analyze(&d, &o->obj, &a))
		ret = rr_fail(RR_EXIT_FAILURE, "out of memory");
	else if (!ret) {
		ret = outputs(cli, o, ins, &d, &a);
		rr_sweep_analysis_release(&a);
	}
	rr_sweep_data_release(&d);
	return ret;
}

int cmd_sweep(int argc, char **argv, struct rr_cli *cli)
{
	struct sweep_opts *o = calloc(1, sizeof(*o));
	struct rr_inputs ins;
	int ret;

	if (!o)
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	o->threads = rr_pool_default_threads();
	o->spec.seed = 1;
	o->obj.margin = RR_SWEEP_DEFAULT_MARGIN;
	rr_objective_parse("p99-capped", &o->obj, NULL, 0);
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
	ret = rr_inputs_load(&ins, argv + optind, argc - optind);
	if (!ret) {
		for (size_t i = 0; !cli->quiet && cli->json && i < ins.warnings.nr; i++)
			fprintf(stderr, "reclaim-replay: warning: %s\n", ins.warnings.msg[i]);
		ret = run(cli, o, &ins);
		if (!ret && cli->strict && rr_inputs_lossy(&ins))
			ret = rr_fail(RR_EXIT_DATA_LOSS, "the recording lost events (--strict)");
	}
	rr_inputs_release(&ins);
	free(o);
	return ret;
}
