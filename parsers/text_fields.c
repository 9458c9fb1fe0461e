// SPDX-License-Identifier: GPL-2.0
/*
 * Turning an event's printed fields back into the values the trace.dat
 * reader reads from the raw record: "key=value" pairs under the field's
 * name or its print-format alias, symbolic values (reasons, LRUs, flags),
 * and the positional formats of block events and slab shrinkers.
 */
#include <stdlib.h>
#include <string.h>

#include "text_fields.h"
#include "text_lex.h"

#define MAX_PAIRS	48		/* key=value pairs looked at per line */

/* A "key=value" pair of an event's printed fields. */
struct pair {
	const char *key, *val;
	size_t klen, vlen;
};

/*
 * A whole value token as a number: optional '(' (compaction's range=),
 * optional sign; trailing ')' or ',' allowed. Negative values come back
 * two's complement, as the trace.dat reader sign-extends signed fields.
 */
static int value_number(const char *s, size_t len, uint64_t *out)
{
	const char *p = s, *end = s + len;
	int neg = 0;
	uint64_t v;

	if (p < end && *p == '(')
		p++;
	if (p < end && *p == '-') {
		neg = 1;
		p++;
	}
	if (!read_uint(&p, end, &v))
		return 0;
	while (p < end && (*p == ')' || *p == ','))
		p++;
	if (p != end)
		return 0;
	if (neg)
		v = v > (uint64_t)INT64_MAX ? (uint64_t)INT64_MIN : (uint64_t)-(int64_t)v;
	*out = v;
	return 1;
}

/* ---- symbolic values printed by the kernel's print formats ---- */

struct symbol {
	const char *name;
	uint64_t value;
};

/* include/trace/events/vmscan.h show_reclaim_flags() */
static const struct symbol reclaim_flag_names[] = {
	{ "RECLAIM_WB_ANON", 0x1 }, { "RECLAIM_WB_FILE", 0x2 }, { "RECLAIM_WB_SYNC", 0x4 },
	{ "RECLAIM_WB_ASYNC", 0x8 }, { "RECLAIM_WB_MIXED", 0x10 }, { "RECLAIM_WB_NONE", 0 },
	{ NULL, 0 }
};

/* include/trace/events/compaction.h COMPACTION_STATUS (enum compact_result, 6.x) */
static const struct symbol compact_status_names[] = {
	{ "not_suitable_zone", 0 }, { "skipped", 1 }, { "deferred", 2 },
	{ "no_suitable_page", 3 }, { "continue", 4 }, { "complete", 5 },
	{ "partial_skipped", 6 }, { "contended", 7 }, { "success", 8 },
	{ NULL, 0 }
};

static const struct symbol sync_names[] = { { "sync", 1 }, { "async", 0 }, { NULL, 0 } };

/* gfp masks print symbolically with kernel-specific bits; only 0 is known */
static const struct symbol gfp_names[] = { { "none", 0 }, { NULL, 0 } };

static int symbol_value(const struct symbol *tab, const char *s, size_t len, uint64_t *out)
{
	for (; tab->name; tab++) {
		if (word_is(s, len, tab->name)) {
			*out = tab->value;
			return 1;
		}
	}
	return 0;
}

/* One '|'-separated part of a throttle reason: a name, NONE or a number. */
static int reason_part(const char *s, size_t len, uint64_t *bits)
{
	int idx;

	if (value_number(s, len, bits))
		return 1;
	if (word_is(s, len, "VMSCAN_THROTTLE_NONE")) {
		*bits = 0;
		return 1;
	}
	idx = rr_reason_from_text(s, len);
	if (idx < 0)
		return 0;
	*bits = 1ull << idx;
	return 1;
}

/*
 * __print_flags() output: known names joined by '|', unknown bits as a
 * trailing hex number. Back to the raw bits, as trace.dat stores them.
 */
static int flags_value(const char *s, size_t len, const struct symbol *tab, uint64_t *out)
{
	const char *end = s + len;
	uint64_t all = 0, part;

	if (!len)
		return 0;
	while (s < end) {
		const char *bar = memchr(s, '|', (size_t)(end - s));
		size_t n = bar ? (size_t)(bar - s) : (size_t)(end - s);
		int ok = tab ? (value_number(s, n, &part) || symbol_value(tab, s, n, &part))
			     : reason_part(s, n, &part);

		if (!ok)
			return 0;
		all |= part;
		s += n + (bar ? 1 : 0);
	}
	*out = all;
	return 1;
}

