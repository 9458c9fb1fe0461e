/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace.dat reader runs on several threads.
 *
 * Reading threads (tracedat_read.c), one per source: a source is a set of
 * cpu streams that one libtracecmd handle of its own iterates in time
 * order (tracecmd_iterate_events with a cpu set; or, when the file's
 * streams could not be planned, every buffer merged by
 * tracecmd_iterate_events_multi). Each looks the event types up in its
 * handle's libtraceevent formats, decodes the modelled fields
 * (parsers/decode.c) and queues the results in a record queue of its own.
 *
 * The building thread (tracedat_consume.c) merges the sources' queues by
 * (timestamp, buffer, cpu), which is exactly the order in which
 * tracecmd_iterate_events_multi would have delivered the same records (it
 * takes the first smallest timestamp in buffer then cpu order), and does
 * everything that touches the rr_trace: counting, tasks, markers and
 * counter samples, events.
 *
 * libtracecmd and libtraceevent are only called on reading threads, each on
 * its own handles; the builder only on the building thread.
 */
#ifndef RR_PARSERS_TRACEDAT_READER_H
#define RR_PARSERS_TRACEDAT_READER_H

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/stat.h>
#include <event-parse.h>

#include "decode.h"
#include "page_release.h"
#include "record_queue.h"
#include "trace_builder.h"

struct tracecmd_input;
struct rr_format_defer;

/* What a reading thread learnt about one event id, on its first record. */
struct type_info {
	uint8_t ready;
	uint8_t is_print;
	uint8_t queued_one;		/* ignored type: its first record went through the queue */
	const char *name;		/* the format's event name */
	struct rr_decode_type dec;	/* fields, common_pid (parsers/decode.h) */
	struct tep_format_field *buf;	/* ftrace:print text */
	/*
	 * An ignored type's later records, counted on the reading thread
	 * (rr_source_add_counts() adds them once the threads are joined).
	 */
	uint64_t counted, counted_first_ts, counted_last_ts;
};

/* The building thread's side of an event id (the same in every source). */
struct type_name {
	uint8_t named;
	long name_index;
};

/*
 * One queued item; a print's data follows it, the whole padded to 16 bytes.
 * ITEM_RECORD: a modelled event (decoded into ev, or undecodable) or a print.
 * Every item carries its record's merge key: ts, handle, cpu.
 */
enum { ITEM_RECORD, ITEM_COUNT, ITEM_BAD, ITEM_LOST };
enum { DEC_OK, DEC_FAILED };
struct rr_item {
	struct rr_event ev;	/* ITEM_RECORD, modelled: nid, aux, flags, v decoded */
	uint64_t ts;
	uint64_t lost;		/* ITEM_LOST: count, 0 when unknown */
	const char *comm;	/* first record of its pid in its source: the pid's command */
	uint32_t pid;
	int32_t id;		/* event type (ITEM_RECORD, ITEM_COUNT) */
	int32_t cpu;		/* the record's cpu in its buffer */
	uint32_t size;		/* the record's size (ITEM_RECORD) */
	uint32_t copied;	/* bytes of its data that follow (a print's, up to its text's end) */
	uint16_t handle;	/* its buffer: 0 top, then the instances in file order */
	uint8_t kind;
	uint8_t dec;		/* ITEM_RECORD, modelled: DEC_OK or DEC_FAILED (undecodable) */
};
#define RR_ITEM_LEN(size)	((sizeof(struct rr_item) + (size_t)(size) + 15) & ~(size_t)15)

/* Reading threads at most (several buffers with data: one each). */
#define RR_TRACEDAT_MAX_SOURCES	8

struct tracedat_source {
	/* fixed before its reading thread starts */
	struct tracecmd_input **handles;	/* its own open of the file: top, instances */
	int nr_handles;
	int handle;		/* the one handle it iterates; -1: all, merged by libtracecmd */
	cpu_set_t *cpus;	/* that handle's cpus it reads; NULL: every cpu */
	size_t cpus_size;
	struct tep_handle *tep;
	struct rr_format_defer *formats;	/* tep's formats not parsed yet (format_defer.h) */
	int swap;		/* the file's byte order is not ours */
	struct rr_rq queue;
	const char *path;
	/*
	 * Decompressed bytes to read before opening the file again, which
	 * gives back libtracecmd's decompressed chunks (tracedat_reopen.c);
	 * 0: never.
	 */
	uint64_t reopen_bytes;

