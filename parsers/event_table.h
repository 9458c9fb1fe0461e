/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events the model decodes, and how each kernel field maps to a slot of
 * struct rr_event. Shared by the trace.dat and the text reader so both
 * decode the same fields the same way.
 */
#ifndef RR_PARSERS_EVENT_TABLE_H
#define RR_PARSERS_EVENT_TABLE_H

#include <stdint.h>
#include "reclaim_replay/event.h"

#define RR_SLOT_NID	(-1)
#define RR_SLOT_AUX	(-2)
#define RR_SLOT_RECLAIM_FLAGS (-3)	/* sets RR_EVF_FILE / RR_EVF_ANON */
#define RR_SLOT_PFN	(-4)		/* v[0..1] = pfn, nid from rr-meta ranges */

/* How a field's value becomes a slot value. */
enum rr_conv {
	RR_CONV_NUM,		/* plain integer, saturated to 32 bits */
	RR_CONV_REASON_BIT,	/* 1 << reason -> reason index */
	RR_CONV_LRU,		/* enum lru_list number or its name */
	RR_CONV_RWBS,		/* "WS", "R", "D"... -> enum rr_block_op */
	RR_CONV_DEV,		/* kernel dev_t (major << 20 | minor) */
	RR_CONV_FILE_LRU,	/* "int file" of 4.8-4.10 lru_isolate: 1 -> inactive_file, 0 -> inactive_anon */
};

#define RR_MAX_FIELDS 12

struct rr_field_map {
	const char *name;	/* field name in the format */
	const char *text_alias;	/* name printed by the event's print fmt, or NULL */
	const char *alt_name;	/* older kernels' name for the field (format and text), or NULL */
	uint8_t alt_conv;	/* conversion when alt_name matched; 0: same as conv */
	int8_t slot;		/* 0..RR_NR_V-1 or RR_SLOT_* */
	uint8_t conv;		/* enum rr_conv */
	uint8_t required;	/* the event is undecodable without it */
};

struct rr_event_desc {
	const char *system;
	const char *name;
	enum rr_event_type type;
	int nr_fields;
	struct rr_field_map fields[RR_MAX_FIELDS];
};

/*
 * The raw value of a field found under its alt_name, turned into what the
 * current name would hold (e.g. lru_isolate's "file" flag -> an lru number).
 */
uint64_t rr_field_alt_value(const struct rr_field_map *m, uint64_t value);

/* Look an event up by name (system may be NULL); NULL when not modelled. */
const struct rr_event_desc *rr_event_desc_find(const char *system, const char *name);

/* The ftrace:print event carries counter samples and markers. */
int rr_is_print_event(const char *system, const char *name);

/* Conversions shared by both readers. Return -1 when the text is unknown. */
int rr_reason_from_bits(uint64_t bits);
int rr_reason_from_text(const char *s, size_t len);
int rr_lru_from_text(const char *s, size_t len);
int rr_rwbs_op(const char *s, size_t len);
unsigned rr_reclaim_flags_from_text(const char *s, size_t len);

/* Reclaim flags bits as in include/trace/events/vmscan.h */
#define RR_RECLAIM_WB_ANON	0x0001u
#define RR_RECLAIM_WB_FILE	0x0002u

#endif
