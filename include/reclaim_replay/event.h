/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The normalized event model: every parser (trace.dat, ftrace text) turns a
 * recording into one struct rr_trace holding compact struct rr_event records
 * in time order. Nothing downstream of the parsers touches libtraceevent.
 */
#ifndef RECLAIM_REPLAY_EVENT_H
#define RECLAIM_REPLAY_EVENT_H

#include <stddef.h>
#include <stdint.h>

#define RR_NID_NONE	(-1)
#define RR_NO_TASK	UINT32_MAX
#define RR_MAX_NODES	64

/*
 * Event kinds the model uses. The payload slots v[] of struct rr_event are
 * named per kind by the RR_V_* indexes below; the field names are the
 * kernel's (include/trace/events/{vmscan,compaction,writeback,block}.h).
 */
enum rr_event_type {
	RR_EV_NONE = 0,
	RR_EV_DIRECT_BEGIN,	/* v: order gfp */
	RR_EV_DIRECT_END,	/* v: nr_reclaimed */
	RR_EV_MEMCG_BEGIN,
	RR_EV_MEMCG_END,
	RR_EV_SOFTLIMIT_BEGIN,
	RR_EV_SOFTLIMIT_END,
	RR_EV_NODE_BEGIN,	/* nid; v: order gfp */
	RR_EV_NODE_END,
	RR_EV_KSWAPD_WAKE,	/* nid; v: order zid */
	RR_EV_KSWAPD_SLEEP,	/* nid */
	RR_EV_WAKEUP_KSWAPD,	/* nid; v: order zid gfp */
	RR_EV_LRU_ISOLATE,	/* aux: lru; v: requested scanned taken skipped order classzone */
	RR_EV_SHRINK_INACTIVE,	/* nid; aux: priority; v: scanned reclaimed dirty writeback congested immediate activate */
	RR_EV_SHRINK_ACTIVE,	/* nid; aux: priority; v: taken active deactivated referenced */
	RR_EV_THROTTLED,	/* nid; aux: reason index; v: usec_timeout usec_delayed */
	RR_EV_CONGESTION_WAIT,	/* legacy; v: usec_timeout usec_delayed */
	RR_EV_WAIT_IFF_CONGESTED, /* legacy; v: usec_timeout usec_delayed */
	RR_EV_WRITE_FOLIO,	/* mm_vmscan_write_folio / mm_vmscan_writepage; nid from pfn; v: pfn_lo pfn_hi flags */
	RR_EV_RECLAIM_PAGES,	/* mm_vmscan_reclaim_pages; nid; v: scanned reclaimed */
	RR_EV_SLAB_START,	/* nid; v: nr_objects_to_shrink total_scan priority */
	RR_EV_SLAB_END,		/* nid; v: retval unused_scan new_scan total_scan */
	RR_EV_COMPACT_ISOLATE_MIGRATE, /* nid from pfn; v: pfn_lo pfn_hi scanned taken */
	RR_EV_COMPACT_ISOLATE_FREE,
	RR_EV_COMPACT_FAST_ISOLATE_FREE,
	RR_EV_COMPACT_MIGRATEPAGES,	/* v: nr_migrated nr_failed */
	RR_EV_COMPACT_BEGIN,		/* nid from pfn; v: sync */
	RR_EV_COMPACT_END,		/* nid from pfn; v: sync status */
	RR_EV_COMPACT_TRY,		/* mm_compaction_try_to_compact_pages; v: order gfp prio */
	RR_EV_KCOMPACTD_WAKE,		/* nid */
	RR_EV_WB_WRITTEN,	/* writeback_written; v: nr_pages */
	RR_EV_WB_PAGES_WRITTEN,	/* writeback_pages_written; v: pages */
	RR_EV_BLOCK_ISSUE,	/* v: dev nr_sector op */
	RR_EV_BLOCK_COMPLETE,	/* v: dev nr_sector op errors */
	RR_EV_COUNTERS,		/* rr-counters sample; nid; v: index into rr_trace.samples */
	RR_EV_META,		/* rr-meta line (already applied to rr_trace) */
	RR_EV_MARKER,		/* any other trace_marker line */
	RR_EV_LOST,		/* events lost on cpu before ts; v: count (0 = unknown) */
	/*
	 * sched_wakeup; task: the waker (the task current on the cpu, as
	 * for every event); v: pid and target cpu of the woken task. The
	 * model reads the woken task's wake-to-run delay from it.
	 */
	RR_EV_SCHED_WAKEUP,
	RR_EV__COUNT
};

