// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim-replay merge REPORT...: aggregate the --json reports of per-trace
 * `replay` or `sweep` runs (a fleet under GNU parallel, docs/sweep.md) as
 * one run over every trace would have reported them. Reports of different
 * commands, policies or sweeps are refused.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "reclaim_replay/error.h"
#include "report/sweep_report.h"
#include "sweep/merge.h"

static void merge_usage(FILE *f)
{
	fprintf(f, "usage: reclaim-replay merge [options] REPORT...\n\n"
		"Reads the --json reports of `replay` or of `sweep` runs (for instance one\n"
		"per trace, from GNU parallel) and aggregates them: for replay, per policy\n"
		"the sums over every trace and node and their spread over traces; for\n"
		"sweep, the figures of every point over every trace, the Pareto front and\n"
		"the recommendation, as one sweep over all the traces would give. All the\n"
		"reports must come from the same command with the same policies or sweep\n"
		"options. A merged sweep report can be merged again.\n\n"
		"      --objective OBJ   sweep: as in 'reclaim-replay sweep' (default: the\n"
		"                        reports' own, when they agree)\n"
		"      --bad-margin PCT  sweep: as in 'reclaim-replay sweep'\n"
		"      --all             sweep: list every point\n"
		"      --csv FILE        sweep: every point's figures as CSV\n"
		"      --plot FILE.svg   sweep: the trade-off plot\n" RR_HELP_COMMON);
}

struct merge_opts {
	struct rr_objective obj;
	int have_obj, have_margin, all;
	const char *csv, *plot;
};

static int parse_args(int argc, char **argv, struct rr_cli *cli, struct merge_opts *o)
{
	static const struct option longopts[] = {
		RR_CLI_COMMON_LONG,
		{ "objective", required_argument, NULL, 'O' },
		{ "bad-margin", required_argument, NULL, 'M' },
		{ "all", no_argument, NULL, 'A' },
		{ "csv", required_argument, NULL, 'C' },
		{ "plot", required_argument, NULL, 'G' },
		{ 0 },
	};
	char err[512], *end;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, RR_CLI_COMMON_SHORT, longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			merge_usage(stdout);
			return -1;
		case 'O':
			if (rr_objective_parse(optarg, &o->obj, err, sizeof(err)))
				return rr_fail(RR_EXIT_USAGE, "merge: %s", err);
			o->have_obj = 1;
			continue;
		case 'M':
			o->obj.margin = strtod(optarg, &end) / 100;
			if (end == optarg || *end || !(o->obj.margin >= 0 && o->obj.margin <= 100))
				return rr_fail(RR_EXIT_USAGE,
					       "merge: --bad-margin wants a percentage, got '%s'",
					       optarg);
			o->have_margin = 1;
			continue;
		case 'A':
			o->all = 1;
			continue;
		case 'C':
			o->csv = optarg;
			continue;
		case 'G':
			o->plot = optarg;
			continue;
		}
		if (!rr_cli_common_option(cli, opt, optarg)) {
			merge_usage(stderr);
			return RR_EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return rr_fail(RR_EXIT_USAGE, "merge: no REPORT given");
	return 0;
}

/* "replay" or "sweep": what the report is, from its command and results. */
static const char *kind_of(json_t *doc)
{
	const char *cmd = json_string_value(json_object_get(doc, "command"));

	if (!cmd)
		return NULL;
	if (!strcmp(cmd, "merge") || !strcmp(cmd, "sweep"))
		return rr_merge_result(doc, "sweep") ? "sweep" : cmd;
	return cmd;
}

static int load(json_t **docs, char **paths, int nr, const char **kind)
{
	for (int i = 0; i < nr; i++) {
		json_error_t e;
		const char *k;

		docs[i] = json_load_file(paths[i], 0, &e);
		if (!docs[i])
			return rr_fail(RR_EXIT_BAD_INPUT, "'%s': not a JSON report: %s (line %d)",
				       paths[i], e.text, e.line);
		if (json_object_get(docs[i], "error"))
			return rr_fail(RR_EXIT_BAD_INPUT, "'%s': the report of a failed run: %s",
				       paths[i], json_string_value(json_object_get(docs[i],
										  "error")));
		if (json_integer_value(json_object_get(docs[i], "schema_version")) != 1)
			return rr_fail(RR_EXIT_BAD_INPUT, "'%s': not a schema version 1 report",
				       paths[i]);
		k = kind_of(docs[i]);
		if (!k || (strcmp(k, "replay") && strcmp(k, "sweep")))
			return rr_fail(RR_EXIT_BAD_INPUT, "'%s': a '%s' report; merge takes replay "
				       "or sweep reports", paths[i], k ? k : "?");
		if (i && strcmp(k, *kind))
			return rr_fail(RR_EXIT_BAD_INPUT, "'%s': a %s report cannot be merged with "
				       "the %s report '%s'", paths[i], k, *kind, paths[0]);
		*kind = k;
	}
	return 0;
}

/* The top level: every report's inputs and warnings, in order. */
static json_t *merged_doc(json_t **docs, int nr)
{
	json_t *doc = rr_json_report_new("merge", NULL, 0, NULL);
	json_t *ins = json_object_get(doc, "inputs"), *warn = json_object_get(doc, "warnings");

	for (int i = 0; i < nr; i++) {
		json_array_extend(ins, json_object_get(docs[i], "inputs"));
		json_array_extend(warn, json_object_get(docs[i], "warnings"));
	}
	return doc;
}

