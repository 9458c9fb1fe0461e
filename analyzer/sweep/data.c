// SPDX-License-Identifier: GPL-2.0
/* The sweep's table of figures: points by node columns of every trace. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"

int rr_sweep_data_add_trace(struct rr_sweep_data *d, const char *path, uint32_t hz,
			    int nr_nodes, const int *nid, uint64_t events)
{
	struct rr_sweep_trace *n = realloc(d->trace, (size_t)(d->nr_traces + 1) * sizeof(*n));
	struct rr_sweep_trace *t;
	const char *base;

	if (!n)
		return -ENOMEM;
	d->trace = n;
	t = &d->trace[d->nr_traces];
	memset(t, 0, sizeof(*t));
	base = strrchr(path, '/');
	t->path = strdup(path);
	t->label = strdup(base ? base + 1 : path);
	t->nid = malloc((size_t)(nr_nodes ? nr_nodes : 1) * sizeof(*t->nid));
	if (!t->path || !t->label || !t->nid) {
		free(t->path);
		free(t->label);
		free(t->nid);
		return -ENOMEM;
	}
	memcpy(t->nid, nid, (size_t)nr_nodes * sizeof(*nid));
	t->hz = hz;
	t->nr_nodes = nr_nodes;
	t->node_off = d->nr_cols;
	t->events = events;
	d->nr_cols += nr_nodes;
	d->nr_traces++;
	return 0;
}

int rr_sweep_data_alloc(struct rr_sweep_data *d)
{
	size_t np = d->spec.nr_params ? (size_t)d->spec.nr_params : 1;

	d->coord = calloc((size_t)d->nr_points * np, sizeof(*d->coord));
	d->fig = calloc((size_t)d->nr_points * (size_t)(d->nr_cols ? d->nr_cols : 1),
			sizeof(*d->fig));
	return d->coord && d->fig ? 0 : -ENOMEM;
}

void rr_sweep_data_release(struct rr_sweep_data *d)
{
	for (int t = 0; t < d->nr_traces; t++) {
		free(d->trace[t].path);
		free(d->trace[t].label);
		free(d->trace[t].nid);
	}
	free(d->trace);
	free(d->coord);
	free(d->fig);
	d->trace = NULL;
	d->coord = NULL;
	d->fig = NULL;
	d->nr_traces = d->nr_cols = 0;
}

uint64_t rr_sweep_point_value(const struct rr_sweep_data *d, uint32_t p, int k, uint32_t hz)
{
	return rr_sweep_param_value(&d->spec.param[k],
				    d->coord[(size_t)p * d->spec.nr_params + k], hz);
}

void rr_sweep_fig_add(struct rr_sweep_fig *sum, const struct rr_sweep_fig *f)
{
	sum->stall_ns += f->stall_ns;
	if (f->p99_ns > sum->p99_ns)
		sum->p99_ns = f->p99_ns;
	sum->episodes += f->episodes;
	sum->sleep_ns += f->sleep_ns;
	sum->scanned += f->scanned;
	sum->reclaimed += f->reclaimed;
	sum->wasted += f->wasted;
}