/* Turn the printed text of field @m into the raw value trace.dat would hold. */
static int convert_value(const struct rr_field_map *m, const char *s, size_t len, uint64_t *out)
{
	int lru;

	switch (m->conv) {
	case RR_CONV_REASON_BIT:
		return flags_value(s, len, NULL, out);
	case RR_CONV_LRU:
		if (value_number(s, len, out))
			return 1;
		lru = rr_lru_from_text(s, len);
		*out = (uint64_t)lru;
		return lru >= 0;
	default:
		break;
	}
	if (m->slot == RR_SLOT_RECLAIM_FLAGS || !strcmp(m->name, "reclaim_flags"))
		return flags_value(s, len, reclaim_flag_names, out);
	if (value_number(s, len, out))
		return 1;
	if (!strcmp(m->name, "sync"))
		return symbol_value(sync_names, s, len, out);
	if (!strcmp(m->name, "status"))
		return symbol_value(compact_status_names, s, len, out);
	if (strstr(m->name, "gfp"))
		return symbol_value(gfp_names, s, len, out);
	return 0;
}

/* ---- finding a field's text in an event body ---- */

/* Split "a=1 b=xyz c=(0x1 ~ 0x2)" into pairs; values end at a space. */
static int split_pairs(const char *p, const char *end, struct pair *pairs)
{
	int n = 0;

	while (n < MAX_PAIRS && (p = memchr(p, '=', (size_t)(end - p)))) {
		const char *k = p, *v = p + 1;

		while (k > pairs[0].key && is_word(k[-1]))
			k--;
		if (k == p) {
			p++;
			continue;
		}
		p = v;
		while (p < end && *p != ' ')
			p++;
		pairs[n].key = k;
		pairs[n].klen = (size_t)(v - 1 - k);
		pairs[n].val = v;
		pairs[n].vlen = (size_t)(p - v);
		/* "zone_end=0x1000, mode=sync": the comma is punctuation */
		if (pairs[n].vlen && v[pairs[n].vlen - 1] == ',')
			pairs[n].vlen--;
		n++;
	}
	return n;
}

/* Slab shrinker formats print "nid: 0 objects to shrink 12 ... priority 12". */
static const char *const phrases[][2] = {
	{ "nid", "nid:" },
	{ "nr_objects_to_shrink", "objects to shrink" },
	{ "unused_scan", "unused scan count" },
	{ "new_scan", "new scan count" },
	{ "total_scan", "total_scan" },
	{ "priority", "priority" },
	/* retval: its text_alias "last shrinker return val" */
};

static const struct pair *find_pair(const struct pair *pairs, int n, const char *key)
{
	size_t len;

	if (!key)
		return NULL;
	len = strlen(key);
	for (int i = 0; i < n; i++)
		if (pairs[i].klen == len && !memcmp(pairs[i].key, key, len))
			return &pairs[i];
	return NULL;
}

/*
 * The field's "key=value" under its name, the word its print format uses
 * (text_alias) or its older kernels' name (alt_name, as the trace.dat reader
 * tries it: *alt is set then).
 */
static const struct pair *lookup_pair(const struct pair *pairs, int n,
				      const struct rr_field_map *m, int *alt)
{
	const struct pair *p = find_pair(pairs, n, m->name);

	*alt = 0;
	if (!p && m->text_alias && !strchr(m->text_alias, ' '))
		p = find_pair(pairs, n, m->text_alias);
	if (!p && m->alt_name) {
		p = find_pair(pairs, n, m->alt_name);
		*alt = p != NULL;
	}
	return p;
}

/* "<phrase> <value>" at a word boundary; the value is the next token. */
static int lookup_phrase(const char *body, const char *end, const struct rr_field_map *m,
			 const char **val, size_t *vlen)
{
	const char *phrase = NULL, *p = body;
	size_t plen;

	/* a text_alias with a space is a phrase ("last shrinker return val") */
	if (m->text_alias && strchr(m->text_alias, ' '))
		phrase = m->text_alias;
	for (size_t i = 0; !phrase && i < sizeof(phrases) / sizeof(phrases[0]); i++)
		if (!strcmp(m->name, phrases[i][0]))
			phrase = phrases[i][1];
	if (!phrase)
		return 0;
	plen = strlen(phrase);
	while ((p = memmem(p, (size_t)(end - p), phrase, plen))) {
		const char *v = p + plen;

		if ((p == body || p[-1] == ' ') && v < end && *v == ' ') {
			v = skip_spaces(v, end);
			*val = v;
			while (v < end && *v != ' ')
				v++;
			*vlen = (size_t)(v - *val);
			return *vlen > 0;
		}
		p++;
	}
	return 0;
}

/* ---- decoding one modelled event ---- */


static void set_value(const struct rr_event_desc *d, struct text_values *out, const char *field,
		      uint64_t v)
{
	for (int i = 0; i < d->nr_fields; i++) {
		if (!strcmp(d->fields[i].name, field)) {
			out->v[i] = v;
			out->have[i] = 1;
		}
	}
}

/*
 * block_rq_issue:    "254,0 W 4096 () 123 + 8 [dd]" (+ " 0x2,0,4" ioprio on 6.x)
 * block_rq_complete: "254,0 WS () 33842984 + 8 0x2,0,4 [0]"
 */
