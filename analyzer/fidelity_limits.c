// SPDX-License-Identifier: GPL-2.0
/*
 * What limits `validate`'s fidelity figures on one recording, measured from
 * the recording itself so that a user of a trace we never saw learns why
 * `mainline` misses and what recording would tell more (docs/model.md,
 * "What limits the accuracy, and what recording would fix it").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "reclaim_replay/validate.h"
#include "sort_u64.h"

/* Fewer back-to-back timeouts than this say nothing about the cpu wait. */
#define CPU_WAIT_MIN_SAMPLES 20

/*
 * Times of the loss notices, ascending, or NULL with *nr = 0 when the
 * recording lost nothing. Lost events may hide what a task did between two
 * throttles, so a pair with a loss between them is not measured.
 */
static int loss_times(const struct rr_trace *t, uint64_t **out, size_t *nr)
{
	size_t marks = 0, n = 0;

	*out = NULL;
	*nr = 0;
	for (int c = 0; c < t->nr_cpus; c++)
		marks += t->loss_marks_per_cpu ? t->loss_marks_per_cpu[c] : 0;
	if (!marks)
		return 0;
	*out = malloc(marks * sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_events && n < marks; i++)
		if (t->events[i].type == RR_EV_LOST)
			(*out)[n++] = t->events[i].ts;
	*nr = n;	/* events are in time order: so are these */
	return 0;
}

/* A loss notice in (from, to]? */
static int loss_between(const uint64_t *loss, size_t nr, uint64_t from, uint64_t to)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {	/* first notice after @from */
		size_t mid = lo + (hi - lo) / 2;

		if (loss[mid] <= from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nr && loss[lo] <= to;
}

/* The recorded waits from sched_wakeup to resume; 0 of them without wakeups. */
static size_t wakeup_waits(const struct rr_model *m, uint64_t *wait)
{
	size_t n = 0;

	for (uint32_t i = 0; i < m->nr_throttles; i++) {
		const struct rr_throttle *th = &m->throttles[i];

		if (th->reason < RR_REASON_LEGACY_CONGESTION_WAIT && th->woken)
			wait[n++] = (th->end - th->woken) / 1000;
	}
	return n;
}

/*
 * Without wakeups, the estimate: timeouts right after the same task's
 * previous throttle, how late each resumed after that resume plus its
 * timeout. Fills @late; the number of samples or -ENOMEM.
 */
static long back_to_back_waits(const struct rr_model *m, uint64_t *late)
{
	const struct rr_trace *t = m->trace;
	uint64_t *loss;
	size_t n = 0, nr_loss;

	if (loss_times(t, &loss, &nr_loss))
		return -ENOMEM;
	for (uint32_t i = 0; i < m->nr_throttles; i++) {
		const struct rr_throttle *th = &m->throttles[i];
		const struct rr_event *prev;
		uint64_t due;

		if (th->reason >= RR_REASON_LEGACY_CONGESTION_WAIT || th->task == RR_NO_TASK ||
		    !th->usec_timeout || th->usec_delayed < th->usec_timeout)
			continue;
		prev = rr_model_previous_of_task(m, th->event);
		if (!prev || prev->type != RR_EV_THROTTLED ||
		    loss_between(loss, nr_loss, prev->ts, th->end))
			continue;
		due = prev->ts + (uint64_t)th->usec_timeout * 1000;
		late[n++] = th->end > due ? (th->end - due) / 1000 : 0;
	}
	free(loss);
	return (long)n;
}

static int measure_cpu_wait(const struct rr_model *m, uint32_t hz, struct rr_cpu_wait *w)
{
	uint64_t jiffy_us = 1000000 / (hz ? hz : 250);
	uint64_t *wait = malloc(((size_t)m->nr_throttles + 1) * sizeof(*wait));
	long n;

	if (!wait)
		return -ENOMEM;
	n = (long)wakeup_waits(m, wait);
	w->from_wakeups = n > 0;
	if (!w->from_wakeups)
		n = back_to_back_waits(m, wait);
	if (n < 0) {
		free(wait);
		return (int)n;
	}
	w->samples = (uint64_t)n;
	for (long k = 0; k < n; k++)
		w->over_jiffy += wait[k] > jiffy_us;
	rr_sort_u64(wait, (size_t)n);
	w->p50_us = rr_percentile_u64(wait, (size_t)n, 50);
	w->p90_us = rr_percentile_u64(wait, (size_t)n, 90);
	free(wait);
	return 0;
}

int rr_fidelity_limits(const struct rr_model *m, struct rr_validation *v)
{
	int writeback_missed = 0, ret;

	for (int k = 0; k < v->nr_fid; k++) {
		const struct rr_fidelity *f = &v->fid[k];
		double within, err;

		if (!f->throttles)
			continue;
		within = 100.0 * (double)f->within / (double)f->throttles;
		err = 100.0 * fabs(rr_fidelity_error(f));
		if (within >= RR_FIDELITY_WITHIN_TARGET_PCT && err <= RR_FIDELITY_ERROR_TARGET_PCT)
			continue;
		v->targets_missed++;
		writeback_missed |= f->reason == RR_REASON_WRITEBACK;
	}
	ret = measure_cpu_wait(m, v->hz, &v->cpu_wait);
	if (ret || !v->targets_missed)
		return ret;
	/* with wakeups the model waits as recorded: not a limit then */
	if (!v->cpu_wait.from_wakeups && v->cpu_wait.samples >= CPU_WAIT_MIN_SAMPLES &&
	    v->cpu_wait.over_jiffy * 10 >= v->cpu_wait.samples)
		v->limits |= RR_LIMIT_CPU_WAIT;
	if (writeback_missed && !v->sampled)
		v->limits |= RR_LIMIT_NO_SAMPLES;
	return 0;
}
