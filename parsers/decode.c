// SPDX-License-Identifier: GPL-2.0
/* Field lookup and per-record decoding shared by tracedat.c and recorder/live.c. */
#include <string.h>

#include "decode.h"
#include "trace_builder.h"

/*
 * The store a field of the fast path can use (decode.h): a plain count that
 * is the only field of its slot, found under its own name.
 */
static uint8_t store_op(const struct rr_decode_type *d, int i)
{
	const struct rr_event_desc *desc = d->desc;
	const struct rr_field_map *m = &desc->fields[i];

	if (m->conv != RR_CONV_NUM || m->slot < 0 || m->slot >= RR_NR_V || (d->alt & (1u << i)))
		return RR_OP_GENERIC;
	for (int j = 0; j < desc->nr_fields; j++)
		if (j != i && d->fields[j] && desc->fields[j].slot == m->slot)
			return RR_OP_GENERIC;
	switch (d->at[i].size) {
	case 1: return d->at[i].sign ? RR_OP_STORE_S8 : RR_OP_STORE_U8;
	case 2: return d->at[i].sign ? RR_OP_STORE_S16 : RR_OP_STORE_U16;
	case 4: return d->at[i].sign ? RR_OP_STORE_S32 : RR_OP_STORE_U32;
	default: return RR_OP_STORE_64;
	}
}

/* Fill the fast path of @d from its looked-up fields, when it applies. */
static void plan(struct rr_decode_type *d)
{
	const struct rr_event_desc *desc = d->desc;

	d->fast = !d->undecodable;
	d->end = 0;
	for (int i = 0; d->fast && i < desc->nr_fields; i++) {
		const struct tep_format_field *f = d->fields[i];
		int rwbs = desc->fields[i].conv == RR_CONV_RWBS;

		if (!f || f->offset < 0 || f->size <= 0 || (rwbs && f->size > 255) ||
		    (!rwbs && f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)) {
			d->fast = 0;
			break;
		}
		d->at[i].offset = (uint32_t)f->offset;
		d->at[i].size = (uint8_t)f->size;
		d->at[i].sign = (f->flags & TEP_FIELD_IS_SIGNED) != 0;
		if ((uint32_t)f->offset + (uint32_t)f->size > d->end)
			d->end = (uint32_t)f->offset + (uint32_t)f->size;
	}
	for (int i = 0; d->fast && i < desc->nr_fields; i++)
		d->at[i].op = store_op(d, i);
}

static inline uint64_t load(const unsigned char *p, const struct rr_decode_at *a)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (a->size) {
	case 1: memcpy(&v8, p, 1); return a->sign ? (uint64_t)(int64_t)(int8_t)v8 : v8;
	case 2: memcpy(&v16, p, 2); return a->sign ? (uint64_t)(int64_t)(int16_t)v16 : v16;
	case 4: memcpy(&v32, p, 4); return a->sign ? (uint64_t)(int64_t)(int32_t)v32 : v32;
	default: memcpy(&v64, p, 8); return v64;
	}
}

/* rr_decode_fields() for a record the fast path covers: same values. */
static void decode_fast(const struct rr_decode_type *d, const unsigned char *data,
			struct rr_event *ev)
{
	const struct rr_event_desc *desc = d->desc;

	for (int i = 0; i < desc->nr_fields; i++) {
		const struct rr_field_map *m = &desc->fields[i];
		const struct rr_decode_at *a = &d->at[i];
		const unsigned char *p = data + a->offset;
		uint64_t val;
		int64_t sval;
		uint16_t v16;
		uint32_t v32;

		/* the same values rr_builder_apply_field() would leave (decode.h) */
		switch (a->op) {
		case RR_OP_STORE_U8:
			ev->v[m->slot] = *p;
			continue;
		case RR_OP_STORE_U16:
			memcpy(&v16, p, 2);
			ev->v[m->slot] = v16;
			continue;
		case RR_OP_STORE_U32:
			memcpy(&ev->v[m->slot], p, 4);
			continue;
		case RR_OP_STORE_S8:
			sval = (int8_t)*p;
			goto store_signed;
		case RR_OP_STORE_S16:
			memcpy(&v16, p, 2);
			sval = (int16_t)v16;
			goto store_signed;
		case RR_OP_STORE_S32:
			memcpy(&v32, p, 4);
			sval = (int32_t)v32;
store_signed:
			if (sval < 0) {
				ev->flags |= RR_EVF_CLAMPED;
				sval = 0;
			}
			ev->v[m->slot] = (uint32_t)sval;
			continue;
		case RR_OP_STORE_64:
			memcpy(&val, p, 8);
			if ((int64_t)val < 0 || val > UINT32_MAX) {
				ev->flags |= RR_EVF_CLAMPED;
				val = (int64_t)val < 0 ? 0 : UINT32_MAX;
			}
			ev->v[m->slot] = (uint32_t)val;
			continue;
		default:
			break;
		}
		if (m->conv == RR_CONV_RWBS) {
			const char *str = (const char *)p;

			val = (uint64_t)rr_rwbs_op(str, strnlen(str, a->size));
		} else {
			val = load(p, a);
		}
		if (d->alt & (1u << i))
			val = rr_field_alt_value(m, val);
		rr_builder_apply_field(ev, m, val);
	}
}

void rr_decode_learn(struct rr_decode_type *d, struct tep_event *e)
{
	const struct rr_event_desc *desc = rr_event_desc_find(e->system, e->name);

	memset(d, 0, sizeof(*d));
	d->desc = desc;
	d->common_pid = tep_find_common_field(e, "common_pid");
	if (!desc)
		return;
	for (int i = 0; i < desc->nr_fields; i++) {
		const struct rr_field_map *m = &desc->fields[i];

		d->fields[i] = tep_find_field(e, m->name);
		if (!d->fields[i] && m->alt_name) {
			d->fields[i] = tep_find_field(e, m->alt_name);
			if (d->fields[i])
				d->alt |= 1u << i;
		}
		if (!d->fields[i] && m->required)
			d->undecodable = 1;
	}
	plan(d);
}

int rr_decode_fields(const struct rr_decode_type *d, const void *data, int size, int swap,
		     struct rr_event *ev)
{
	const struct rr_event_desc *desc = d->desc;
	int ok = 1;

	if (d->fast && !swap && size >= 0 && (uint32_t)size >= d->end) {
		decode_fast(d, data, ev);
		return 0;
	}
	for (int i = 0; i < desc->nr_fields; i++) {
		const struct tep_format_field *f = d->fields[i];
		const struct rr_field_map *m = &desc->fields[i];
		uint64_t val;

		if (!f) {
			ev->flags |= RR_EVF_FIELD_MISSING;
			continue;
		}
		if (m->conv == RR_CONV_RWBS) {
			const char *s = (const char *)data + f->offset;

			if ((unsigned)f->offset + (unsigned)f->size > (unsigned)size) {
				ok = 0;
				continue;
			}
			val = (uint64_t)rr_rwbs_op(s, strnlen(s, (size_t)f->size));
		} else {
			val = rr_decode_number(f, data, size, swap, &ok);
		}
		if (d->alt & (1u << i))
			val = rr_field_alt_value(m, val);
		rr_builder_apply_field(ev, m, val);
	}
	return ok ? 0 : -1;
}
