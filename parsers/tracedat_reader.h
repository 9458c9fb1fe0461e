/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace.dat reader runs on two threads. The reading thread
 * (tracedat.c) iterates libtracecmd's records in time order, looks each
 * event type up in libtraceevent's formats, decodes the fields of the
 * modelled ones (parsers/decode.c) and queues the results, or a print's
 * text, in a record queue; the building thread (tracedat_consume.c) takes
 * them in the same order and does everything that touches the rr_trace:
 * counting, tasks, markers and counter samples, events. libtracecmd and
 * libtraceevent are only ever called on the reading thread; the builder
 * only on the building thread.
 */
#ifndef RR_PARSERS_TRACEDAT_READER_H
#define RR_PARSERS_TRACEDAT_READER_H

#include <pthread.h>
#include <stdint.h>
#include <event-parse.h>

#include "decode.h"
#include "page_release.h"
#include "record_queue.h"
#include "trace_builder.h"

/* What we learnt about one event id, filled on its first record. */
struct type_info {
	/* Reading thread, before the type's first record is queued: */
	uint8_t ready;
	uint8_t is_print;
	const char *name;		/* the format's event name */
	struct rr_decode_type dec;	/* fields, common_pid (parsers/decode.h) */
	struct tep_format_field *buf;	/* ftrace:print text */
	/* Building thread, on that record: */
	uint8_t named;
	long name_index;
};

/*
 * One queued item; a print's data follows it, the whole padded to 16 bytes.
 * ITEM_RECORD: a modelled event (decoded into ev, or undecodable) or a print.
 */
enum { ITEM_RECORD, ITEM_COUNT, ITEM_BAD, ITEM_LOST };
enum { DEC_OK, DEC_FAILED };
struct rr_item {
	struct rr_event ev;	/* ITEM_RECORD, modelled: nid, aux, flags, v decoded */
	uint64_t ts;
	uint64_t lost;		/* ITEM_LOST: count, 0 when unknown */
	const char *comm;	/* first record of its pid: the pid's command name */
	uint32_t pid;
	int32_t id;		/* event type (ITEM_RECORD, ITEM_COUNT) */
	int32_t cpu;
	uint32_t size;		/* the record's size (ITEM_RECORD) */
	uint32_t copied;	/* bytes of its data that follow (a print's, up to its text's end) */
	uint8_t kind;
	uint8_t dec;		/* ITEM_RECORD, modelled: DEC_OK or DEC_FAILED (undecodable) */
};
#define RR_ITEM_LEN(size)	((sizeof(struct rr_item) + (size_t)(size) + 15) & ~(size_t)15)

struct tracedat_reader {
	/* shared, fixed before the decoding thread starts */
	struct type_info *types;
	int max_id;
	int swap;		/* the file's byte order is not ours */
	struct rr_rq queue;

	/* reading thread */
	struct tep_handle *tep;
	int type_offset;	/* common_type: 2 bytes at this offset, or -1 */
	struct tracecmd_input **handles;
	int nr_handles;
	int nr_cpus;		/* stride of the release streams */
	struct rr_page_release release;
	uint32_t *pids;		/* pids whose comm was looked up: open addressing */
	size_t pid_cap, nr_pids;
	int read_error;		/* -ENOMEM: the queue could take no more */

	/* building thread; read by the other after the join */
	struct rr_builder builder;
	int error;		/* -ENOMEM */
};

/* The building thread's body: @arg is the reader. */
void *rr_tracedat_consume(void *arg);

#endif
