// SPDX-License-Identifier: GPL-2.0
/* Block queue between the trace.dat reader's two threads (record_queue.h). */
#include <stdlib.h>
#include <string.h>

#include "record_queue.h"

int rr_rq_init(struct rr_rq *q)
{
	memset(q, 0, sizeof(*q));
	q->full_tail = &q->full;
	if (pthread_mutex_init(&q->lock, NULL))
		return -1;
	if (pthread_cond_init(&q->cond, NULL)) {
		pthread_mutex_destroy(&q->lock);
		return -1;
	}
	return 0;
}

static void free_list(struct rr_rq_block *b)
{
	while (b) {
		struct rr_rq_block *next = b->next;

		free(b);
		b = next;
	}
}

void rr_rq_destroy(struct rr_rq *q)
{
	free_list(q->full);
	free_list(q->free);
	free(q->cur);
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
	memset(q, 0, sizeof(*q));
}

/* Called with the lock held. */
static void publish(struct rr_rq *q)
{
	if (!q->cur)
		return;
	q->cur->next = NULL;
	*q->full_tail = q->cur;
	q->full_tail = &q->cur->next;
	q->cur = NULL;
	pthread_cond_broadcast(&q->cond);
}

/* A block for the producer: a recycled one, a new one, or wait for one. */
static int next_block(struct rr_rq *q)
{
	struct rr_rq_block *b = NULL;

	pthread_mutex_lock(&q->lock);
	publish(q);
	while (!q->cancelled && !q->free && q->nr_blocks >= RR_RQ_MAX_BLOCKS)
		pthread_cond_wait(&q->cond, &q->lock);
	if (!q->cancelled) {
		if (q->free) {
			b = q->free;
			q->free = b->next;
		} else {
			b = malloc(sizeof(*b));
			if (b)
				q->nr_blocks++;
		}
	}
	pthread_mutex_unlock(&q->lock);
	if (!b)
		return -1;
	b->used = 0;
	q->cur = b;
	return 0;
}

void *rr_rq_reserve_slow(struct rr_rq *q, size_t len)
{
	void *p;

	if (len > RR_RQ_BLOCK_SIZE)
		return NULL;
	if ((!q->cur || q->cur->used + len > RR_RQ_BLOCK_SIZE) && next_block(q))
		return NULL;
	p = q->cur->data + q->cur->used;
	q->cur->used += len;
	return p;
}

void rr_rq_close(struct rr_rq *q)
{
	pthread_mutex_lock(&q->lock);
	publish(q);
	q->closed = 1;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

struct rr_rq_block *rr_rq_take(struct rr_rq *q)
{
	struct rr_rq_block *b;

	pthread_mutex_lock(&q->lock);
	while (!q->full && !q->closed)
		pthread_cond_wait(&q->cond, &q->lock);
	b = q->full;
	if (b) {
		q->full = b->next;
		if (!q->full)
			q->full_tail = &q->full;
	}
	pthread_mutex_unlock(&q->lock);
	return b;
}

void rr_rq_recycle(struct rr_rq *q, struct rr_rq_block *b)
{
	pthread_mutex_lock(&q->lock);
	b->next = q->free;
	q->free = b;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

void rr_rq_cancel(struct rr_rq *q)
{
	pthread_mutex_lock(&q->lock);
	q->cancelled = 1;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}
