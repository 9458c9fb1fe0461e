// SPDX-License-Identifier: GPL-2.0
/*
 * A fixed set of pthreads taking numbered jobs from a shared counter: the
 * jobs (one replay each) are independent and of uneven length, so a counter
 * balances them better than fixed shares. The calling thread only reports
 * progress.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "reclaim_replay/error.h"
#include "sweep/sweep.h"

struct pool {
	rr_pool_fn fn;
	void *ctx;
	size_t nr_jobs;
	atomic_size_t next, done;
	atomic_int failed;	/* the first failure's exit code */
};

static void *worker(void *arg)
{
	struct pool *p = arg;

	while (!atomic_load(&p->failed)) {
		size_t j = atomic_fetch_add(&p->next, 1);
		int ret;

		if (j >= p->nr_jobs)
			break;
		ret = p->fn(p->ctx, j);
		if (ret) {
			int zero = 0;

			atomic_compare_exchange_strong(&p->failed, &zero, ret);
			break;
		}
		atomic_fetch_add(&p->done, 1);
	}
	return NULL;
}

int rr_pool_default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

int rr_pool_run(int nr_threads, size_t nr_jobs, rr_pool_fn fn, void *ctx,
		rr_pool_progress progress, void *progress_ctx)
{
	struct pool p = { .fn = fn, .ctx = ctx, .nr_jobs = nr_jobs };
	pthread_t *th;
	int started = 0;

	atomic_init(&p.next, 0);
	atomic_init(&p.done, 0);
	atomic_init(&p.failed, 0);
	if (nr_threads < 1)
		nr_threads = 1;
	if ((size_t)nr_threads > nr_jobs)
		nr_threads = nr_jobs ? (int)nr_jobs : 1;
	th = calloc((size_t)nr_threads, sizeof(*th));
	if (!th)
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	for (int i = 0; i < nr_threads; i++) {
		if (pthread_create(&th[i], NULL, worker, &p))
			break;
		started++;
	}
	if (!started) {
		/* no thread at all: do the work here rather than fail */
		worker(&p);
	}
	while (progress && started) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		size_t done = atomic_load(&p.done);

		progress(progress_ctx, done, nr_jobs);
		if (done >= nr_jobs || atomic_load(&p.failed))
			break;
		nanosleep(&ts, NULL);
	}
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	if (progress)
		progress(progress_ctx, atomic_load(&p.done), nr_jobs);
	free(th);
	return atomic_load(&p.failed);
}
