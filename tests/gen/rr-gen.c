// SPDX-License-Identifier: GPL-2.0
/*
 * rr-gen: write genuine trace.dat version 6 files for tests.
 *
 *   rr-gen [-o OUT.dat] [-e OUT.expected.json] SCENARIO.scn
 *   rr-gen --scale N [--kernel 6.1] -o big.dat [-e big.expected.json]
 *
 * The scenario language is described in tests/gen/README.md.  Next to the
 * trace, rr-gen writes the figures an analyzer should find (event counts,
 * per-node throttles, shrink_inactive sums, episodes, lost events),
 * computed from the scenario model, not by reading the trace back.
 *
 * Links against libc only.  The other rr-gen-*.c files hold the parts;
 * rr-gen.h lists what they share.
 */
#include "rr-gen.h"

void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("rr-gen: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p)
		die("out of memory");
	return p;
}

/* ------------------------------------------------------------------ */

static char *derive(const char *base, const char *suffix)
{
	size_t n = strlen(base);
	char *s;

	if (n > 4 && (!strcmp(base + n - 4, ".scn") || !strcmp(base + n - 4, ".dat")))
		n -= 4;
	s = xcalloc(1, n + strlen(suffix) + 1);
	memcpy(s, base, n);
	strcpy(s + n, suffix);
	return s;
}

static void usage(void)
{
	fputs("usage: rr-gen [-o OUT.dat] [-e OUT.expected.json] SCENARIO.scn\n"
	      "       rr-gen --scale N [--kernel GEN] -o OUT.dat [-e OUT.expected.json]\n"
	      "GEN: 5.10 5.16rc 6.1 6.18 old\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *out = NULL, *exp = NULL, *scn = NULL, *kern = "6.1";
	uint64_t scale = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "-e") && i + 1 < argc)
			exp = argv[++i];
		else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
			scale = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--kernel") && i + 1 < argc)
			kern = argv[++i];
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			usage();
		else if (argv[i][0] == '-')
			usage();
		else
			scn = argv[i];
	}
	if (scale) {
		if (!out)
			usage();
		select_gen(kern);
		run_scale(scale, out, exp ? exp : derive(out, ".expected.json"));
		return 0;
	}
	if (!scn)
		usage();
	if (!out) {
		const char *b = strrchr(scn, '/');

		out = derive(b ? b + 1 : scn, ".dat");
	}
	if (!exp)
		exp = derive(out, ".expected.json");
	run_scenario(scn, out, exp);
	return 0;
}
