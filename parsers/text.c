// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace text reader: the output of `trace-cmd report` (with or without -t)
 * and the tracefs `trace` file. Each event line is split into comm, pid,
 * cpu, timestamp, event name and the event's printed fields, which are
 * turned back into the values the trace.dat reader reads from the raw
 * record, and fed through the same builder so both readers give the same
 * model. Print formats that are not "key=value" (block, slab shrinkers,
 * writeback_pages_written) are read positionally.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parser.h"
#include "trace_builder.h"
#include "reclaim_replay/error.h"

#define READ_CHUNK	(4u << 20)	/* bytes per read(2) */
#define MAX_LINE	(1u << 20)	/* longer lines are garbage, skipped whole */
#define MAX_NAME	128
#define MAX_PAIRS	48		/* key=value pairs looked at per line */
#define MAX_CPU		65535		/* rr_event.cpu is 16 bits */

enum name_kind { KIND_OTHER, KIND_MODEL, KIND_PRINT };

/* What we know about one event name, so the table is searched once. */
struct name_slot {
	char *name;
	long index;			/* in trace->names */
	const struct rr_event_desc *desc;
	uint8_t kind;
	uint32_t missing_noted;		/* bit i: field i reported missing */
	uint32_t opaque_noted;		/* bit i: field i printed, not decodable from text */
};

/* One event line, split; pointers into the line buffer. */
struct line {
	const char *comm;
	size_t comm_len;
	uint32_t pid;
	int cpu;
	int irq_flags;			/* had the tracefs latency column */
	uint64_t ts;
	const char *name;
	size_t name_len;
	const char *body;
	const char *end;
};

/* A "key=value" pair of an event's printed fields. */
struct pair {
	const char *key, *val;
	size_t klen, vlen;
};

struct text_reader {
	struct rr_builder b;
	const char *path;
	struct name_slot *slots;	/* open addressing, power-of-two size */
	size_t nr_slots, cap_slots;
	uint64_t *pending_lost;		/* per cpu: loss notice waiting for its event */
	uint8_t *pending;
	int pending_cap;
	int max_cpu;
	int header_cpus;
	int tracefs;
	uint64_t lineno, events, lost_lines, garbage;
	uint64_t first_bad_line;
	const char *first_bad_why;
	uint64_t last_ts;
	int oom;
};

/* ---- small lexing helpers ---- */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_word(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static int starts_with(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(end - p) >= n && !memcmp(p, word, n);
}

static int word_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !memcmp(s, word, len);
}

/*
 * Unsigned decimal or 0x hex at [*pp, end), saturating at UINT64_MAX so a
 * huge number reads as "huge", not as garbage. Returns 0 when no digit.
 */
static int read_uint(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	int hex = 0, any = 0;

	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		hex = 1;
		p += 2;
	}
	for (; p < end; p++) {
		unsigned d;

		if (is_digit(*p))
			d = (unsigned)(*p - '0');
		else if (hex && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (hex && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			break;
		any = 1;
		if (v > (UINT64_MAX - d) / (hex ? 16 : 10))
			v = UINT64_MAX;
		else
			v = v * (hex ? 16 : 10) + d;
	}
	if (!any)
		return 0;
	*pp = p;
	*out = v;
	return 1;
}

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

struct values {
	uint64_t v[RR_MAX_FIELDS];
	uint8_t have[RR_MAX_FIELDS];
	uint8_t opaque[RR_MAX_FIELDS];	/* printed, but not as a value we can read back */
};

static void set_value(const struct rr_event_desc *d, struct values *out, const char *field,
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
			 struct values *out)
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
			 struct values *out)
{
	uint64_t v;

	p = skip_spaces(p, end);
	if (d->nr_fields == 1 && value_number(p, (size_t)(end - p), &v))
		set_value(d, out, d->fields[0].name, v);
}

static void keyed_values(const struct rr_event_desc *d, const char *body, const char *end,
			 struct values *out)
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

static void event_values(const struct rr_event_desc *d, const struct line *l,
			 struct values *out)
{
	memset(out, 0, sizeof(*out));
	if (d->type == RR_EV_BLOCK_ISSUE || d->type == RR_EV_BLOCK_COMPLETE)
		block_values(d, l->body, l->end, out);
	else if (d->type == RR_EV_WB_PAGES_WRITTEN && !memchr(l->body, '=', (size_t)(l->end - l->body)))
		single_value(d, l->body, l->end, out);
	else
		keyed_values(d, l->body, l->end, out);
}

