// SPDX-License-Identifier: GPL-2.0
/*
 * Event formats kept at open and parsed on first use (format_defer.h).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format_check.h"
#include "format_defer.h"
#include "format_guard.h"

/* Ids above this are parsed at once (the seen-id map stays small). */
#define MAX_DEFERRED_ID	(1 << 20)

struct kept_format {
	int id;
	char *sys;
	char *text;		/* NULL once parsed */
	unsigned long size;
};

struct rr_format_defer {
	struct kept_format *v;
	size_t n, cap, parsed;
	int sorted;
	int max_id;
	uint8_t *seen;		/* per id: 1 a format of it was offered */
	size_t seen_cap;
	struct tep_handle *tep;	/* the handle its formats were offered for */
	struct rr_format_defer *next_live;
};

static __thread struct rr_format_defer *armed;

/* Every table, for tep_find_event_by_record() below to find by handle. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rr_format_defer *live;

struct rr_format_defer *rr_format_defer_new(void)
{
	struct rr_format_defer *df = calloc(1, sizeof(*df));

	if (!df)
		return NULL;
	df->max_id = -1;
	pthread_mutex_lock(&live_lock);
	df->next_live = live;
	live = df;
	pthread_mutex_unlock(&live_lock);
	return df;
}

void rr_format_defer_free(struct rr_format_defer *df)
{
	struct rr_format_defer **p;

	if (!df)
		return;
	pthread_mutex_lock(&live_lock);
	for (p = &live; *p && *p != df; p = &(*p)->next_live)
		;
	if (*p)
		*p = df->next_live;
	pthread_mutex_unlock(&live_lock);
	for (size_t i = 0; i < df->n; i++) {
		free(df->v[i].sys);
		free(df->v[i].text);
	}
	free(df->v);
	free(df->seen);
	free(df);
}

void rr_format_defer_arm(struct rr_format_defer *df)
{
	armed = df;
}

void rr_format_defer_disarm(void)
{
	armed = NULL;
}

/*
 * The id of a format that starts "name: NAME\nID: DIGITS\n", as
 * libtraceevent reads it; -1 for anything else (then parsed at once, so a
 * damaged text meets the parser exactly when it did before).
 */
static int format_id(const char *buf, unsigned long size)
{
	const char *end = buf + size, *p;
	size_t len = rr_format_name(buf, size, &p);
	long id = 0;

	if (!len)
		return -1;
	p += len;	/* the name line's '\n', or the text's end */
	if (p == end || end - ++p < 5 || memcmp(p, "ID: ", 4))
		return -1;
	p += 4;
	/* libtraceevent reads it with base 0: "010" is octal there */
	if (p == end || *p < '0' || *p > '9' || (*p == '0' && p + 1 < end && p[1] != '\n'))
		return -1;
	while (p < end && *p >= '0' && *p <= '9') {
		id = id * 10 + (*p++ - '0');
		if (id > MAX_DEFERRED_ID)
			return -1;
	}
	return p < end && *p == '\n' ? (int)id : -1;
}

/* Marks @id seen; 1 if it was already, -1 when out of memory. */
static int mark_seen(struct rr_format_defer *df, int id)
{
	if ((size_t)id >= df->seen_cap) {
		size_t cap = df->seen_cap ? df->seen_cap : 4096;
		uint8_t *p;

		while (cap <= (size_t)id)
			cap *= 2;
		p = realloc(df->seen, cap);
		if (!p)
			return -1;
		memset(p + df->seen_cap, 0, cap - df->seen_cap);
		df->seen = p;
		df->seen_cap = cap;
	}
	if (df->seen[id])
		return 1;
	df->seen[id] = 1;
	return 0;
}

static void parse_kept(struct tep_handle *tep, struct rr_format_defer *df, struct kept_format *k)
{
	if (!k->text)
		return;
	rr_format_parse(tep, k->text, k->size, k->sys);
	free(k->text);
	k->text = NULL;
	df->parsed++;
}

