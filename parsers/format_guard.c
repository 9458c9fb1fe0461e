// SPDX-License-Identifier: GPL-2.0
/*
 * libtracecmd parses every event format of a trace.dat with libtraceevent's
 * tep_parse_event(), from inside tracecmd_open_head(), and for a v7 file with
 * zstd or zlib only after decompressing the section itself; trace-cmd writes
 * zstd frames without a checksum, so a flipped bit there decompresses to a
 * damaged format, and libtraceevent 1.7 crashes on the damage
 * format_check.c describes. No public libtracecmd call returns the
 * decompressed text first, so this file defines tep_parse_event() in the
 * program: the dynamic linker binds libtracecmd's call to it (an executable's
 * definition comes first in symbol lookup), and it passes each format that
 * is sound on to libtraceevent's own, found with dlsym(RTLD_NEXT).
 *
 * Only a thread that armed the guard (the trace.dat reader, while it opens a
 * file) is checked; anyone else, libtracefs reading the running kernel's
 * formats for the live view for instance, goes straight through. A refused
 * format returns TEP_ERRNO__PARSE_EVENT_FAILED, which libtracecmd counts and
 * steps over; the reader then fails the file with the refusal's message.
 * A sound format may then be kept for later instead of parsed now
 * (format_defer.h); every parse, now or later, goes through
 * rr_format_parse().
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "format_check.h"
#include "format_defer.h"
#include "format_guard.h"

typedef enum tep_errno (*parse_event_fn)(struct tep_handle *, const char *, unsigned long,
					 const char *);

static __thread int guard_armed;
static __thread int guard_refused;
static __thread char guard_msg[192];

void rr_format_guard_arm(void)
{
	guard_armed = 1;
	guard_refused = 0;
	guard_msg[0] = '\0';
}

int rr_format_guard_disarm(void)
{
	guard_armed = 0;
	return guard_refused;
}

const char *rr_format_guard_refusal(void)
{
	return guard_refused ? guard_msg : NULL;
}

static void refuse(const char *buf, unsigned long size, const char *sys, const char *field,
		   size_t field_len)
{
	const char *name = "";
	int name_len = (int)rr_format_name(buf, size, &name);

	guard_refused = 1;
	snprintf(guard_msg, sizeof(guard_msg),
		 "event format '%.40s/%.*s': the print fmt uses REC->%.*s, which is not a field",
		 sys ? sys : "?", name_len > 60 ? 60 : name_len, name,
		 (int)(field_len > 40 ? 40 : field_len), field);
}

/*
 * libtraceevent's tokenizer state is static: one parse at a time. Recursive,
 * because a reading thread that opens the file again holds it for the whole
 * open (rr_libtraceevent_hold()) while libtracecmd parses formats inside.
 */
static pthread_mutex_t parse_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static unsigned long nr_parsed;		/* under parse_lock */

void rr_libtraceevent_hold(void)
{
	pthread_mutex_lock(&parse_lock);
}

void rr_libtraceevent_release(void)
{
	pthread_mutex_unlock(&parse_lock);
}

unsigned long rr_format_parse_count(void)
{
	unsigned long n;

	pthread_mutex_lock(&parse_lock);
	n = nr_parsed;
	pthread_mutex_unlock(&parse_lock);
	return n;
}

enum tep_errno rr_format_parse(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys)
{
	static parse_event_fn real;
	parse_event_fn fn = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
	enum tep_errno ret;

	if (!fn) {
		fn = (parse_event_fn)dlsym(RTLD_NEXT, "tep_parse_event");
		if (!fn)
			return TEP_ERRNO__PARSE_EVENT_FAILED;
		__atomic_store_n(&real, fn, __ATOMIC_RELEASE);
	}
	pthread_mutex_lock(&parse_lock);
	ret = fn(tep, buf, size, sys);
	nr_parsed++;
	pthread_mutex_unlock(&parse_lock);
	return ret;
}

enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys)
{
	if (guard_armed) {
		const char *field;
		size_t len;

		if (rr_format_undeclared_field(buf, size, &field, &len)) {
			if (!guard_refused)
				refuse(buf, size, sys, field, len);
			return TEP_ERRNO__PARSE_EVENT_FAILED;
		}
		/* sound: parsed when its first record needs it (format_defer.h) */
		if (rr_format_defer_offer(tep, buf, size, sys))
			return TEP_ERRNO__SUCCESS;
	}
	return rr_format_parse(tep, buf, size, sys);
}