	/* its reading thread */
	struct type_info *types;
	int max_id;
	int type_offset;	/* common_type: 2 bytes at this offset, or -1 */
	int nr_cpus;		/* stride of the release streams */
	struct rr_page_release release;
	uint32_t *pids;		/* pids whose comm was looked up: open addressing */
	size_t pid_cap, nr_pids;
	int read_error;		/* -ENOMEM: the queue could take no more */
	int iterate_ret;	/* what libtracecmd's iteration returned */
	/* reopening (tracedat_reopen.c) */
	uint64_t *resume;	/* per handle, nr_cpus each: last record's offset + 1, 0: none */
	uint64_t *resume_ts;	/* and its timestamp, to check the record found again */
	struct stat opened;	/* the file as first opened: a reopen must find the same */
	uint64_t since_open;	/* record bytes delivered since the handles were opened */
	int reopen_wanted;	/* the callback stopped the iteration to reopen */
	int followed;		/* the handles' lost-event followers are set */
	int tep_held;		/* s->tep outlives the handles it came with */
	struct rr_format_defer *reopen_formats;	/* the formats the current handles kept */
	uint32_t reopens;	/* for the tests (RR_REOPEN_TRACE) */
	int reopen_failed;	/* a reopen failed; the old handles went on */
	pthread_t thread;
	int started;

	/* the building thread's cursor in its queue */
	struct rr_rq_block *block;
	size_t at;
	int done;
};

struct tracedat_reader {
	struct tracedat_source *src;
	int nr_src;
	/* building thread; read by the others after the join */
	struct type_name *names;	/* per event id, max_id + 1 of them */
	int max_id;
	struct rr_builder builder;
	int error;		/* -ENOMEM */
};

/* How the file's cpu streams are shared between sources (tracedat_plan.c). */
struct rr_section_map;
struct rr_source_plan {
	int handle;		/* index among the handles (0: top buffer) */
	cpu_set_t *cpus;	/* CPU_ALLOC()ed; the source takes it */
	size_t cpus_size;
	uint64_t bytes;		/* data it reads, for balance */
};
/*
 * Plan up to @want sources for the streams the pre-check listed in @map,
 * given the handles' buffer names (@names[0] is the top buffer, ""). Returns
 * the number planned, >= 2; or 0: one source should merge every buffer
 * (a single stream, @want < 2, or streams the plan cannot place exactly).
 */
int rr_tracedat_plan(const struct rr_section_map *map, const char *const *names, int nr_handles,
		     int want, struct rr_source_plan *out);
/* Reading threads wanted for a file of @bytes of event data. */
int rr_tracedat_want_sources(uint64_t bytes);

/* Opening (tracedat.c): the top handle and every instance, as the reader does. */
int rr_tracedat_open_handles(const char *path, int warn, struct tracecmd_input ***out,
			     const char ***names_out, int *nr, struct rr_format_defer **formats);
void rr_tracedat_close_handles(struct tracecmd_input **handles, int nr);

/*
 * Reopening (tracedat_reopen.c). rr_tracedat_reopen_bytes: each of
 * @nr_sources sources' budget for a file compressed as @compression (the
 * pre-check's name), 0 when reopening does not pay. rr_source_reopen_init:
 * before the thread starts; -ENOMEM. rr_source_reopen: on the reading
 * thread once the iteration stopped; 0 when the source now iterates fresh
 * handles from where it was, else the old ones go on (and no more reopens).
 */
uint64_t rr_tracedat_reopen_bytes(const char *compression, int nr_sources);
int rr_source_reopen_init(struct tracedat_source *s);
int rr_source_reopen(struct tracedat_source *s);
void rr_source_reopen_release(struct tracedat_source *s);

/* Reading side (tracedat_read.c). */
int rr_source_init(struct tracedat_source *s);
void rr_source_release(struct tracedat_source *s);
/* The reading thread's body: @arg is its source. Closes the source's queue. */
void *rr_source_run(void *arg);

/*
 * Adds to @b's trace the ignored records @s counted without queueing them
 * (by name through @names, the building thread's side of each id), as
 * rr_builder_count() would have one by one. Call after the threads are
 * joined, on success or failure: the counts are part of records_read
 * either way.
 */
void rr_source_add_counts(const struct tracedat_source *s, const struct type_name *names,
			  struct rr_builder *b);

/* The building thread's body: @arg is the reader. */
void *rr_tracedat_consume(void *arg);

#endif