static int merge_replays(struct rr_cli *cli, json_t **docs, char **paths, int nr)
{
	struct rr_merge_replay m = { 0 };
	int ret = 0;

	for (int i = 0; i < nr && !ret; i++)
		ret = rr_merge_replay_add(&m, !i, paths[i], docs[i]);
	if (!ret && rr_merge_replay_finish(&m))
		ret = rr_fail(RR_EXIT_FAILURE, "out of memory");
	if (!ret && cli->json) {
		json_t *doc = merged_doc(docs, nr), *res = json_array();

		json_array_append_new(res, rr_merge_replay_json(&m));
		json_object_set_new(doc, "results", res);
		if (rr_json_print(doc, cli->out, cli->pretty))
			ret = RR_EXIT_FAILURE;
		json_decref(doc);
	} else if (!ret) {
		rr_merge_replay_print(cli->out, &m, cli->color);
	}
	rr_merge_replay_release(&m);
	return ret;
}

/* The reports' objective when they agree, else the default; options override. */
static void objective(const struct merge_opts *o, json_t **docs, int nr, struct rr_objective *obj)
{
	const char *name = NULL;
	double margin = RR_SWEEP_DEFAULT_MARGIN;

	for (int i = 0; i < nr; i++) {
		json_t *ob = json_object_get(rr_merge_result(docs[i], "sweep"), "objective");
		const char *n = json_string_value(json_object_get(ob, "name"));

		if (!i) {
			name = n;
			margin = json_number_value(json_object_get(ob, "bad_margin"));
		} else if (!n || !name || strcmp(n, name)) {
			name = NULL;
		}
	}
	obj->margin = o->have_margin ? o->obj.margin : margin;
	if (o->have_obj) {
		double m = obj->margin;

		*obj = o->obj;
		obj->margin = m;
	} else if (!name || rr_objective_parse(name, obj, NULL, 0)) {
		rr_objective_parse("p99-capped", obj, NULL, 0);
	}
}

static int merge_sweeps(struct rr_cli *cli, const struct merge_opts *o, json_t **docs,
			char **paths, int nr)
{
	struct rr_sweep_data d = { 0 };
	struct rr_sweep_analysis a;
	struct rr_objective obj = { 0 };
	int ret = 0, trace = 0;

	for (int i = 0; i < nr && !ret; i++)
		ret = rr_merge_sweep_add(&d, docs[0], paths[i], docs[i]);
	if (!ret && rr_sweep_data_alloc(&d))
		ret = rr_fail(RR_EXIT_FAILURE, "out of memory");
	for (int i = 0; i < nr && !ret; i++)
		ret = rr_merge_sweep_fill(&d, &trace, paths[i], docs[i]);
	objective(o, docs, nr, &obj);
	if (!ret && rr_sweep_analyze(&d, &obj, &a))
		ret = rr_fail(RR_EXIT_FAILURE, "out of memory");
	else if (!ret) {
		if (o->csv) {
			FILE *f = fopen(o->csv, "w");

			if (!f || rr_sweep_write_csv(f, &d, &a) | fclose(f))
				ret = rr_fail(RR_EXIT_FAILURE, "cannot write '%s'", o->csv);
		}
		if (!ret && o->plot && rr_sweep_write_svg(o->plot, &d, &a))
			ret = rr_fail(RR_EXIT_FAILURE, "cannot write the plot '%s'", o->plot);
		if (!ret && cli->json) {
			json_t *doc = merged_doc(docs, nr), *res = json_array();

			json_array_append_new(res, rr_sweep_json(&d, &a));
			json_object_set_new(doc, "results", res);
			if (rr_json_print(doc, cli->out, cli->pretty))
				ret = RR_EXIT_FAILURE;
			json_decref(doc);
		} else if (!ret) {
			rr_sweep_print_table(cli->out, &d, &a, o->all, cli->color);
		}
		rr_sweep_analysis_release(&a);
	}
	rr_sweep_data_release(&d);
	return ret;
}

int cmd_merge(int argc, char **argv, struct rr_cli *cli)
{
	struct merge_opts o = { 0 };
	const char *kind = NULL;
	json_t **docs;
	int nr, ret;

	ret = parse_args(argc, argv, cli, &o);
	if (ret)
		return ret < 0 ? RR_EXIT_OK : ret;
	ret = rr_cli_open_output(cli);
	if (ret)
		return ret;
	nr = argc - optind;
	docs = calloc((size_t)nr, sizeof(*docs));
	if (!docs)
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	ret = load(docs, argv + optind, nr, &kind);
	if (!ret && !strcmp(kind, "replay") && (o.csv || o.plot || o.all || o.have_obj))
		ret = rr_fail(RR_EXIT_USAGE, "merge: --objective, --all, --csv and --plot are for "
			      "sweep reports");
	if (!ret)
		ret = !strcmp(kind, "replay") ? merge_replays(cli, docs, argv + optind, nr) :
		      merge_sweeps(cli, &o, docs, argv + optind, nr);
	for (int i = 0; i < nr; i++)
		json_decref(docs[i]);
	free(docs);
	return ret;
}