int rr_format_defer_offer(struct tep_handle *tep, const char *buf, unsigned long size,
			  const char *sys)
{
	struct rr_format_defer *df = armed;
	struct kept_format *k;
	int id, seen;

	if (!df)
		return 0;
	if (!df->tep)
		df->tep = tep;
	id = format_id(buf, size);
	if (id < 0)
		return 0;
	seen = mark_seen(df, id);
	if (seen) {
		/* a repeated id (or no memory to tell): a kept text of it first, as at open */
		for (size_t i = 0; i < df->n; i++)
			if (df->v[i].id == id)
				parse_kept(tep, df, &df->v[i]);
		return 0;
	}
	/* the first event gives the common fields every record is typed by */
	if (!tep_get_events_count(tep) || (sys && !strcmp(sys, "ftrace")))
		return 0;
	if (df->n == df->cap) {
		size_t cap = df->cap ? df->cap * 2 : 256;
		struct kept_format *v = realloc(df->v, cap * sizeof(*v));

		if (!v)
			return 0;
		df->v = v;
		df->cap = cap;
	}
	k = &df->v[df->n];
	k->id = id;
	k->size = size;
	k->sys = sys ? strdup(sys) : NULL;
	k->text = malloc(size ? size : 1);
	if ((sys && !k->sys) || !k->text) {
		free(k->sys);
		free(k->text);
		return 0;
	}
	memcpy(k->text, buf, size);
	df->n++;
	df->sorted = 0;
	if (id > df->max_id)
		df->max_id = id;
	return 1;
}

int rr_format_defer_max_id(const struct rr_format_defer *df)
{
	return df ? df->max_id : -1;
}

static int by_id(const void *a, const void *b)
{
	const struct kept_format *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

struct tep_event *rr_format_defer_parse(struct rr_format_defer *df, struct tep_handle *tep,
					int id)
{
	struct kept_format key = { .id = id }, *k;

	if (!df || !df->n || id < 0 || id > df->max_id)
		return NULL;
	/* ids are unique in the table: a repeated one was parsed at open */
	if (!df->sorted) {
		qsort(df->v, df->n, sizeof(*df->v), by_id);
		df->sorted = 1;
	}
	k = bsearch(&key, df->v, df->n, sizeof(*df->v), by_id);
	if (!k || !k->text)
		return NULL;
	parse_kept(tep, df, k);
	return tep_find_event(tep, id);
}

size_t rr_format_defer_kept(const struct rr_format_defer *df)
{
	return df ? df->n : 0;
}

size_t rr_format_defer_parsed(const struct rr_format_defer *df)
{
	return df ? df->parsed : 0;
}

/*
 * libtracecmd looks a record's event up with tep_find_event_by_record()
 * before it hands a record that follows lost events to anyone (and fails
 * the whole iteration when that finds nothing), so a format kept for later
 * must be there by then too: this program's definition comes first in
 * symbol lookup, calls libtraceevent's own, and when that finds nothing
 * parses the format the table of that handle kept, if any. Only the thread
 * that iterates the handle looks events up in it.
 */
typedef struct tep_event *(*find_by_record_fn)(struct tep_handle *, struct tep_record *);

struct tep_event *tep_find_event_by_record(struct tep_handle *tep, struct tep_record *record)
{
	static find_by_record_fn real;
	find_by_record_fn fn = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
	struct rr_format_defer *df;
	struct tep_event *e;

	if (!fn) {
		fn = (find_by_record_fn)dlsym(RTLD_NEXT, "tep_find_event_by_record");
		if (!fn)
			return NULL;
		__atomic_store_n(&real, fn, __ATOMIC_RELEASE);
	}
	e = fn(tep, record);
	if (e || !tep || !record)
		return e;
	pthread_mutex_lock(&live_lock);
	for (df = live; df && df->tep != tep; df = df->next_live)
		;
	pthread_mutex_unlock(&live_lock);
	return df ? rr_format_defer_parse(df, tep, tep_data_type(tep, record)) : NULL;
}
