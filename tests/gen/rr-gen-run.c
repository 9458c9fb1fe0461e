// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario mode: sorts the modelled events per CPU and writes them through
 * the trace.dat writer, then the expected figures.
 */
#include "rr-gen.h"

static int ev_cmp(const void *pa, const void *pb)
{
	const struct ev *a = pa, *b = pb;

	if (a->cpu != b->cpu)
		return a->cpu - b->cpu;
	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int lost_cmp(const void *pa, const void *pb)
{
	const struct lostmark *a = pa, *b = pb;

	if (a->cpu != b->cpu)
		return a->cpu - b->cpu;
	return a->at < b->at ? -1 : a->at > b->at;
}

void run_scenario(const char *scn, const char *out, const char *exp)
{
	uint64_t *off, *size;
	unsigned char *payload = xcalloc(1, 65536);
	struct pw w;
	size_t i, j;
	long table;
	FILE *f;
	int li = 0;

	read_scenario(scn);
	if (nev > 1)
		qsort(evs, nev, sizeof(*evs), ev_cmp);
	if (nlost > 1)
		qsort(lost, nlost, sizeof(*lost), lost_cmp);

	/* drop events inside lost windows */
	for (i = j = 0; i < nev; i++) {
		int drop = 0;

		for (int m = 0; m < nlost; m++)
			if (lost[m].cpu == evs[i].cpu && evs[i].ts >= lost[m].at && evs[i].ts < lost[m].until)
				drop = 1;
		if (!drop)
			evs[j++] = evs[i];
	}
	nev = j;

	/* episodes: which boundary events survived */
	for (i = 0; i < nev; i++)
		if (evs[i].epi) {
			struct episode *ep = &eps[evs[i].epi - 1];

			if (evs[i].epi_end == 1)
				ep->have_begin = 1;
			else
				ep->have_end = 1;
		}
	for (int k = 0; k < neps; k++) {
		int n = eps[k].node < MAX_NODES ? eps[k].node : 0;

		if (eps[k].kind == EP_KSWAPD && !eps[k].terminated)
			continue;	/* only wake-to-sleep spans count */
		X.ep[n][eps[k].kind]++;
		if (eps[k].have_begin)
			X.ep_begun[n][eps[k].kind]++;
		if (eps[k].have_begin && eps[k].have_end)
			X.ep_complete[n][eps[k].kind]++;
	}

	f = start_file(out, &w, &table, &off, &size);
	i = 0;
	for (int c = 0; c < ncpus; c++) {
		align_page(f);
		off[c] = ftell(f);
		w.has = 0;
		w.pend_lost = 0;
		w.cur_lost = 0;
		for (; i < nev && evs[i].cpu == c; i++) {
			while (li < nlost && lost[li].cpu == c && lost[li].at <= evs[i].ts) {
				pw_lost(&w, lost[li].count);
				X.lost += lost[li].count;
				lost[li++].used = 1;
			}
			pw_add(&w, evs[i].ts, payload, encode(&evs[i], payload));
			tally(&evs[i]);
		}
		while (li < nlost && lost[li].cpu == c) {
			cur_line = 0;
			die("lost marker on cpu %d at %" PRIu64 " us has no later event on that cpu",
			    c, (uint64_t)((lost[li].at - TS_BASE_NS) / 1000));
		}
		pw_flush(&w);
		size[c] = ftell(f) - off[c];
	}
	finish_file(f, table, off, size);
	write_expected(exp, scn);
	fprintf(stderr, "rr-gen: %s: %zu events, %" PRIu64 " pages, %" PRIu64 " time extends, kernel %s\n",
		out, nev, w.pages, w.extends, gen_name);
	free(payload);
}
