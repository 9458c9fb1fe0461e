/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A single-producer single-consumer queue of byte blocks, for handing the
 * records libtracecmd delivers on one thread to the decoder on another in
 * the same order. The producer appends variable-length items to its current
 * block and publishes whole blocks, so the two threads synchronize once per
 * block (thousands of records), not per record. At most RR_RQ_MAX_BLOCKS
 * blocks exist: a producer ahead of the consumer waits for a free one, so
 * the queue's memory stays bounded whatever the trace size.
 */
#ifndef RR_PARSERS_RECORD_QUEUE_H
#define RR_PARSERS_RECORD_QUEUE_H

#include <pthread.h>
#include <stddef.h>

#define RR_RQ_BLOCK_SIZE	(256u << 10)
#define RR_RQ_MAX_BLOCKS	8

struct rr_rq_block {
	struct rr_rq_block *next;
	size_t used;
	_Alignas(16) unsigned char data[RR_RQ_BLOCK_SIZE];
};

struct rr_rq {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct rr_rq_block *full, **full_tail;	/* published, oldest first */
	struct rr_rq_block *free;		/* handed back by the consumer */
	int nr_blocks;
	int closed;		/* the producer is done */
	int cancelled;		/* the consumer gave up: the producer should stop */
	struct rr_rq_block *cur;	/* the producer's block being filled */
};

int rr_rq_init(struct rr_rq *q);
void rr_rq_destroy(struct rr_rq *q);

/*
 * Producer: room for an item of @len bytes (<= RR_RQ_BLOCK_SIZE, a multiple
 * of 16 keeps items aligned), NULL on OOM or when the consumer cancelled.
 */
void *rr_rq_reserve_slow(struct rr_rq *q, size_t len);
static inline void *rr_rq_reserve(struct rr_rq *q, size_t len)
{
	struct rr_rq_block *b = q->cur;
	void *p;

	/* inline: it runs for every record */
	if (!b || b->used + len > RR_RQ_BLOCK_SIZE)
		return rr_rq_reserve_slow(q, len);
	p = b->data + b->used;
	b->used += len;
	return p;
}
/* Producer: publish what is buffered and tell the consumer nothing follows. */
void rr_rq_close(struct rr_rq *q);

/* Consumer: the next published block (oldest first), NULL once closed and drained. */
struct rr_rq_block *rr_rq_take(struct rr_rq *q);
void rr_rq_recycle(struct rr_rq *q, struct rr_rq_block *b);
/* Consumer: stop the producer (its reserves now fail). */
void rr_rq_cancel(struct rr_rq *q);

#endif
