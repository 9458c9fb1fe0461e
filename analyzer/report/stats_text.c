// SPDX-License-Identifier: GPL-2.0
/* `stats` results as aligned tables (at most 100 columns), units in headers. */
#include <stdio.h>

#include "reclaim_replay/report.h"
#include "report/text_util.h"

static void print_episodes(FILE *out, const struct rr_node_stats *n)
{
	fprintf(out, "  %-10s %8s %9s %6s %6s %11s %9s %9s %9s %9s\n", "episodes", "begun",
		"completed", "open", "cut", "total ms", "p50 ms", "p90 ms", "p99 ms", "max ms");
	for (int k = 0; k < RR_NR_EPISODE_KINDS; k++) {
		const struct rr_episode_stats *e = &n->episodes[k];

		if (!e->begun && !e->dur.count && !e->open && !e->cut_by_loss)
			continue;
		/* open: begin or end outside the trace; cut: a loss may have eaten it */
		fprintf(out, "  %-10s %8llu %9llu %6llu %6llu %11.1f %9.3f %9.3f %9.3f %9.3f\n",
			rr_context_name(k), (unsigned long long)e->begun,
			(unsigned long long)e->dur.count, (unsigned long long)e->open,
			(unsigned long long)e->cut_by_loss, rr_ms(e->dur.total_ns),
			rr_ms(e->dur.p50_ns), rr_ms(e->dur.p90_ns), rr_ms(e->dur.p99_ns),
			rr_ms(e->dur.max_ns));
	}
}

static void print_reasons(FILE *out, const char *title, const struct rr_reason_stats *r)
{
	int any = 0;

	for (int i = 0; i < RR_NR_REASONS; i++)
		any |= r[i].count != 0;
	if (!any)
		return;
	fprintf(out, "  %-19s %8s %11s %8s %9s %11s\n", title, "count", "sleep ms", "woken",
		"timed out", "timeout ms");
	for (int i = 0; i < RR_NR_REASONS; i++) {
		if (!r[i].count)
			continue;
		fprintf(out, "  %-19s %8llu %11.1f %8llu %9llu %11.1f\n", rr_reason_name(i),
			(unsigned long long)r[i].count, (double)r[i].delayed_us / 1000.0,
			(unsigned long long)r[i].woken_early, (unsigned long long)r[i].timed_out,
			(double)r[i].timeout_us_max / 1000.0);
	}
}

static void print_node(FILE *out, const struct rr_node_stats *n, int color)
{
	double eff = n->scanned ? 100.0 * (double)n->reclaimed / (double)n->scanned : 0.0;
	double unprod = n->batches ? 100.0 * (double)n->unproductive_batches /
		(double)n->batches : 0.0;

	rr_heading(out, color, "node %d", n->nid);
	fprintf(out, "  stall %.1f ms in direct/memcg/node reclaim; kswapd active %.1f ms\n",
		rr_ms(n->stall_ns), rr_ms(n->kswapd_active_ns));
	print_episodes(out, n);
	fprintf(out, "  scanned %llu pages, reclaimed %llu, efficiency %.1f %%, wasted %llu pages\n",
		(unsigned long long)n->scanned, (unsigned long long)n->reclaimed, eff,
		(unsigned long long)n->wasted);
	fprintf(out, "  batches %llu, unproductive (<= 12.5 %%) %llu (%.1f %%); active list "
		"taken %llu\n", (unsigned long long)n->batches,
		(unsigned long long)n->unproductive_batches, unprod,
		(unsigned long long)n->active_taken);
	print_reasons(out, "throttles", n->throttles);
	print_reasons(out, "kswapd throttles", n->kswapd_throttles);
	fprintf(out, "  isolated peak: anon %llu, file %llu pages (reconstructed)",
		(unsigned long long)n->isolated_peak_anon, (unsigned long long)n->isolated_peak_file);
	if (n->samples)
		fprintf(out, "; sampled max anon %llu, file %llu",
			(unsigned long long)n->sampled_isolated_max_anon,
			(unsigned long long)n->sampled_isolated_max_file);
	fprintf(out, "\n");
	if (n->pages_written_by_reclaim)
		fprintf(out, "  folios written by reclaim: %llu\n",
			(unsigned long long)n->pages_written_by_reclaim);
}

void rr_stats_print_table(FILE *out, const struct rr_stats *s, const struct rr_input *in,
			  int color)
{
	int page = in->trace->page_size ? in->trace->page_size : 4096;

	rr_print_input_header(out, in, color);
	for (int n = 0; n < s->nr_nodes; n++)
		print_node(out, &s->nodes[n], color);
	fprintf(out, "\n  writeback: block writes completed %llu pages (%llu requests)\n",
		(unsigned long long)(s->block_write_sectors * 512 / (uint64_t)page),
		(unsigned long long)s->block_write_requests);
	if (s->compaction_migrate_scanned || s->compaction_free_scanned)
		fprintf(out, "  compaction: migrate-scanned %llu, free-scanned %llu, "
			"migrated %llu pages\n",
			(unsigned long long)s->compaction_migrate_scanned,
			(unsigned long long)s->compaction_free_scanned,
			(unsigned long long)s->compaction_migrated);
	if (!s->nr_top)
		return;
	rr_heading(out, color, "top tasks by stall");
	fprintf(out, "  %8s %-16s %4s %11s %11s %8s\n", "pid", "comm", "node", "stall ms",
		"throttle ms", "episodes");
	for (int i = 0; i < s->nr_top; i++)
		fprintf(out, "  %8u %-16s %4d %11.1f %11.1f %8llu\n", s->top[i].pid, s->top[i].comm,
			s->top[i].nid, rr_ms(s->top[i].stall_ns), rr_ms(s->top[i].throttle_ns),
			(unsigned long long)s->top[i].episodes);
}
