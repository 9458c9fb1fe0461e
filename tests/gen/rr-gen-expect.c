// SPDX-License-Identifier: GPL-2.0
/*
 * Expected figures: tallies the modelled events and writes expected.json,
 * computed from the model rather than by reading the trace back.
 */
#include "rr-gen.h"

/* ------------------------------------------------------------------ */
/* Expected figures                                                    */

static const char *const reason_names[NREASON] = {
	"WRITEBACK", "ISOLATED", "NOPROGRESS", "CONGESTED", "CONGESTION_WAIT", "WAIT_IFF_CONGESTED"
};
static const char *const ep_names[NEPKIND] = { "direct", "memcg", "kswapd" };

struct expect X;

void tally(const struct ev *e)
{
	int n = e->node;

	X.count[e->kind]++;
	X.events++;
	if (n < 0 || n >= MAX_NODES)
		n = 0;
	switch (e->kind) {
	case K_THROTTLED:
		for (int r = 0; r < 4; r++)
			if (e->v[S_REASON] == (1u << r)) {
				X.thr_n[n][r]++;
				X.thr_us[n][r] += e->v[S_DELAYED];
			}
		break;
	case K_CONG_WAIT:
	case K_WAIT_IFF: {
		int r = e->kind == K_CONG_WAIT ? R_CONG_WAIT : R_WAIT_IFF;

		X.thr_n[n][r]++;
		X.thr_us[n][r] += e->v[S_DELAYED];
		break;
	}
	case K_SHRINK_INACTIVE:
		X.si_n[n]++;
		X.si_scanned[n] += e->v[S_NR_SCANNED];
		X.si_reclaimed[n] += e->v[S_NR_RECLAIMED];
		break;
	}
}

void write_expected(const char *path, const char *source)
{
	FILE *f = fopen(path, "w");
	uint64_t tsc = 0, tre = 0, tus = 0, tthr = 0;
	int n, k, r, first;

	if (!f)
		die("%s: %s", path, strerror(errno));
	fprintf(f, "{\n  \"generator\": \"rr-gen 1\",\n  \"source\": \"%s\",\n", source);
	fprintf(f, "  \"kernel\": \"%s\",\n  \"hz\": %d,\n  \"page_size\": %d,\n", gen_name, hz, page_size);
	fprintf(f, "  \"nodes\": %d,\n  \"cpus\": %d,\n", nnodes, ncpus);
	fprintf(f, "  \"events_total\": %" PRIu64 ",\n  \"lost_events\": %" PRIu64 ",\n", X.events, X.lost);
	fprintf(f, "  \"events\": {");
	first = 1;
	for (k = 0; k < NKIND; k++)
		if (X.count[k]) {
			fprintf(f, "%s\n    \"%s\": %" PRIu64, first ? "" : ",", lay[k].def->name, X.count[k]);
			first = 0;
		}
	fprintf(f, "\n  },\n  \"per_node\": {");
	for (n = 0; n < nnodes; n++) {
		fprintf(f, "%s\n    \"%d\": {\n      \"throttle\": {", n ? "," : "", n);
		first = 1;
		for (r = 0; r < NREASON; r++) {
			if (!X.thr_n[n][r])
				continue;
			fprintf(f, "%s\n        \"%s\": { \"count\": %" PRIu64 ", \"usec_delayed\": %" PRIu64 " }",
				first ? "" : ",", reason_names[r], X.thr_n[n][r], X.thr_us[n][r]);
			first = 0;
			tus += X.thr_us[n][r];
			tthr += X.thr_n[n][r];
		}
		fprintf(f, "%s},\n", first ? "" : "\n      ");
		fprintf(f, "      \"shrink_inactive\": { \"count\": %" PRIu64 ", \"nr_scanned\": %" PRIu64
			", \"nr_reclaimed\": %" PRIu64 " },\n", X.si_n[n], X.si_scanned[n], X.si_reclaimed[n]);
		tsc += X.si_scanned[n];
		tre += X.si_reclaimed[n];
		fprintf(f, "      \"episodes\": {");
		for (k = 0; k < NEPKIND; k++)
			fprintf(f, "%s \"%s\": %" PRIu64, k ? "," : "", ep_names[k], X.ep[n][k]);
		fprintf(f, " },\n      \"episodes_begun\": {");
		for (k = 0; k < NEPKIND; k++)
			fprintf(f, "%s \"%s\": %" PRIu64, k ? "," : "", ep_names[k], X.ep_begun[n][k]);
		fprintf(f, " },\n      \"episodes_complete\": {");
		for (k = 0; k < NEPKIND; k++)
			fprintf(f, "%s \"%s\": %" PRIu64, k ? "," : "", ep_names[k], X.ep_complete[n][k]);
		fprintf(f, " }\n    }");
	}
	fprintf(f, "\n  },\n  \"totals\": {\n    \"throttles\": %" PRIu64 ",\n    \"usec_delayed\": %" PRIu64
		",\n    \"nr_scanned\": %" PRIu64 ",\n    \"nr_reclaimed\": %" PRIu64 "\n  }\n}\n",
		tthr, tus, tsc, tre);
	fclose(f);
}
