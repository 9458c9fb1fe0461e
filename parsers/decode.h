/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decoding raw records through libtraceevent's formats, shared by the
 * trace.dat reader and the live view so both read a record identically:
 * each modelled event's fields are looked up by name (or their older
 * kernels' alt_name) once per event type, then read per record at the
 * offset and size the format gives.
 */
#ifndef RR_PARSERS_DECODE_H
#define RR_PARSERS_DECODE_H

#include <stdint.h>
#include <string.h>
#include <event-parse.h>

#include "event_table.h"

/* What is known about one event type, filled by rr_decode_learn(). */
struct rr_decode_type {
	const struct rr_event_desc *desc;	/* NULL: not a modelled event */
	struct tep_format_field *fields[RR_MAX_FIELDS];	/* NULL: absent from the format */
	struct tep_format_field *common_pid;
	uint32_t alt;		/* bit i: field i was found under its alt_name */
	uint8_t undecodable;	/* a required field is absent from the format */
	/*
	 * The fast path, taken from the fields above once per type: every
	 * field present and 1, 2, 4 or 8 bytes (or the rwbs string), so a
	 * record of at least @end bytes in our byte order is read without
	 * per-field checks or pointer chasing.
	 */
	uint8_t fast;
	uint32_t end;
	struct rr_decode_at {
		uint32_t offset;
		uint8_t size;
		uint8_t sign;
		uint8_t op;	/* enum rr_decode_op: how the fast path stores it */
	} at[RR_MAX_FIELDS];
};

/*
 * How the fast path stores a field. Most fields are plain counts that are
 * the only writer of their slot: for them the generic saturating add into a
 * zeroed slot reduces to a store, with a clamp only where the field's size
 * allows a value outside 0..UINT32_MAX.
 */
enum rr_decode_op {
	RR_OP_GENERIC,		/* rr_builder_apply_field() */
	RR_OP_STORE_U8,		/* unsigned 1, 2 or 4 bytes: always fits */
	RR_OP_STORE_U16,
	RR_OP_STORE_U32,
	RR_OP_STORE_S8,		/* signed 1, 2 or 4 bytes: a negative count is clamped to 0 */
	RR_OP_STORE_S16,
	RR_OP_STORE_S32,
	RR_OP_STORE_64,		/* 8 bytes: clamped to 0..UINT32_MAX */
};

/* Look the fields of @e up; d->desc stays NULL when @e is not modelled. */
void rr_decode_learn(struct rr_decode_type *d, struct tep_event *e);

/*
 * Read integer field @f of a record (@data, @size bytes), sign-extending
 * signed fields. @swap: the record's byte order is not this machine's.
 * Sets *ok = 0 (and returns 0) when the field lies outside the record or
 * cannot be read. Inline: it runs for every field of every record.
 */
static inline uint64_t rr_decode_number(const struct tep_format_field *f, const void *data,
					int size, int swap, int *ok)
{
	const unsigned char *p = (const unsigned char *)data + f->offset;
	unsigned long long val;

	if ((unsigned)f->offset + (unsigned)f->size > (unsigned)size) {
		*ok = 0;
		return 0;
	}
	if (!swap && (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8)) {
		uint8_t v8;
		uint16_t v16;
		uint32_t v32;
		uint64_t v64;
		int sign = (f->flags & TEP_FIELD_IS_SIGNED) != 0;

		switch (f->size) {
		case 1: memcpy(&v8, p, 1); return sign ? (uint64_t)(int64_t)(int8_t)v8 : v8;
		case 2: memcpy(&v16, p, 2); return sign ? (uint64_t)(int64_t)(int16_t)v16 : v16;
		case 4: memcpy(&v32, p, 4); return sign ? (uint64_t)(int64_t)(int32_t)v32 : v32;
		default: memcpy(&v64, p, 8); return v64;
		}
	}
	/* tep_read_number_field() swaps; it takes a non-const field */
	if (tep_read_number_field((struct tep_format_field *)f, data, &val)) {
		*ok = 0;
		return 0;
	}
	/* it zero-extends; signed ints (nid == -1) stay negative */
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		unsigned bits = (unsigned)f->size * 8;
		unsigned long long sign = 1ULL << (bits - 1);

		val = (val ^ sign) - sign;
	}
	return val;
}

/*
 * Decode the fields of a record of type @d into @ev (nid, aux, flags, v[]),
 * through rr_builder_apply_field(). A field absent from the format sets
 * RR_EVF_FIELD_MISSING. Returns 0, or -1 when a field could not be read
 * (a record shorter than its format): the caller must then drop the record.
 */
int rr_decode_fields(const struct rr_decode_type *d, const void *data, int size, int swap,
		     struct rr_event *ev);

#endif
