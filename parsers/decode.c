// SPDX-License-Identifier: GPL-2.0
/* Field lookup and per-record decoding shared by tracedat.c and recorder/live.c. */
#include <string.h>

#include "decode.h"
#include "trace_builder.h"

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
}

int rr_decode_fields(const struct rr_decode_type *d, const void *data, int size, int swap,
		     struct rr_event *ev)
{
	const struct rr_event_desc *desc = d->desc;
	int ok = 1;

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
