// SPDX-License-Identifier: GPL-2.0
/*
 * `make bench`, replay target: the time of one replay of each built-in
 * policy over a decoded model, against the ingest time (rr_trace_load +
 * rr_model_build) of the same trace, measured in the same process.
 * Every figure is the best of BENCH_RUNS (default 3) runs, timed with
 * CLOCK_MONOTONIC. The node curves (rr_curves_build), built once per model
 * and shared by every replay, are timed and printed on their own.
 *
 *   replay-bench [-r RUNS] [-t] [-P POLICY] TRACE...
 *
 * Output, one line per trace and policy (machine-readable, for bench.sh):
 *   ingest TRACE EVENTS LOAD_S MODEL_S INGEST_S
 *   curves TRACE SECONDS
 *   replay TRACE POLICY SECONDS RATIO_TO_INGEST
 * -t adds a human-readable table on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reclaim_replay/error.h"
#include "reclaim_replay/model.h"
#include "reclaim_replay/replay.h"
#include "reclaim_replay/trace.h"

static const char *const policies[] = {
	"recorded", "none", "legacy-broken", "legacy-intended",
	"mainline-5.16rc", "mainline", "parametric",
};
#define NR_POLICIES (sizeof(policies) / sizeof(policies[0]))

static const char *only;	/* -P: time this policy alone (profiling) */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double min_d(double a, double b)
{
	return a < b ? a : b;
}

static int bench_one(const char *path, int runs, int table)
{
	double load_s = 1e30, model_s = 1e30, ingest_s = 1e30, curves_s = 1e30;
	double replay_s[NR_POLICIES];
	struct rr_trace *t = NULL;
	struct rr_model *m = NULL;
	struct rr_curves *curves = NULL;
	size_t events = 0;

	for (size_t p = 0; p < NR_POLICIES; p++)
		replay_s[p] = 1e30;

	/* Ingest: load + model, best of runs; the last model is kept. */
	for (int r = 0; r < runs; r++) {
		double t0, t1, t2;

		if (m) {
			rr_model_free(m);
			rr_trace_free(t);
			m = NULL;
			t = NULL;
		}
		t0 = now();
		if (rr_trace_load(path, &t))
			return 1;
		t1 = now();
		if (rr_model_build(t, &m)) {
			fprintf(stderr, "replay-bench: %s: model: out of memory\n", path);
			rr_trace_free(t);
			return 1;
		}
		t2 = now();
		load_s = min_d(load_s, t1 - t0);
		model_s = min_d(model_s, t2 - t1);
		ingest_s = min_d(ingest_s, t2 - t0);
	}
	events = t->nr_events;

	for (int r = 0; r < runs; r++) {
		double t0 = now();

		if (curves)
			rr_curves_free(curves);
		if (rr_curves_build(m, &curves)) {
			fprintf(stderr, "replay-bench: %s: curves: out of memory\n", path);
			return 1;
		}
		curves_s = min_d(curves_s, now() - t0);
	}

	for (size_t p = 0; p < NR_POLICIES; p++) {
		if (only && strcmp(only, policies[p]))
			continue;
		for (int r = 0; r < runs; r++) {
			struct rr_policy_instance inst;
			struct rr_replay_result res;
			double t0;

			if (rr_policy_open(policies[p], NULL, 0, m, &inst))
				return 1;
			memset(&res, 0, sizeof(res));
			t0 = now();
			if (rr_replay(m, curves, &inst, &res)) {
				fprintf(stderr, "replay-bench: %s: replay %s failed\n", path, policies[p]);
				rr_policy_close(&inst);
				return 1;
			}
			replay_s[p] = min_d(replay_s[p], now() - t0);
			rr_replay_result_release(&res);
			rr_policy_close(&inst);
		}
	}

	printf("ingest %s %zu %.6f %.6f %.6f\n", path, events, load_s, model_s, ingest_s);
	printf("curves %s %.6f\n", path, curves_s);
	for (size_t p = 0; p < NR_POLICIES; p++)
		if (!only || !strcmp(only, policies[p]))
			printf("replay %s %s %.6f %.4f\n", path, policies[p], replay_s[p],
			       replay_s[p] / ingest_s);
	if (table) {
		fprintf(stderr, "%s: %zu events, load %.3f s + model %.3f s = ingest %.3f s, "
			"curves %.3f s\n", path, events, load_s, model_s, ingest_s, curves_s);
		for (size_t p = 0; p < NR_POLICIES; p++)
			if (!only || !strcmp(only, policies[p]))
				fprintf(stderr, "  %-16s %8.4f s  %6.1f%% of ingest\n", policies[p],
				replay_s[p], 100.0 * replay_s[p] / ingest_s);
	}
	rr_curves_free(curves);
	rr_model_free(m);
	rr_trace_free(t);
	return 0;
}

int main(int argc, char **argv)
{
	int runs = 3, table = 0, ret = 0, i = 1;
	const char *env = getenv("BENCH_RUNS");

	if (env && atoi(env) > 0)
		runs = atoi(env);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-r") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-t"))
			table = 1;
		else if (!strcmp(argv[i], "-P") && i + 1 < argc)
			only = argv[++i];
		else
			break;
	}
	if (i >= argc || runs < 1) {
		fprintf(stderr, "usage: replay-bench [-r RUNS] [-t] [-P POLICY] TRACE...\n");
		return 2;
	}
	for (; i < argc; i++)
		ret |= bench_one(argv[i], runs, table);
	return ret;
}
