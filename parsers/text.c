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
#include "text_fields.h"
#include "text_lex.h"
#include "reclaim_replay/error.h"

#define READ_CHUNK	(4u << 20)	/* bytes per read(2) */
#define MAX_LINE	(1u << 20)	/* longer lines are garbage, skipped whole */
#define MAX_NAME	128
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
	struct text_values vals;

	rr_text_event_values(d, l->body, l->end, &vals);
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
