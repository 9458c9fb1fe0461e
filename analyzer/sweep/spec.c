// SPDX-License-Identifier: GPL-2.0
/*
 * --vary KEY=LO..HI[:lin|log[:N]] and --vary KEY=V1,V2,...: which setting of
 * the parametric policy varies, over what, and its value at a coordinate.
 * Duration ends stay text until a trace's HZ is known, since "1j" is 4 ms at
 * HZ=250 and 1 ms at HZ=1000.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reclaim_replay/replay.h"
#include "sweep/sweep.h"

/* The parametric policy's settings (analyzer/policies/mainline.c). */
static const struct {
	const char *key;
	enum rr_sweep_kind kind;
	uint64_t max;		/* counts: the largest value that makes sense */
} keys[] = {
	{ "writeback.timeout", RR_SWEEP_DURATION, 0 },
	{ "isolated.timeout", RR_SWEEP_DURATION, 0 },
	{ "noprogress.timeout", RR_SWEEP_DURATION, 0 },
	{ "congested.timeout", RR_SWEEP_DURATION, 0 },
	{ "writeback.pages_per_waiter", RR_SWEEP_COUNT, 1000000000 },
	{ "noprogress.wake_efficiency", RR_SWEEP_RATIO, 0 },
	{ "isolated.wake", RR_SWEEP_COUNT, 1 },
};

static int key_index(const char *key, size_t len)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].key) == len && !strncmp(keys[i].key, key, len))
			return (int)i;
	return -1;
}

int rr_sweep_key_kind(const char *key, size_t len, enum rr_sweep_kind *kind)
{
	int i = key_index(key, len);

	if (i < 0)
		return 0;
	*kind = keys[i].kind;
	return 1;
}

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* A value in canonical units (ns at @hz, ppm, count); -1 if malformed. */
static int value_of(enum rr_sweep_kind kind, const char *s, uint32_t hz, uint64_t *v)
{
	char *end;
	double d;

	if (kind == RR_SWEEP_DURATION)
		return rr_parse_duration(s, hz, v);
	d = strtod(s, &end);
	if (end == s || *end || !isfinite(d) || d < 0)
		return -1;
	if (kind == RR_SWEEP_RATIO) {
		if (d > 1)
			return -1;
		*v = (uint64_t)(d * 1e6 + 0.5);
		return 0;
	}
	if (d > 1e9 || d != floor(d))
		return -1;
	*v = (uint64_t)d;
	return 0;
}

static const char *kind_hint(enum rr_sweep_kind k)
{
	return k == RR_SWEEP_DURATION ? "a duration such as 10ms, 2j, 1.5s" :
	       k == RR_SWEEP_RATIO ? "a ratio from 0 to 1" : "a whole number";
}

static int check_value(const struct rr_sweep_param *p, const char *s, char *err, size_t len)
{
	uint64_t v;
	int k = key_index(p->key, strlen(p->key));

	if (strlen(s) >= sizeof(p->lo))
		return fail(err, len, "--vary %s: value '%s' is too long", p->key, s);
	if (value_of(p->kind, s, 250, &v))
		return fail(err, len, "--vary %s: '%s' is not %s", p->key, s, kind_hint(p->kind));
	if (p->kind == RR_SWEEP_COUNT && v > keys[k].max)
		return fail(err, len, "--vary %s: '%s' is above %llu", p->key, s,
			    (unsigned long long)keys[k].max);
	return 0;
}

static int parse_list(struct rr_sweep_param *p, const char *s, char *err, size_t len)
{
	const char *c = s;

	p->is_list = 1;
	while (1) {
		size_t n = strcspn(c, ",");
		char item[32];

		if (!n || n >= sizeof(item))
			return fail(err, len, "--vary %s: empty or overlong value in list '%s'",
				    p->key, s);
		if (p->nr_list == RR_SWEEP_MAX_LIST)
			return fail(err, len, "--vary %s: at most %d listed values", p->key,
				    RR_SWEEP_MAX_LIST);
		memcpy(item, c, n);
		item[n] = 0;
		if (check_value(p, item, err, len))
			return -1;
		strcpy(p->list[p->nr_list++], item);
		if (!c[n])
			return 0;
		c += n + 1;
	}
}

static int parse_range(struct rr_sweep_param *p, const char *s, const char *dots, char *err,
		       size_t len)
{
	const char *hi = dots + 2, *colon = strchr(hi, ':');
	size_t nlo = (size_t)(dots - s), nhi = colon ? (size_t)(colon - hi) : strlen(hi);
	uint64_t lo_v, hi_v;

	if (!nlo || !nhi || nlo >= sizeof(p->lo) || nhi >= sizeof(p->hi))
		return fail(err, len, "--vary %s: '%s' wants LO..HI[:lin|log[:N]]", p->key, s);
	memcpy(p->lo, s, nlo);
	memcpy(p->hi, hi, nhi);
	if (check_value(p, p->lo, err, len) || check_value(p, p->hi, err, len))
		return -1;
	p->scale = RR_SWEEP_LIN;
	p->steps = RR_SWEEP_DEFAULT_STEPS;
	if (colon) {
		const char *sc = colon + 1, *c2 = strchr(sc, ':');
		size_t nsc = c2 ? (size_t)(c2 - sc) : strlen(sc);

		if (nsc == 3 && !strncmp(sc, "lin", 3))
			p->scale = RR_SWEEP_LIN;
		else if (nsc == 3 && !strncmp(sc, "log", 3))
			p->scale = RR_SWEEP_LOG;
		else
			return fail(err, len, "--vary %s: scale '%.*s' is not lin or log", p->key,
				    (int)nsc, sc);
		if (c2) {
			char *end;
			long n = strtol(c2 + 1, &end, 10);

			if (end == c2 + 1 || *end || n < 1 || n > RR_SWEEP_MAX_POINTS)
				return fail(err, len, "--vary %s: steps '%s' is not 1 to %d",
					    p->key, c2 + 1, RR_SWEEP_MAX_POINTS);
			p->steps = (uint32_t)n;
		}
	}
	/* The order of the ends can only be judged in one unit: "1j..5ms" holds at
	 * every HZ from 200 up only, so compare at the slowest common HZ and the fastest. */
	for (uint32_t hz = 100; hz <= 1000; hz += 900) {
		value_of(p->kind, p->lo, hz, &lo_v);
		value_of(p->kind, p->hi, hz, &hi_v);
		if (lo_v > hi_v || (lo_v == hi_v && p->steps > 1))
			return fail(err, len, "--vary %s: '%s' is empty or backwards (LO must be "
				    "below HI%s)", p->key, s,
				    rr_sweep_param_uses_jiffies(p) ? " at HZ 100 and 1000" : "");
		if (p->scale == RR_SWEEP_LOG && !lo_v)
			return fail(err, len, "--vary %s: a log scale cannot start at 0", p->key);
	}
	return 0;
}

