/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one path by which readers add to an rr_trace: events, event-name
 * counts, tasks, lost-event notices, marker lines (counter samples, rr-meta)
 * and, at the end, sorting and node attribution from pfn ranges.
 * Both the trace.dat and the text reader go through here, so the two decode
 * a recording into identical models.
 */
#ifndef RR_PARSERS_TRACE_BUILDER_H
#define RR_PARSERS_TRACE_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "reclaim_replay/event.h"
#include "event_table.h"

/* Per-task and per-cpu bookkeeping the builder keeps while reading. */
struct rr_builder {
	struct rr_trace *trace;
	uint32_t *pid_slots;	/* open addressing: pid of each slot, or empty */
	uint32_t *task_slots;	/* index in trace->tasks of each slot's pid */
	size_t pid_cap;
	uint8_t *cpu_after_loss; /* per cpu: next event follows a loss */
	int cpu_cap;
	uint64_t last_ts;
	int unsorted;
	size_t populated;	/* bytes of the event array made resident ahead */
};

int rr_builder_init(struct rr_builder *b, struct rr_trace *trace);
void rr_builder_release(struct rr_builder *b);

/*
 * Count one record of event @name. Returns the index in trace->names (stable
 * for the whole read, so readers may cache it per event id), or -1 on OOM.
 * @used: 1 when the model decodes the event.
 */
long rr_builder_name_index(struct rr_builder *b, const char *name, int used);
/* Count @n records of @name_index seen between @first_ts and @last_ts. */
static inline void rr_builder_count_many(struct rr_builder *b, long name_index, uint64_t n,
					 uint64_t first_ts, uint64_t last_ts)
{
	struct rr_trace *t = b->trace;

	t->names[name_index].count += n;
	/* The span covers every record, modelled or not: open episodes and
	 * kswapd spans run to the trace's real edges. */
	if (!t->records_read || first_ts < t->first_record_ts)
		t->first_record_ts = first_ts;
	if (last_ts > t->last_record_ts)
		t->last_record_ts = last_ts;
	t->records_read += n;
}

static inline void rr_builder_count(struct rr_builder *b, long name_index, uint64_t ts)
{
	rr_builder_count_many(b, name_index, 1, ts, ts);
}

/* Note that @event lacks optional @field (once per event type, not per record). */
int rr_builder_missing_field(struct rr_builder *b, const char *event, const char *field);

/* A new zeroed event of task @pid (registered if new); NULL on OOM. */
struct rr_event *rr_builder_push(struct rr_builder *b, uint64_t ts, uint32_t pid, int cpu,
				 enum rr_event_type type);

/* rr_builder_push() for a task already known by its index (rr_builder_task_lookup). */
struct rr_event *rr_builder_push_task(struct rr_builder *b, uint64_t ts, uint32_t task, int cpu,
				      enum rr_event_type type);

static inline uint32_t rr_sat32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/*
 * Store one decoded numeric field into @ev per the table's mapping.
 * Inline: it runs for every field of every record of both readers.
 */
static inline void rr_builder_apply_field(struct rr_event *ev, const struct rr_field_map *f,
					  uint64_t value)
{
	int reason;

	switch (f->slot) {
	case RR_SLOT_NID:
		/* nid is an int in every format; -1 (NUMA_NO_NODE) stays "none" */
		ev->nid = (int64_t)value < 0 || value >= RR_MAX_NODES ? RR_NID_NONE : (int16_t)value;
		return;
	case RR_SLOT_AUX:
		if (f->conv == RR_CONV_REASON_BIT) {
			reason = rr_reason_from_bits(value);
			ev->aux = reason < 0 ? UINT16_MAX : (uint16_t)reason;
		} else {
			ev->aux = value > UINT16_MAX ? UINT16_MAX : (uint16_t)value;
		}
		return;
	case RR_SLOT_RECLAIM_FLAGS:
		if (value & RR_RECLAIM_WB_FILE)
			ev->flags |= RR_EVF_FILE;
		if (value & RR_RECLAIM_WB_ANON)
			ev->flags |= RR_EVF_ANON;
		return;
	case RR_SLOT_PFN:
		ev->v[0] = (uint32_t)value;
		ev->v[1] = (uint32_t)(value >> 32);
		return;
	default:
		break;
	}
	if (f->slot < 0 || f->slot >= RR_NR_V)
		return;
	/* Counts are unsigned in the kernel; a negative long (writeback's
	 * nr_pages budget) is clamped to 0 rather than wrapped. */
	if ((int64_t)value < 0 && f->conv == RR_CONV_NUM) {
		value = 0;
		ev->flags |= RR_EVF_CLAMPED;
	}
	/* saturating: a second field into the same slot must not wrap */
	value = value > UINT32_MAX - ev->v[f->slot] ? UINT32_MAX + 1ULL : value + ev->v[f->slot];
	if (value > UINT32_MAX)
		ev->flags |= RR_EVF_CLAMPED;
	ev->v[f->slot] = rr_sat32(value);
}

/* Remember @pid's command name (also for a pid first seen through push). */
int rr_builder_task(struct rr_builder *b, uint32_t pid, const char *comm);
int rr_builder_task_known(const struct rr_builder *b, uint32_t pid);
/* Index of @pid's task in trace->tasks, or RR_NO_TASK when not seen yet. */
uint32_t rr_builder_task_lookup(const struct rr_builder *b, uint32_t pid);

/* @count events were lost on @cpu just before @ts (count 0: unknown). */
int rr_builder_lost(struct rr_builder *b, int cpu, uint64_t ts, uint64_t count);

/*
 * A trace_marker (ftrace:print) line: rr-meta and rr-counters lines are
 * decoded, others become RR_EV_MARKER. Trailing newlines are ignored.
 */
int rr_builder_print(struct rr_builder *b, uint64_t ts, uint32_t pid, int cpu,
		     const char *text, size_t len);

/* Sort by time if needed, attribute pfns to nodes, sort tasks. */
int rr_builder_finish(struct rr_builder *b);

#endif
