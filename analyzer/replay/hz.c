// SPDX-License-Identifier: GPL-2.0
/* The recording's HZ, which turns jiffy timeouts into time. */
#include "reclaim_replay/replay.h"

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/*
 * rr-meta says it when present. Otherwise the throttles do: usec_delayed
 * and usec_timeout are whole jiffies, so their greatest common divisor is
 * one jiffy (or a multiple of it when few throttles were recorded).
 */
uint32_t rr_model_hz(const struct rr_model *m, int *inferred)
{
	static const uint32_t common[] = { 100, 250, 300, 1000 };
	uint64_t g = 0;

	if (inferred)
		*inferred = 0;
	if (m->trace->hz > 0)
		return (uint32_t)m->trace->hz;
	for (uint32_t i = 0; i < m->nr_throttles; i++) {
		g = gcd(g, m->throttles[i].usec_timeout);
		g = gcd(g, m->throttles[i].usec_delayed);
	}
	if (inferred)
		*inferred = 1;
	for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		if (g && g == 1000000 / common[i])
			return common[i];
	return 250;	/* Debian's and the recording machines' CONFIG_HZ */
}