int rr_sweep_param_parse(const char *arg, struct rr_sweep_param *p, char *err, size_t len)
{
	const char *eq = strchr(arg, '='), *v, *dots;
	size_t klen;
	int k;

	memset(p, 0, sizeof(*p));
	if (!eq)
		return fail(err, len, "--vary wants KEY=LO..HI[:lin|log[:N]] or KEY=V1,V2,..., "
			    "got '%s'", arg);
	klen = (size_t)(eq - arg);
	k = key_index(arg, klen);
	if (k < 0)
		return fail(err, len, "--vary: unknown setting '%.*s' (the parametric policy "
			    "takes writeback.timeout, isolated.timeout, noprogress.timeout, "
			    "congested.timeout, writeback.pages_per_waiter, "
			    "noprogress.wake_efficiency, isolated.wake)", (int)klen, arg);
	strcpy(p->key, keys[k].key);
	p->kind = keys[k].kind;
	v = eq + 1;
	if (!*v || strlen(v) >= sizeof(p->spec))
		return fail(err, len, "--vary %s: no values, or too long", p->key);
	strcpy(p->spec, v);
	dots = strstr(v, "..");
	if (dots && strchr(v, ','))
		return fail(err, len, "--vary %s: '%s' mixes a range and a list", p->key, v);
	return dots ? parse_range(p, v, dots, err, len) : parse_list(p, v, err, len);
}

int rr_sweep_param_uses_jiffies(const struct rr_sweep_param *p)
{
	size_t n;

	if (p->kind != RR_SWEEP_DURATION)
		return 0;
	if (!p->is_list)
		return (strlen(p->lo) && p->lo[strlen(p->lo) - 1] == 'j') ||
		       (strlen(p->hi) && p->hi[strlen(p->hi) - 1] == 'j');
	for (uint32_t i = 0; i < p->nr_list; i++) {
		n = strlen(p->list[i]);
		if (n && p->list[i][n - 1] == 'j')
			return 1;
	}
	return 0;
}

uint64_t rr_sweep_param_value(const struct rr_sweep_param *p, double c, uint32_t hz)
{
	uint64_t lo = 0, hi = 0;
	double v;

	if (p->is_list) {
		uint32_t i = c < 0 ? 0 : (uint32_t)c;

		value_of(p->kind, p->list[i < p->nr_list ? i : p->nr_list - 1], hz, &lo);
		return lo;
	}
	value_of(p->kind, p->lo, hz, &lo);
	value_of(p->kind, p->hi, hz, &hi);
	if (p->scale == RR_SWEEP_LOG && lo)
		v = (double)lo * pow((double)hi / (double)lo, c);
	else
		v = (double)lo + c * ((double)hi - (double)lo);
	return (uint64_t)llround(v);
}

void rr_sweep_param_setting(const struct rr_sweep_param *p, uint64_t v, char *buf, size_t len)
{
	switch (p->kind) {
	case RR_SWEEP_DURATION:
		snprintf(buf, len, "%s=%lluns", p->key, (unsigned long long)v);
		break;
	case RR_SWEEP_RATIO:
		snprintf(buf, len, "%s=%.6f", p->key, (double)v / 1e6);
		break;
	case RR_SWEEP_COUNT:
		snprintf(buf, len, "%s=%llu", p->key, (unsigned long long)v);
		break;
	}
}

void rr_sweep_value_text(enum rr_sweep_kind kind, uint64_t v, char *buf, size_t len)
{
	if (kind == RR_SWEEP_RATIO)
		snprintf(buf, len, "%.4g", (double)v / 1e6);
	else if (kind == RR_SWEEP_COUNT)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else if (v >= 1000000000ULL)
		snprintf(buf, len, "%.4gs", (double)v / 1e9);
	else if (v >= 1000000)
		snprintf(buf, len, "%.4gms", (double)v / 1e6);
	else if (v >= 1000)
		snprintf(buf, len, "%.4gus", (double)v / 1e3);
	else
		snprintf(buf, len, "%lluns", (unsigned long long)v);
}

void rr_sweep_value_exact(enum rr_sweep_kind kind, uint64_t v, char *buf, size_t len)
{
	if (kind == RR_SWEEP_RATIO)
		snprintf(buf, len, "%g", (double)v / 1e6);
	else if (kind == RR_SWEEP_COUNT)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else if (v && !(v % 1000000))
		snprintf(buf, len, "%llums", (unsigned long long)(v / 1000000));
	else if (v && !(v % 1000))
		snprintf(buf, len, "%lluus", (unsigned long long)(v / 1000));
	else
		snprintf(buf, len, "%lluns", (unsigned long long)v);
}
