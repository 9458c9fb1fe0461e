// SPDX-License-Identifier: GPL-2.0
/*
 * Replay every point on every input: the models and their curves are built
 * once and shared read-only; each job, one point on one input, opens its own
 * policy instance and writes only its own cells of the table, so the jobs
 * need no lock (rr_replay() keeps its state on the caller's side).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reclaim_replay/error.h"
#include "reclaim_replay/replay.h"
#include "sweep/sweep.h"

struct run_ctx {
	struct rr_sweep_data *d;
	const struct rr_input *ins;
	struct rr_curves **curves;
	int nr_inputs;
	const struct rr_sweep_run_opts *o;
};

/* Open the policy of point @p for input @i: `mainline` for point 0. */
static int open_point(const struct rr_sweep_data *d, uint32_t p, const struct rr_input *in,
		      uint32_t hz, struct rr_policy_instance *inst)
{
	char buf[RR_SWEEP_MAX_PARAMS][64];
	const char *set[RR_SWEEP_MAX_PARAMS + RR_SWEEP_MAX_FIXED];
	uint32_t n = 0;

	if (!p)
		return rr_policy_open("mainline", NULL, 0, in->model, inst);
	for (int f = 0; f < d->spec.nr_fixed; f++)
		set[n++] = d->spec.fixed[f];
	for (int k = 0; k < d->spec.nr_params; k++) {
		rr_sweep_param_setting(&d->spec.param[k], rr_sweep_point_value(d, p, k, hz),
				       buf[k], sizeof(buf[k]));
		set[n++] = buf[k];
	}
	return rr_policy_open("parametric", set, n, in->model, inst);
}

static void fig_from_node(struct rr_sweep_fig *f, const struct rr_replay_node *n)
{
	memset(f, 0, sizeof(*f));
	f->stall_ns = n->stall_ns;
	f->p99_ns = n->stall.p99_ns;
	f->episodes = n->stall.count;
	for (int r = 0; r < RR_NR_REASONS; r++)
		f->sleep_ns += n->sleeps[r].sleep_ns;
	f->scanned = n->scanned;
	f->reclaimed = n->reclaimed;
	f->wasted = n->wasted;
}

/* Replay point @p on input @i into its cells of the table. */
static int replay_one(struct run_ctx *c, uint32_t p, int i)
{
	struct rr_sweep_data *d = c->d;
	const struct rr_sweep_trace *t = &d->trace[i];
	struct rr_policy_instance inst;
	struct rr_replay_result res;
	int ret;

	ret = open_point(d, p, &c->ins[i], t->hz, &inst);
	if (ret)
		return ret;
	ret = rr_replay(c->ins[i].model, c->curves[i], &inst, &res);
	rr_policy_close(&inst);
	if (ret)
		return RR_EXIT_FAILURE;
	for (int n = 0; n < t->nr_nodes && n < res.nr_nodes; n++)
		fig_from_node(rr_sweep_fig_at(d, p, t->node_off + n), &res.nodes[n]);
	rr_replay_result_release(&res);
	return 0;
}

/* Pool job @j: point @j % nr_points of input @j / nr_points. */
static int job(void *arg, size_t j)
{
	struct run_ctx *c = arg;
	size_t nr = c->d->nr_points;
	int i = (int)(j / nr);
	int ret = replay_one(c, (uint32_t)(j % nr), i);

	/* the engine says nothing when it fails: say which trace */
	if (ret == RR_EXIT_FAILURE)
		rr_error("'%s': sweep: a replay failed (out of memory?)", c->ins[i].trace->path);
	return ret;
}

static void progress(void *arg, size_t done, size_t total)
{
	struct run_ctx *c = arg;

	c->o->progress(c->o->progress_ctx, done, total);
}

int rr_sweep_run(struct rr_sweep_data *d, const struct rr_input *ins, int nr_inputs,
		 const struct rr_sweep_run_opts *o)
{
	struct run_ctx c = { .d = d, .ins = ins, .nr_inputs = nr_inputs };
	int ret = 0;

	for (int i = 0; i < nr_inputs; i++) {
		const struct rr_trace *t = ins[i].trace;
		int nodes = t->nr_nodes > 0 ? t->nr_nodes : 1, nid[nodes];

		/* the engine numbers its nodes 0 .. nr_nodes - 1 (as rr_curves) */
		for (int n = 0; n < nodes; n++)
			nid[n] = n;
		if (rr_sweep_data_add_trace(d, t->path, rr_model_hz(ins[i].model, NULL), nodes,
					    nid, t->nr_events))
			return rr_fail(RR_EXIT_FAILURE, "out of memory");
	}
	if (rr_sweep_data_alloc(d) ||
	    (d->spec.nr_params && rr_sweep_make_points(&d->spec, d->nr_points - 1,
						       d->coord + d->spec.nr_params)))
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	c.curves = calloc((size_t)nr_inputs, sizeof(*c.curves));
	if (!c.curves)
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	for (int i = 0; i < nr_inputs && !ret; i++) {
		struct rr_policy_instance inst;

		if (rr_curves_build(ins[i].model, &c.curves[i])) {
			ret = rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", ins[i].trace->path);
			break;
		}
		/* Try the first and last point here, in one thread, so that a bad
		 * --set is said once and before any work. */
		for (int k = 0; k < 2 && !ret && d->nr_points > 1; k++) {
			ret = open_point(d, k ? d->nr_points - 1 : 1, &ins[i], d->trace[i].hz,
					 &inst);
			if (!ret)
				rr_policy_close(&inst);
		}
	}
	/*
	 * Every (input, point) pair is one job: the models, their curves and
	 * the task figures built with them are read-only, so replays of any
	 * inputs run side by side.
	 */
	c.o = o;
	if (!ret)
		ret = rr_pool_run(o->threads, (size_t)d->nr_points * (size_t)nr_inputs, job, &c,
				  o->progress ? progress : NULL, &c);
	for (int i = 0; i < nr_inputs; i++)
		rr_curves_free(c.curves[i]);
	free(c.curves);
	return ret;
}
