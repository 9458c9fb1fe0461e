/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `sweep` and `merge`: vary the settings of the `parametric` policy over a
 * grid or a sample, replay every point on every trace, and find the
 * trade-off between stall and wasted scanning (docs/sweep.md).
 *
 * The figures live in one table (struct rr_sweep_data), filled either by
 * replaying (run.c) or by reading per-trace reports (merge_sweep.c); one
 * analysis (analyze.c) computes the sums, the Pareto front, the
 * recommendation and its robustness, and the writers only render them.
 */
#ifndef RR_SWEEP_H
#define RR_SWEEP_H

#include <stdint.h>
#include <stdio.h>

#include "reclaim_replay/report.h"

#define RR_SWEEP_MAX_PARAMS 16
#define RR_SWEEP_MAX_LIST 64
#define RR_SWEEP_MAX_POINTS 100000
#define RR_SWEEP_MAX_FIXED 16
#define RR_SWEEP_DEFAULT_STEPS 5
#define RR_SWEEP_DEFAULT_MARGIN 0.10

/* ---- spec.c: one --vary KEY=... ---- */

enum rr_sweep_kind { RR_SWEEP_DURATION, RR_SWEEP_RATIO, RR_SWEEP_COUNT };
enum rr_sweep_scale { RR_SWEEP_LIN, RR_SWEEP_LOG };

struct rr_sweep_param {
	char key[40];
	char spec[128];		/* as given after '=' */
	enum rr_sweep_kind kind;
	int is_list;		/* V1,V2,... rather than LO..HI */
	enum rr_sweep_scale scale;
	uint32_t steps;		/* grid points of a range */
	char lo[24], hi[24];	/* range ends as written (durations may be in jiffies) */
	uint32_t nr_list;
	char list[RR_SWEEP_MAX_LIST][24];
};

/* Parse "KEY=LO..HI[:lin|log[:N]]" or "KEY=V1,V2,..."; 0, or -1 with @err set. */
int rr_sweep_param_parse(const char *arg, struct rr_sweep_param *p, char *err, size_t errlen);
/* The value of @p at coordinate @c (range: 0..1; list: index) for a trace of @hz:
 * ns, parts per million or a count. */
uint64_t rr_sweep_param_value(const struct rr_sweep_param *p, double c, uint32_t hz);
/* "KEY=VALUE" as the parametric policy takes it. */
void rr_sweep_param_setting(const struct rr_sweep_param *p, uint64_t v, char *buf, size_t len);
/* The value for people: "12.5ms", "0.125", "32". */
void rr_sweep_value_text(enum rr_sweep_kind kind, uint64_t v, char *buf, size_t len);
/* The value exactly, for a command line: "4544127ns", "12ms", "0.125". */
void rr_sweep_value_exact(enum rr_sweep_kind kind, uint64_t v, char *buf, size_t len);
/* Does any end or list value use jiffies (the value then depends on HZ)? */
int rr_sweep_param_uses_jiffies(const struct rr_sweep_param *p);
/* A known parametric key? Its kind in *kind. */
int rr_sweep_key_kind(const char *key, size_t len, enum rr_sweep_kind *kind);

/* ---- sample.c: the points ---- */

enum rr_sweep_method { RR_SAMPLE_GRID, RR_SAMPLE_RANDOM, RR_SAMPLE_LHS };

struct rr_sweep_spec {
	struct rr_sweep_param param[RR_SWEEP_MAX_PARAMS];
	int nr_params;
	const char *fixed[RR_SWEEP_MAX_FIXED];	/* --set KEY=VALUE for every point */
	int nr_fixed;
	enum rr_sweep_method method;
	uint32_t samples;	/* random / lhs */
	uint64_t seed;
};

/* "grid", "random:N", "lhs:N"; 0 or -1 with @err set. */
int rr_sweep_sample_parse(const char *arg, struct rr_sweep_spec *s, char *err, size_t errlen);
/* How many points the spec makes (mainline not counted); 0 and @err when too many. */
uint64_t rr_sweep_nr_points(const struct rr_sweep_spec *s, char *err, size_t errlen);
/* Fill @coord[nr_points][nr_params]; 0 or -ENOMEM. */
int rr_sweep_make_points(const struct rr_sweep_spec *s, uint32_t nr_points, double *coord);
const char *rr_sweep_method_name(enum rr_sweep_method m);

/* xoshiro256**, so a --seed gives the same points on every libc */
struct rr_rng { uint64_t s[4]; };
void rr_rng_seed(struct rr_rng *r, uint64_t seed);
uint64_t rr_rng_next(struct rr_rng *r);
double rr_rng_unit(struct rr_rng *r);	/* [0, 1) */

/* ---- the table of figures ---- */

/* One point's figures on one node of one trace (or summed). */
struct rr_sweep_fig {
	uint64_t stall_ns;
	uint64_t p99_ns;	/* sums: the largest per-node p99 */
	uint64_t episodes;
	uint64_t sleep_ns;
	uint64_t scanned, reclaimed, wasted;
};

struct rr_sweep_trace {
	char *path;
	char *label;		/* the path's base name, for tables */
	uint32_t hz;
	int nr_nodes;
	int node_off;		/* first column in rr_sweep_data.fig */
	int *nid;		/* per column */
	uint64_t events;
};