/* Payload slot indexes, per kind. */
enum {
	RR_V_ORDER = 0, RR_V_GFP = 1,				/* *_BEGIN */
	RR_V_NR_RECLAIMED_END = 0,				/* *_END */
	RR_V_WAKE_ORDER = 0, RR_V_WAKE_ZID = 1, RR_V_WAKE_GFP = 2,
	RR_V_ISO_REQUESTED = 0, RR_V_ISO_SCANNED = 1, RR_V_ISO_TAKEN = 2,
	RR_V_ISO_SKIPPED = 3, RR_V_ISO_ORDER = 4, RR_V_ISO_CLASSZONE = 5,
	RR_V_SI_SCANNED = 0, RR_V_SI_RECLAIMED = 1, RR_V_SI_DIRTY = 2,
	RR_V_SI_WRITEBACK = 3, RR_V_SI_CONGESTED = 4, RR_V_SI_IMMEDIATE = 5,
	RR_V_SI_ACTIVATE = 6,
	RR_V_SA_TAKEN = 0, RR_V_SA_ACTIVE = 1, RR_V_SA_DEACTIVATED = 2,
	RR_V_SA_REFERENCED = 3,
	RR_V_THR_TIMEOUT = 0, RR_V_THR_DELAYED = 1,
	RR_V_WF_PFN_LO = 0, RR_V_WF_PFN_HI = 1, RR_V_WF_FLAGS = 2,
	RR_V_RP_SCANNED = 0, RR_V_RP_RECLAIMED = 1,
	RR_V_SLAB_FREED = 0,
	RR_V_CI_SCANNED = 2, RR_V_CI_TAKEN = 3,	/* 0..1 hold the pfn */
	RR_V_CM_MIGRATED = 0, RR_V_CM_FAILED = 1,
	RR_V_WB_PAGES = 0,
	RR_V_BLK_DEV = 0, RR_V_BLK_SECTORS = 1, RR_V_BLK_OP = 2,
	RR_V_BLK_ERRORS = 3,
	RR_V_SAMPLE_INDEX = 0,
	RR_V_LOST_COUNT = 0,
	RR_V_SW_PID = 0, RR_V_SW_TARGET_CPU = 1,
	RR_NR_V = 7
};

/* Throttle reasons: index = log2 of the kernel's reason bit. */
enum rr_throttle_reason {
	RR_REASON_WRITEBACK = 0,
	RR_REASON_ISOLATED = 1,
	RR_REASON_NOPROGRESS = 2,
	RR_REASON_CONGESTED = 3,
	RR_REASON_LEGACY_CONGESTION_WAIT = 4,	/* writeback_congestion_wait */
	RR_REASON_LEGACY_WAIT_IFF_CONGESTED = 5,	/* writeback_wait_iff_congested */
	RR_NR_REASONS
};

/* LRU list numbers as in enum lru_list. */
enum rr_lru {
	RR_LRU_INACTIVE_ANON = 0,
	RR_LRU_ACTIVE_ANON = 1,
	RR_LRU_INACTIVE_FILE = 2,
	RR_LRU_ACTIVE_FILE = 3,
	RR_LRU_UNEVICTABLE = 4,
};

enum rr_block_op { RR_BLK_READ, RR_BLK_WRITE, RR_BLK_DISCARD, RR_BLK_OTHER };

/* struct rr_event.flags */
#define RR_EVF_AFTER_LOSS	0x01	/* first event of its cpu after lost events */
#define RR_EVF_FILE		0x02	/* shrink_*: RECLAIM_WB_FILE */
#define RR_EVF_ANON		0x04	/* shrink_*: RECLAIM_WB_ANON */
#define RR_EVF_FIELD_MISSING	0x08	/* an optional field was absent */
#define RR_EVF_CLAMPED		0x10	/* a field was out of range: saturated or clamped to 0 */