/* ---- reader state ---- */

static uint64_t hash_name(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static int slots_grow(struct text_reader *r)
{
	size_t ncap = r->cap_slots ? r->cap_slots * 2 : 256;
	struct name_slot *ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (size_t i = 0; i < r->cap_slots; i++) {
		struct name_slot *o = &r->slots[i];
		size_t j;

		if (!o->name)
			continue;
		j = hash_name(o->name, strlen(o->name)) & (ncap - 1);
		while (ns[j].name)
			j = (j + 1) & (ncap - 1);
		ns[j] = *o;
	}
	free(r->slots);
	r->slots = ns;
	r->cap_slots = ncap;
	return 0;
}

static struct name_slot *slot_new(struct text_reader *r, size_t j, const char *name,
				  size_t len, int print)
{
	struct name_slot *s = &r->slots[j];

	s->name = strndup(name, len);
	if (!s->name)
		return NULL;
	print = print || rr_is_print_event(NULL, s->name);
	s->desc = print ? NULL : rr_event_desc_find(NULL, s->name);
	s->kind = print ? KIND_PRINT : s->desc ? KIND_MODEL : KIND_OTHER;
	/* tracefs names the marker line by its ip; the event is ftrace:print */
	s->index = rr_builder_name_index(&r->b, print ? "print" : s->name, s->kind != KIND_OTHER);
	if (s->index < 0) {
		free(s->name);
		s->name = NULL;
		return NULL;
	}
	r->nr_slots++;
	return s;
}

static struct name_slot *slot_find(struct text_reader *r, const char *name, size_t len,
				   int print)
{
	size_t j;

	if ((r->nr_slots + 1) * 2 > r->cap_slots && slots_grow(r))
		return NULL;
	j = hash_name(name, len) & (r->cap_slots - 1);
	while (r->slots[j].name) {
		if (!strncmp(r->slots[j].name, name, len) && !r->slots[j].name[len])
			return &r->slots[j];
		j = (j + 1) & (r->cap_slots - 1);
	}
	return slot_new(r, j, name, len, print);
}

static int pending_grow(struct text_reader *r, int cpu)
{
	int ncap = r->pending_cap ? r->pending_cap : 16;
	uint64_t *lost;
	uint8_t *pend;

	while (ncap <= cpu)
		ncap *= 2;
	lost = realloc(r->pending_lost, (size_t)ncap * sizeof(*lost));
	if (lost)
		r->pending_lost = lost;
	pend = realloc(r->pending, (size_t)ncap);
	if (pend)
		r->pending = pend;
	if (!lost || !pend)
		return -ENOMEM;
	memset(lost + r->pending_cap, 0, (size_t)(ncap - r->pending_cap) * sizeof(*lost));
	memset(pend + r->pending_cap, 0, (size_t)(ncap - r->pending_cap));
	r->pending_cap = ncap;
	return 0;
}

/* A loss notice belongs to the next event of its cpu, as in trace.dat. */
static int flush_lost(struct text_reader *r, int cpu, uint64_t ts)
{
	if (cpu >= r->pending_cap || !r->pending[cpu])
		return 0;
	r->pending[cpu] = 0;
	return rr_builder_lost(&r->b, cpu, ts, r->pending_lost[cpu]);
}

static void garbage(struct text_reader *r, const char *why)
{
	if (!r->garbage++) {
		r->first_bad_line = r->lineno;
		r->first_bad_why = why;
	}
}

/* ---- line classification ---- */

/*
 * "  comm-pid [cpu]" with comm right-aligned and possibly holding '-' or
 * spaces: the pid is the digits before the spaces before the first "[N]".
 */
static const char *split_task(const char *p, const char *end, struct line *l)
{
	for (const char *b = p; (b = memchr(b, '[', (size_t)(end - b))); b++) {
		const char *q = b, *digits;
		uint64_t v;

		while (q > p && q[-1] == ' ')
			q--;
		digits = q;
		while (digits > p && is_digit(digits[-1]))
			digits--;
		if (q == b || digits == q || digits == p || digits[-1] != '-' || q - digits > 10)
			continue;
		q = b + 1;
		if (!read_uint(&q, end, &v) || q >= end || *q != ']' || v > MAX_CPU)
			continue;
		l->cpu = (int)v;
		l->comm = p;
		l->comm_len = (size_t)(digits - 1 - p);
		if (!read_uint(&digits, end, &v) || v > UINT32_MAX)
			continue;
		l->pid = (uint32_t)v;
		return q + 1;
	}
	return NULL;
}

/* "secs.frac:" with 1..9+ fraction digits -> exact ns, no floating point. */
static const char *split_ts(const char *p, const char *end, uint64_t *ts)
{
	uint64_t secs = 0, frac = 0;
	int nd = 0;

	if (!read_uint(&p, end, &secs) || p >= end || *p != '.')
		return NULL;
	for (p++; p < end && is_digit(*p); p++, nd++)
		if (nd < 9)
			frac = frac * 10 + (uint64_t)(*p - '0');
	if (!nd || p >= end || *p != ':' || secs > UINT64_MAX / 1000000000ull - 1)
		return NULL;
	for (int i = nd; i < 9; i++)
		frac *= 10;
	*ts = secs * 1000000000ull + frac;
	return p + 1;
}

static int is_ts_start(const char *p, const char *end)
{
	const char *d = p;

	while (p < end && is_digit(*p))
		p++;
	return p > d && p < end && *p == '.';
}

/* Parse an event line; 0, or -1 with @why set. Does not modify the line. */
static int parse_event_line(const char *p, const char *end, struct line *l, const char **why)
{
	const char *n;

	memset(l, 0, sizeof(*l));
	p = skip_spaces(p, end);
	p = split_task(p, end, l);
	if (!p) {
		*why = "no \"comm-pid [cpu]\" column";
		return -1;
	}
	p = skip_spaces(p, end);
	if (!is_ts_start(p, end)) {
		/* tracefs: irq-flags/preempt column, e.g. "d..1." */
		while (p < end && *p != ' ')
			p++;
		p = skip_spaces(p, end);
		l->irq_flags = 1;
	}
	p = split_ts(p, end, &l->ts);
	if (!p) {
		*why = "no \"seconds.fraction:\" timestamp";
		return -1;
	}
	p = skip_spaces(p, end);
	for (n = p; n < end && *n != ':' && *n != ' '; n++)
		;
	if (n == p || n >= end || *n != ':' || n - p >= MAX_NAME) {
		*why = "no \"event_name:\" after the timestamp";
		return -1;
	}
	l->name = p;
	l->name_len = (size_t)(n - p);
	l->body = skip_spaces(n + 1, end);
	l->end = end;
	return 0;
}

/*
 * Loss notices. trace-cmd report: "CPU:1 [12 EVENTS DROPPED]" and
 * "CPU:1 [EVENTS DROPPED]"; tracefs: "CPU:1 [LOST 12 EVENTS]" and
 * "CPU:1 [LOST EVENTS]". Count 0 means unknown.
 */
static int parse_lost(const char *p, const char *end, int *cpu, uint64_t *count)
{
	const char *lb, *rb, *q;
	uint64_t v;

	p = skip_spaces(p, end);
	if (!starts_with(p, end, "CPU"))
		return 0;
	p = skip_spaces(p + 3, end);
	if (p < end && *p == ':')
		p++;
	if (!read_uint(&p, end, &v) || v > MAX_CPU)
		return 0;
	lb = memchr(p, '[', (size_t)(end - p));
	rb = lb ? memchr(lb, ']', (size_t)(end - lb)) : NULL;
	if (!rb || !memmem(lb, (size_t)(rb - lb), "EVENTS", 6) ||
	    (!memmem(lb, (size_t)(rb - lb), "LOST", 4) &&
	     !memmem(lb, (size_t)(rb - lb), "DROPPED", 7)))
		return 0;
	*cpu = (int)v;
	*count = 0;
	for (q = lb + 1; q < rb && !is_digit(*q); q++)
		;
	if (q < rb)
		read_uint(&q, rb, count);
	return 1;
}

enum line_kind { LINE_HEADER, LINE_EVENT, LINE_LOST, LINE_GARBAGE };

/* Header lines carry no record: "cpus=2", "version = 6", "# ...", blanks. */
static int is_header(const char *p, const char *end)
{
	p = skip_spaces(p, end);
	if (p == end || *p == '#')
		return 1;
	if (starts_with(p, end, "cpus=") || starts_with(p, end, "version = "))
		return 1;
	/* trace-cmd report: "CPU 3 is empty" */
	return starts_with(p, end, "CPU ") && memmem(p, (size_t)(end - p), " is empty", 9);
}

static enum line_kind classify(const char *p, const char *end, struct line *l,
			       const char **why)
{
	int cpu;
	uint64_t count;

	if (is_header(p, end))
		return LINE_HEADER;
	if (parse_lost(p, end, &cpu, &count))
		return LINE_LOST;
	return parse_event_line(p, end, l, why) ? LINE_GARBAGE : LINE_EVENT;
}

/* ---- handling one line ---- */

static void note_header(struct text_reader *r, const char *p, const char *end)
{
	const char *q;
	uint64_t v;

	p = skip_spaces(p, end);
	if (starts_with(p, end, "cpus=")) {
		p += 5;
		if (read_uint(&p, end, &v) && v <= MAX_CPU + 1)
			r->header_cpus = (int)v;
	} else if (starts_with(p, end, "# tracer:")) {
		r->tracefs = 1;
	} else if (*p == '#' && (q = memmem(p, (size_t)(end - p), "#P:", 3))) {
		q += 3;
		if (read_uint(&q, end, &v) && v <= MAX_CPU + 1)
			r->header_cpus = (int)v;
	}
}

static int note_lost(struct text_reader *r, const char *p, const char *end)
{
	int cpu;
	uint64_t count;

	parse_lost(p, end, &cpu, &count);
	if (cpu >= r->pending_cap && pending_grow(r, cpu))
		return -ENOMEM;
	r->pending[cpu] = 1;
	r->pending_lost[cpu] += count;
	r->lost_lines++;
	return 0;
}

static void note_missing(struct text_reader *r, struct name_slot *ns, int i)
{
	if (ns->missing_noted & (1u << i))
		return;
	ns->missing_noted |= 1u << i;
	if (rr_builder_missing_field(&r->b, ns->name, ns->desc->fields[i].name))
		r->oom = 1;
}

/*
 * The line prints the field, but not as a value the text can be turned back
 * into (a symbolic gfp mask such as GFP_KERNEL|__GFP_COMP): not missing from
 * the format, so not in missing_fields; said once per field at the end.
 */
static void note_opaque(struct name_slot *ns, int i)
{
	ns->opaque_noted |= 1u << i;
}

static int decode_event(struct text_reader *r, struct name_slot *ns, const struct line *l)
{
	const struct rr_event_desc *d = ns->desc;
	struct rr_event tmp = { .nid = RR_NID_NONE };
	struct rr_event *ev;
	struct values vals;

	event_values(d, l, &vals);
	for (int i = 0; i < d->nr_fields; i++) {
		if (!vals.have[i] && d->fields[i].required) {
			/* as trace.dat does for a format without the field */
			r->b.trace->records_undecodable++;
			return 0;
		}
	}
	for (int i = 0; i < d->nr_fields; i++) {
		if (vals.have[i]) {
			rr_builder_apply_field(&tmp, &d->fields[i], vals.v[i]);
		} else {
			tmp.flags |= RR_EVF_FIELD_MISSING;
			if (vals.opaque[i])
				note_opaque(ns, i);
			else
				note_missing(r, ns, i);
		}
	}
	ev = rr_builder_push(&r->b, l->ts, l->pid, l->cpu, d->type);
	if (!ev)
		return -ENOMEM;
	ev->nid = tmp.nid;
	ev->aux = tmp.aux;
	ev->flags |= tmp.flags;
	memcpy(ev->v, tmp.v, sizeof(ev->v));
	return 0;
}

/* trace-cmd: "print: tracing_mark_write: TEXT"; tracefs: "tracing_mark_write: TEXT". */
static int handle_print(struct text_reader *r, const struct line *l, int via_ip)
{
	const char *p = l->body, *colon;

	if (!via_ip) {
		/* skip the "<ip>: " that precedes the marker text */
		colon = memchr(p, ':', (size_t)(l->end - p));
		if (colon && !memchr(p, ' ', (size_t)(colon - p)))
			p = colon + 1 < l->end && colon[1] == ' ' ? colon + 2 : colon + 1;
	}
	return rr_builder_print(&r->b, l->ts, l->pid, l->cpu, p, (size_t)(l->end - p));
}

static int is_marker_ip(const char *name, size_t len)
{
	return word_is(name, len, "tracing_mark_write") ||
	       (len > 2 && name[0] == '0' && name[1] == 'x');
}

static int handle_event(struct text_reader *r, const struct line *l)
{
	int via_ip = is_marker_ip(l->name, l->name_len);
	struct name_slot *ns = slot_find(r, l->name, l->name_len, via_ip);
	char comm[64];

	if (!ns)
		return -ENOMEM;
	r->events++;
	if (l->irq_flags)
		r->tracefs = 1;
	if (l->cpu > r->max_cpu)
		r->max_cpu = l->cpu;
	if (l->ts > r->last_ts)
		r->last_ts = l->ts;
	if (flush_lost(r, l->cpu, l->ts))
		return -ENOMEM;
	rr_builder_count(&r->b, ns->index, l->ts);
	if (ns->kind == KIND_OTHER) {
		r->b.trace->records_ignored++;
		return 0;
	}
	if (!rr_builder_task_known(&r->b, l->pid)) {
		snprintf(comm, sizeof(comm), "%.*s", (int)(l->comm_len < 63 ? l->comm_len : 63),
			 l->comm);
		if (rr_builder_task(&r->b, l->pid, comm))
			return -ENOMEM;
	}
	if (ns->kind == KIND_PRINT)
		return handle_print(r, l, via_ip);
	return decode_event(r, ns, l);
}

static int handle_line(struct text_reader *r, const char *p, const char *end)
{
	const char *why = NULL;
	struct line l;

	r->lineno++;
	if (memchr(p, '\0', (size_t)(end - p)))
		end = memchr(p, '\0', (size_t)(end - p));
	if (end > p && end[-1] == '\r')
		end--;
	switch (classify(p, end, &l, &why)) {
	case LINE_HEADER:
		note_header(r, p, end);
		return 0;
	case LINE_LOST:
		return note_lost(r, p, end);
	case LINE_EVENT:
		return handle_event(r, &l);
	case LINE_GARBAGE:
		garbage(r, why);
		return 0;
	}
	return 0;
}

/* ---- the file loop ---- */

/* Hand every complete line of buf[0..len) over; returns bytes consumed. */
static size_t feed_lines(struct text_reader *r, char *buf, size_t len, int eof, int *skipping)
{
	size_t off = 0;

	while (off < len && !r->oom) {
		char *nl = memchr(buf + off, '\n', len - off);
		char *end = nl ? nl : buf + len;

		if (!nl && !eof)
			break;
		if (*skipping) {
			*skipping = 0;	/* tail of an over-long line */
		} else if (handle_line(r, buf + off, end)) {
			r->oom = 1;
			break;
		}
		off = (size_t)(end - buf) + (nl ? 1 : 0);
	}
	return off;
}

static int read_all(struct text_reader *r, int fd)
{
	size_t cap = READ_CHUNK + MAX_LINE, len = 0, used;
	char *buf = malloc(cap);
	int skipping = 0, eof = 0;

	if (!buf)
		return -ENOMEM;
	while (!eof && !r->oom) {
		ssize_t n = read(fd, buf + len, cap - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return -errno;
		}
		eof = n == 0;
		len += (size_t)n;
		used = feed_lines(r, buf, len, eof, &skipping);
		memmove(buf, buf + used, len - used);
		len -= used;
		if (len >= MAX_LINE) {
			/* no newline in 1 MiB: not a text trace line */
			r->lineno++;
			garbage(r, "line longer than 1 MiB");
			r->lineno--;
			len = 0;
			skipping = 1;
		}
	}
	free(buf);
	return r->oom ? -ENOMEM : 0;
}

static int flush_all_lost(struct text_reader *r)
{
	for (int cpu = 0; cpu < r->pending_cap; cpu++)
		if (flush_lost(r, cpu, r->last_ts))
			return -ENOMEM;
	return 0;
}

/* After reading: decide whether this was ftrace text at all. */
static int verdict(struct text_reader *r)
{
	uint64_t content = r->events + r->lost_lines + r->garbage;

	if (!r->events && r->garbage)
		return rr_fail(RR_EXIT_BAD_INPUT,
			       "cannot read '%s': line %llu: %s; no event line found",
			       r->path, (unsigned long long)r->first_bad_line, r->first_bad_why);
	if (!r->events)
		return rr_fail(RR_EXIT_BAD_INPUT, "cannot read '%s': no event line found",
			       r->path);
	if (r->garbage * 2 > content)
		return rr_fail(RR_EXIT_BAD_INPUT,
			       "cannot read '%s': %llu of %llu lines are not ftrace text "
			       "(first at line %llu: %s)", r->path,
			       (unsigned long long)r->garbage, (unsigned long long)content,
			       (unsigned long long)r->first_bad_line, r->first_bad_why);
	if (r->garbage)
		rr_warn("'%s': %llu garbage lines ignored (first at line %llu: %s)", r->path,
			(unsigned long long)r->garbage, (unsigned long long)r->first_bad_line,
			r->first_bad_why);
	return 0;
}

static void reader_free(struct text_reader *r)
{
	for (size_t i = 0; i < r->cap_slots; i++)
		free(r->slots[i].name);
	free(r->slots);
	free(r->pending_lost);
	free(r->pending);
	rr_builder_release(&r->b);
}

/* One warning per field the text printed but could not give back (note_opaque). */
static void warn_opaque(const struct text_reader *r)
{
	for (size_t i = 0; i < r->cap_slots; i++) {
		const struct name_slot *ns = &r->slots[i];

		if (!ns->name || !ns->opaque_noted)
			continue;
		for (int f = 0; f < ns->desc->nr_fields; f++)
			if (ns->opaque_noted & (1u << f))
				rr_warn("'%s': %s.%s is printed symbolically and is not decodable "
					"from text; it reads as 0 (the trace.dat has it)", r->path,
					ns->name, ns->desc->fields[f].name);
	}
}

static int finish(struct text_reader *r, struct rr_trace *t)
{
	int ret = verdict(r);

	if (ret)
		return ret;
	warn_opaque(r);
	if (flush_all_lost(r) || rr_builder_finish(&r->b))
		return rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", r->path);
	if (r->header_cpus > t->nr_cpus)
		t->nr_cpus = r->header_cpus;
	if (r->max_cpu + 1 > t->nr_cpus)
		t->nr_cpus = r->max_cpu + 1;
	t->format = strdup(r->tracefs ? "ftrace text (tracefs trace)"
				      : "ftrace text (trace-cmd report)");
	if (!t->format)
		return rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", r->path);
	return 0;
}

static int parse(const char *path, struct rr_trace *t)
{
	struct text_reader r = { .path = path };
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rr_fail(RR_EXIT_BAD_INPUT, "cannot read '%s': %s", path, strerror(errno));
	if (rr_builder_init(&r.b, t)) {
		close(fd);
		return rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", path);
	}
	ret = read_all(&r, fd);
	close(fd);
	if (ret == -ENOMEM)
		ret = rr_fail(RR_EXIT_FAILURE, "'%s': out of memory after %llu lines", path,
			      (unsigned long long)r.lineno);
	else if (ret)
		ret = rr_fail(RR_EXIT_BAD_INPUT, "cannot read '%s': %s (after line %llu)", path,
			      strerror(-ret), (unsigned long long)r.lineno);
	else
		ret = finish(&r, t);
	reader_free(&r);
	return ret;
}

/* ---- probe ---- */

/*
 * trace.dat, or more than 1% control bytes: random binary has ~12%, while
 * a text trace may hold the odd stray byte inside a marker line.
 */
static int looks_binary(const unsigned char *head, size_t len)
{
	static const unsigned char dat_magic[] = { 0x17, 0x08, 0x44 };
	size_t ctl = 0;

	if (len >= sizeof(dat_magic) && !memcmp(head, dat_magic, sizeof(dat_magic)))
		return 1;
	for (size_t i = 0; i < len; i++)
		if (head[i] < 0x20 && head[i] != '\n' && head[i] != '\t' && head[i] != '\r')
			ctl++;
	return ctl * 100 > len;
}

/*
 * Text, whose complete lines in @head are headers, loss notices or event
 * lines, with at least one event line or a trace-cmd/tracefs header.
 */
static int probe(const unsigned char *head, size_t len)
{
	const char *p = (const char *)head, *end = p + len;
	int events = 0, bad = 0, strong = 0;

	if (!len || looks_binary(head, len))
		return 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *why, *s = skip_spaces(p, le);
		struct line l;

		if (!nl && events + strong)
			break;	/* a cut-off last line proves nothing */
		if (le > p && le[-1] == '\r')
			le--;
		if (starts_with(s, le, "cpus=") || starts_with(s, le, "version = ") ||
		    starts_with(s, le, "# tracer:"))
			strong = 1;
		switch (classify(p, le, &l, &why)) {
		case LINE_EVENT:
			events++;
			break;
		case LINE_GARBAGE:
			bad++;
			break;
		default:
			break;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (bad > events)
		return 0;
	return events > 0 || (strong && !bad);
}

const struct rr_parser rr_text_parser = {
	.name = "ftrace text",
	.probe = probe,
	.parse = parse,
};