static void block_values(const struct rr_event_desc *d, const char *p, const char *end,
			 struct text_values *out)
{
	uint64_t major, minor, nr;
	const char *rwbs, *plus, *lb;

	p = skip_spaces(p, end);
	if (!read_uint(&p, end, &major) || p >= end || *p != ',')
		return;
	p++;
	if (!read_uint(&p, end, &minor) || p >= end || *p != ' ' || major > 0xfff ||
	    minor > 0xfffff)
		return;
	set_value(d, out, "dev", major << 20 | minor);
	rwbs = p = skip_spaces(p, end);
	while (p < end && *p != ' ')
		p++;
	if (p > rwbs)
		set_value(d, out, "rwbs", (uint64_t)(int64_t)rr_rwbs_op(rwbs, (size_t)(p - rwbs)));
	plus = memmem(p, (size_t)(end - p), " + ", 3);
	if (plus) {
		p = plus + 3;
		if (read_uint(&p, end, &nr))
			set_value(d, out, "nr_sector", nr);
	}
	/* complete's last "[N]" is the error; issue's is a comm */
	lb = end;
	while (lb > p && lb[-1] != '[')
		lb--;
	if (lb > p && end[-1] == ']') {
		uint64_t err;

		if (value_number(lb, (size_t)(end - 1 - lb), &err))
			set_value(d, out, "error", err);
	}
}

/* writeback_pages_written prints only "%ld". */
static void single_value(const struct rr_event_desc *d, const char *p, const char *end,
			 struct text_values *out)
{
	uint64_t v;

	p = skip_spaces(p, end);
	if (d->nr_fields == 1 && value_number(p, (size_t)(end - p), &v))
		set_value(d, out, d->fields[0].name, v);
}

/*
 * sched_wakeup as trace-cmd's sched plugin prints it: "comm:pid [prio]
 * CPU:nnn" (the comm may hold ':' and spaces, so the pid is the number
 * right before the last " [").
 */
static void wakeup_values(const struct rr_event_desc *d, const char *p, const char *end,
			  struct text_values *out)
{
	const char *lb = NULL, *colon, *cpu;
	uint64_t v;

	for (const char *q = p; q + 1 < end; q++)
		if (q[0] == ' ' && q[1] == '[')
			lb = q;
	if (!lb)
		return;
	for (colon = lb; colon > p && colon[-1] != ':'; colon--)
		;
	if (colon > p && value_number(colon, (size_t)(lb - colon), &v))
		set_value(d, out, "pid", v);
	cpu = memmem(lb, (size_t)(end - lb), "CPU:", 4);
	if (cpu) {
		const char *c = cpu + 4, *e = c;

		while (e < end && *e >= '0' && *e <= '9')
			e++;
		if (e > c && value_number(c, (size_t)(e - c), &v))
			set_value(d, out, "target_cpu", v);
	}
}

static void keyed_values(const struct rr_event_desc *d, const char *body, const char *end,
			 struct text_values *out)
{
	struct pair pairs[MAX_PAIRS];
	const char *val;
	size_t vlen;
	int n;

	pairs[0].key = body;	/* lower bound for the key scan */
	n = split_pairs(body, end, pairs);
	for (int i = 0; i < d->nr_fields; i++) {
		const struct rr_field_map *m = &d->fields[i];
		int alt = 0;
		const struct pair *pr = lookup_pair(pairs, n, m, &alt);

		if (pr) {
			val = pr->val;
			vlen = pr->vlen;
		} else if (!lookup_phrase(body, end, m, &val, &vlen)) {
			continue;
		}
		if (alt && m->alt_conv == RR_CONV_FILE_LRU) {
			/* "file=1": a number, turned into an lru as trace.dat does */
			out->have[i] = (uint8_t)value_number(val, vlen, &out->v[i]);
		} else {
			out->have[i] = (uint8_t)convert_value(m, val, vlen, &out->v[i]);
		}
		if (out->have[i] && alt)
			out->v[i] = rr_field_alt_value(m, out->v[i]);
		out->opaque[i] = !out->have[i];
	}
}

void rr_text_event_values(const struct rr_event_desc *d, const char *body, const char *end,
			  struct text_values *out)
{
	memset(out, 0, sizeof(*out));
	if (d->type == RR_EV_BLOCK_ISSUE || d->type == RR_EV_BLOCK_COMPLETE)
		block_values(d, body, end, out);
	else if (d->type == RR_EV_WB_PAGES_WRITTEN && !memchr(body, '=', (size_t)(end - body)))
		single_value(d, body, end, out);
	else if (d->type == RR_EV_SCHED_WAKEUP && !memchr(body, '=', (size_t)(end - body)))
		wakeup_values(d, body, end, out);
	else
		keyed_values(d, body, end, out);
}