/* Point 0 is `mainline`, the reference; points 1.. are the spec's. */
struct rr_sweep_data {
	struct rr_sweep_spec spec;
	int nr_traces;
	struct rr_sweep_trace *trace;
	int nr_cols;		/* nodes of every trace */
	uint32_t nr_points;
	double *coord;		/* [nr_points][nr_params]; row 0 unused */
	struct rr_sweep_fig *fig;	/* [nr_points][nr_cols] */
};

static inline struct rr_sweep_fig *rr_sweep_fig_at(const struct rr_sweep_data *d, uint32_t p,
						    int col)
{
	return &d->fig[(size_t)p * (size_t)d->nr_cols + (size_t)col];
}

/* Allocate coord and fig once traces and nr_points are set; 0 or -ENOMEM. */
int rr_sweep_data_alloc(struct rr_sweep_data *d);
/* Add a trace; 0 or -ENOMEM. */
int rr_sweep_data_add_trace(struct rr_sweep_data *d, const char *path, uint32_t hz,
			    int nr_nodes, const int *nid, uint64_t events);
void rr_sweep_data_release(struct rr_sweep_data *d);
/* The value of parameter @k at point @p (>= 1) on a trace of @hz. */
uint64_t rr_sweep_point_value(const struct rr_sweep_data *d, uint32_t p, int k, uint32_t hz);
void rr_sweep_fig_add(struct rr_sweep_fig *sum, const struct rr_sweep_fig *f);

/* ---- pool.c: a fixed set of threads over numbered jobs ---- */

/* Return 0 or an RR_EXIT_* code; the first failure stops the others. */
typedef int (*rr_pool_fn)(void *ctx, size_t job);
/* Called from the calling thread about every 100 ms with the jobs done. */
typedef void (*rr_pool_progress)(void *ctx, size_t done, size_t total);
int rr_pool_run(int nr_threads, size_t nr_jobs, rr_pool_fn fn, void *ctx,
		rr_pool_progress progress, void *progress_ctx);
int rr_pool_default_threads(void);

/* ---- run.c: replay every point on every input ---- */

struct rr_sweep_run_opts {
	int threads;
	rr_pool_progress progress;	/* may be NULL */
	void *progress_ctx;
};

/* Fill @d (spec and nr_points, mainline included, already set) from @ins:
 * its traces, points and figures; 0 or an RR_EXIT_* code after saying why. */
int rr_sweep_run(struct rr_sweep_data *d, const struct rr_input *ins, int nr_inputs,
		 const struct rr_sweep_run_opts *o);

/* ---- objective.c ---- */

enum rr_objective_kind {
	RR_OBJ_P99_CAPPED,	/* lowest p99 whose waste is no worse than mainline's */
	RR_OBJ_MIN_STALL,
	RR_OBJ_MIN_P99,
	RR_OBJ_MIN_WASTE,
	RR_OBJ_WEIGHTED,	/* alpha x stall/mainline + (1 - alpha) x waste/mainline */
};

struct rr_objective {
	enum rr_objective_kind kind;
	double alpha;
	double margin;		/* "loses badly": worse than mainline by more than this */
	char name[32];
};

int rr_objective_parse(const char *arg, struct rr_objective *o, char *err, size_t errlen);
/* A one-line statement of what is minimised. */
void rr_objective_describe(const struct rr_objective *o, char *buf, size_t len);
/* Is @a better than @b under @o, against the reference @ref? */
int rr_objective_better(const struct rr_objective *o, const struct rr_sweep_fig *a, uint32_t ia,
			const struct rr_sweep_fig *b, uint32_t ib, const struct rr_sweep_fig *ref);
/* @f loses badly against @ref (mainline) in a figure @o cares about. */
int rr_objective_bad(const struct rr_objective *o, const struct rr_sweep_fig *f,
		     const struct rr_sweep_fig *ref);
int rr_objective_feasible(const struct rr_objective *o, const struct rr_sweep_fig *f,
			  const struct rr_sweep_fig *ref);

/* ---- pareto.c ---- */

/* The points no other point beats on both stall and waste, by stall ascending.
 * @front gets up to @n indices; returns how many. */
uint32_t rr_pareto_front(const struct rr_sweep_fig *sum, uint32_t n, uint32_t *front);

/* ---- analyze.c: everything the writers show ---- */

struct rr_sweep_robust {
	uint32_t rank;		/* 1 = the best point on this trace alone */
	int bad;		/* loses badly against mainline on this trace */
	uint32_t best;		/* the best point on this trace alone */
	struct rr_sweep_fig rec, ref;	/* recommended and mainline on this trace */
};

struct rr_sweep_analysis {
	struct rr_objective obj;
	struct rr_sweep_fig *total;	/* [nr_points] summed over traces and nodes */
	struct rr_sweep_fig *per_trace;	/* [nr_points][nr_traces] */
	int nr_nids;
	int *nids;			/* node ids present in any trace */
	struct rr_sweep_fig *per_node;	/* [nr_points][nr_nids] summed over traces */
	uint32_t *front;		/* Pareto front, by stall */
	uint32_t nr_front;
	uint8_t *on_front;		/* [nr_points] */
	uint32_t recommended;		/* always found: mainline qualifies */
	struct rr_sweep_robust *robust;	/* [nr_traces] */
	int nr_bad;
	int hz_mixed;			/* a jiffy value meant other times on other traces */
};

int rr_sweep_analyze(const struct rr_sweep_data *d, const struct rr_objective *o,
		     struct rr_sweep_analysis *a);
void rr_sweep_analysis_release(struct rr_sweep_analysis *a);

#endif