/**
 * struct rr_event - one normalized trace record (48 bytes)
 * @ts:   nanoseconds on the trace clock
 * @task: index in rr_trace.tasks of the task that emitted it (RR_NO_TASK for
 *        lost-event notices); the model never looks a pid up per event
 * @cpu:  cpu whose buffer held it
 * @nid:  NUMA node, RR_NID_NONE when the record carries none
 * @type: enum rr_event_type
 * @flags: RR_EVF_*
 * @aux:  small per-kind value (lru, priority, reason)
 * @v:    payload, see the RR_V_* indexes
 */
struct rr_event {
	uint64_t ts;
	uint32_t task;
	uint16_t cpu;
	int16_t nid;
	uint8_t type;
	uint8_t flags;
	uint16_t aux;
	uint32_t v[RR_NR_V];
};

/* Counter keys of an rr-counters sample (design/counter-samples.md). */
enum rr_counter {
	RR_C_NR_FREE_PAGES,
	RR_C_NR_INACTIVE_ANON,
	RR_C_NR_ACTIVE_ANON,
	RR_C_NR_INACTIVE_FILE,
	RR_C_NR_ACTIVE_FILE,
	RR_C_NR_ISOLATED_ANON,
	RR_C_NR_ISOLATED_FILE,
	RR_C_NR_DIRTY,
	RR_C_NR_WRITEBACK,
	RR_C_NR_WRITTEN,
	RR_C_NR_THROTTLED_WRITTEN,
	RR_C_NR_VMSCAN_IMMEDIATE_RECLAIM,
	RR_NR_COUNTERS
};

struct rr_counter_sample {
	uint64_t ts;
	uint64_t value[RR_NR_COUNTERS];
	uint32_t present;	/* bit i set: value[i] was in the line */
	int16_t nid;
};

/* A name with a count: event names seen, ignored or with missing fields. */
struct rr_name_count {
	char *name;
	uint64_t count;
	int used;	/* 1 when the model decodes this event */
};

struct rr_task {
	uint32_t pid;
	char comm[16];
	uint8_t is_kswapd;
	int16_t kswapd_nid;	/* from the "kswapdN" comm, else RR_NID_NONE */
};

struct rr_node_range {
	uint64_t start_pfn, end_pfn;
	int nid;
};

/**
 * struct rr_trace - one decoded recording. Owns everything it points to;
 * free with rr_trace_free(). Pointers handed out stay valid until then.
 */
struct rr_trace {
	char *path;
	char *format;		/* "trace.dat v7 (zstd)", "ftrace text", ... */
	uint64_t file_size;

	struct rr_event *events;	/* sorted by ts */
	size_t nr_events, cap_events;

	struct rr_counter_sample *samples;
	size_t nr_samples, cap_samples;
	uint64_t malformed_samples;

	struct rr_name_count *names;	/* every event name read, with its count */
	size_t nr_names, cap_names;

	struct rr_name_count *missing_fields;	/* "event.field" absent from the format */
	size_t nr_missing_fields, cap_missing_fields;

	struct rr_task *tasks;		/* in order of first appearance */
	size_t nr_tasks, cap_tasks;

	uint64_t records_read;		/* every record the reader saw */
	uint64_t first_record_ts, last_record_ts;	/* over every record read */
	uint64_t records_used;		/* became an rr_event */
	uint64_t records_ignored;	/* counted by name, not modelled */
	uint64_t records_undecodable;	/* known event whose payload could not be read */
	uint64_t records_out_of_order;	/* earlier than a record before them (sorted) */

	uint64_t *lost_per_cpu;		/* events lost, per cpu */
	uint64_t *loss_marks_per_cpu;	/* loss notices per cpu (count may be unknown) */
	int nr_cpus;

	/* From rr-meta lines or the file header; 0 when unknown. */
	int hz;
	int page_size;
	int meta_nodes;
	char kernel[64];
	uint32_t sample_us;
	struct rr_node_range ranges[RR_MAX_NODES];
	int nr_ranges;
	int had_meta;

	int nr_nodes;			/* highest nid seen + 1 (at least 1) */
	int legacy_throttle_events;	/* the format has writeback_congestion_wait etc. */
};

const char *rr_event_type_name(enum rr_event_type type);
const char *rr_reason_name(enum rr_throttle_reason reason);
const char *rr_counter_name(enum rr_counter c);

void rr_trace_free(struct rr_trace *trace);

#endif
