// SPDX-License-Identifier: GPL-2.0
/*
 * Where the points lie: the full grid, uniform random points, or a Latin
 * hypercube (each parameter's range cut into N equal strata, each stratum
 * holding exactly one of the N points), which covers many parameters with
 * few points. Coordinates are 0..1 along a range (its scale applied later)
 * and an index into a list.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/sweep.h"

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

const char *rr_sweep_method_name(enum rr_sweep_method m)
{
	return m == RR_SAMPLE_GRID ? "grid" : m == RR_SAMPLE_RANDOM ? "random" : "lhs";
}

int rr_sweep_sample_parse(const char *arg, struct rr_sweep_spec *s, char *err, size_t len)
{
	const char *colon = strchr(arg, ':');
	size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
	char *end;
	long v;

	if (n == 4 && !strncmp(arg, "grid", 4) && !colon) {
		s->method = RR_SAMPLE_GRID;
		return 0;
	}
	if (n == 6 && !strncmp(arg, "random", 6))
		s->method = RR_SAMPLE_RANDOM;
	else if (n == 3 && !strncmp(arg, "lhs", 3))
		s->method = RR_SAMPLE_LHS;
	else
		return fail(err, len, "--sample wants grid, random:N or lhs:N, got '%s'", arg);
	if (!colon)
		return fail(err, len, "--sample %s wants a number of points: %s:N", arg, arg);
	v = strtol(colon + 1, &end, 10);
	if (end == colon + 1 || *end || v < 1 || v > RR_SWEEP_MAX_POINTS)
		return fail(err, len, "--sample: '%s' is not 1 to %d points", colon + 1,
			    RR_SWEEP_MAX_POINTS);
	s->samples = (uint32_t)v;
	return 0;
}

uint64_t rr_sweep_nr_points(const struct rr_sweep_spec *s, char *err, size_t len)
{
	uint64_t n = 1;

	if (s->method != RR_SAMPLE_GRID)
		return s->samples;
	for (int k = 0; k < s->nr_params; k++) {
		const struct rr_sweep_param *p = &s->param[k];

		n *= p->is_list ? p->nr_list : p->steps;
		if (n > RR_SWEEP_MAX_POINTS) {
			fail(err, len, "the grid has more than %d points; use fewer steps or "
			     "--sample lhs:N", RR_SWEEP_MAX_POINTS);
			return 0;
		}
	}
	return n;
}

/* splitmix64 seeds xoshiro256** (Blackman and Vigna) */
void rr_rng_seed(struct rr_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		r->s[i] = z ^ (z >> 31);
	}
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rr_rng_next(struct rr_rng *r)
{
	uint64_t *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

double rr_rng_unit(struct rr_rng *r)
{
	return (double)(rr_rng_next(r) >> 11) * 0x1.0p-53;
}

static uint32_t below(struct rr_rng *r, uint32_t n)
{
	return (uint32_t)(rr_rng_unit(r) * n);
}

/* A coordinate in 0..1 made into the parameter's: a list takes the index of the
 * equal share of 0..1 it falls in. */
static double place(const struct rr_sweep_param *p, double u)
{
	if (p->is_list) {
		uint32_t i = (uint32_t)(u * p->nr_list);

		return i < p->nr_list ? i : p->nr_list - 1;
	}
	return u;
}

static void grid(const struct rr_sweep_spec *s, uint32_t nr, double *coord)
{
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t rest = i;

		/* the last parameter varies fastest, as nested loops in --vary order */
		for (int k = s->nr_params - 1; k >= 0; k--) {
			const struct rr_sweep_param *p = &s->param[k];
			uint32_t n = p->is_list ? p->nr_list : p->steps, j = rest % n;

			rest /= n;
			coord[(size_t)i * s->nr_params + k] = p->is_list ? j :
							      n > 1 ? (double)j / (n - 1) : 0;
		}
	}
}

int rr_sweep_make_points(const struct rr_sweep_spec *s, uint32_t nr, double *coord)
{
	struct rr_rng r;
	uint32_t *perm;

	if (s->method == RR_SAMPLE_GRID) {
		grid(s, nr, coord);
		return 0;
	}
	rr_rng_seed(&r, s->seed);
	if (s->method == RR_SAMPLE_RANDOM) {
		for (uint32_t i = 0; i < nr; i++)
			for (int k = 0; k < s->nr_params; k++)
				coord[(size_t)i * s->nr_params + k] = place(&s->param[k],
									    rr_rng_unit(&r));
		return 0;
	}
	perm = malloc((size_t)nr * sizeof(*perm));
	if (!perm)
		return -ENOMEM;
	for (int k = 0; k < s->nr_params; k++) {
		/* Fisher-Yates: point i gets stratum perm[i], a random place inside it */
		for (uint32_t i = 0; i < nr; i++)
			perm[i] = i;
		for (uint32_t i = nr - 1; i > 0; i--) {
			uint32_t j = below(&r, i + 1), t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		for (uint32_t i = 0; i < nr; i++)
			coord[(size_t)i * s->nr_params + k] =
				place(&s->param[k], (perm[i] + rr_rng_unit(&r)) / nr);
	}
	free(perm);
	return 0;
}
