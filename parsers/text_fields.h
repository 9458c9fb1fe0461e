/* SPDX-License-Identifier: GPL-2.0 */
/* The text reader's field decoding: one event's printed body to values. */
#ifndef RR_PARSERS_TEXT_FIELDS_H
#define RR_PARSERS_TEXT_FIELDS_H

#include <stdint.h>

#include "event_table.h"

struct text_values {
	uint64_t v[RR_MAX_FIELDS];
	uint8_t have[RR_MAX_FIELDS];
	uint8_t opaque[RR_MAX_FIELDS];	/* printed, but not as a value we can read back */
};

/*
 * rr_text_event_values - read descriptor @d's fields from the printed body
 * [@body, @end) of one event line into @out (have[i] set per field found,
 * opaque[i] when it is printed but cannot be turned back into a value).
 */
void rr_text_event_values(const struct rr_event_desc *d, const char *body, const char *end,
			  struct text_values *out);

#endif
