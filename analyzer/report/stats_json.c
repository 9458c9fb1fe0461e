// SPDX-License-Identifier: GPL-2.0
/* `stats` results as JSON (schema v1, docs/report-schema.md). */
#include "reclaim_replay/report.h"

#define U(x) json_integer((json_int_t)(x))

static json_t *episode_json(const struct rr_episode_stats *e)
{
	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
		"begun", (json_int_t)e->begun, "completed", (json_int_t)e->dur.count,
		"open", (json_int_t)e->open, "cut_by_loss", (json_int_t)e->cut_by_loss,
		"total_ns", (json_int_t)e->dur.total_ns, "p50_ns", (json_int_t)e->dur.p50_ns,
		"p90_ns", (json_int_t)e->dur.p90_ns, "p99_ns", (json_int_t)e->dur.p99_ns,
		"max_ns", (json_int_t)e->dur.max_ns);
}

static json_t *reasons_json(const struct rr_reason_stats *r)
{
	json_t *o = json_object();

	for (int i = 0; i < RR_NR_REASONS; i++)
		json_object_set_new(o, rr_reason_name(i), json_pack(
			"{s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
			"count", (json_int_t)r[i].count, "total_delayed_us", (json_int_t)r[i].delayed_us,
			"woken_early", (json_int_t)r[i].woken_early,
			"timed_out", (json_int_t)r[i].timed_out,
			"timeout_us_min", (json_int_t)r[i].timeout_us_min,
			"timeout_us_max", (json_int_t)r[i].timeout_us_max,
			"max_delayed_us", (json_int_t)r[i].delayed_us_max));
	return o;
}

static json_t *node_json(const struct rr_node_stats *n)
{
	json_t *o = json_object(), *eps = json_object(), *ctx = json_object();
	double eff = n->scanned ? (double)n->reclaimed / (double)n->scanned : 0.0;

	for (int k = 0; k < RR_NR_EPISODE_KINDS; k++)
		json_object_set_new(eps, rr_context_name(k), episode_json(&n->episodes[k]));
	for (int c = 0; c < RR_NR_CONTEXTS; c++)
		json_object_set_new(ctx, rr_context_name(c), json_pack("{s:I,s:I}",
			"scanned", (json_int_t)n->scanned_by_ctx[c],
			"reclaimed", (json_int_t)n->reclaimed_by_ctx[c]));
	json_object_set_new(o, "nid", U(n->nid));
	json_object_set_new(o, "stall_ns", U(n->stall_ns));
	json_object_set_new(o, "episodes", eps);
	json_object_set_new(o, "kswapd_active_ns", U(n->kswapd_active_ns));
	json_object_set_new(o, "scan", json_pack("{s:I,s:I,s:I,s:f,s:I,s:I,s:o,s:I}",
		"scanned", (json_int_t)n->scanned, "reclaimed", (json_int_t)n->reclaimed,
		"wasted", (json_int_t)n->wasted, "efficiency", eff,
		"batches", (json_int_t)n->batches,
		"unproductive_batches", (json_int_t)n->unproductive_batches,
		"by_context", ctx, "active_taken", (json_int_t)n->active_taken));
	json_object_set_new(o, "throttles", reasons_json(n->throttles));
	json_object_set_new(o, "kswapd_throttles", reasons_json(n->kswapd_throttles));
	json_object_set_new(o, "isolation", json_pack("{s:I,s:I,s:s,s:I,s:I,s:I}",
		"peak_anon", (json_int_t)n->isolated_peak_anon,
		"peak_file", (json_int_t)n->isolated_peak_file, "source", "reconstructed",
		"samples", (json_int_t)n->samples,
		"sampled_max_anon", (json_int_t)n->sampled_isolated_max_anon,
		"sampled_max_file", (json_int_t)n->sampled_isolated_max_file));
	json_object_set_new(o, "pages_written_by_reclaim", U(n->pages_written_by_reclaim));
	return o;
}

json_t *rr_stats_json(const struct rr_stats *s, const struct rr_input *in)
{
	json_t *o = json_object(), *nodes = json_array(), *top = json_array();
	int page = in->trace->page_size ? in->trace->page_size : 4096;

	for (int n = 0; n < s->nr_nodes; n++)
		json_array_append_new(nodes, node_json(&s->nodes[n]));
	for (int i = 0; i < s->nr_top; i++)
		json_array_append_new(top, json_pack("{s:I,s:s,s:I,s:I,s:I,s:I}",
			"pid", (json_int_t)s->top[i].pid, "comm", s->top[i].comm,
			"stall_ns", (json_int_t)s->top[i].stall_ns,
			"throttle_ns", (json_int_t)s->top[i].throttle_ns,
			"episodes", (json_int_t)s->top[i].episodes, "nid", (json_int_t)s->top[i].nid));
	json_object_set_new(o, "nodes", nodes);
	json_object_set_new(o, "top_tasks", top);
	json_object_set_new(o, "machine", json_pack(
		"{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
		"duration_ns", (json_int_t)s->duration_ns,
		"block_write_sectors", (json_int_t)s->block_write_sectors,
		"block_write_pages", (json_int_t)(s->block_write_sectors * 512 / (uint64_t)page),
		"block_write_requests", (json_int_t)s->block_write_requests,
		"block_read_sectors", (json_int_t)s->block_read_sectors,
		"writeback_pages_written", (json_int_t)s->writeback_pages_written,
		"compaction_migrate_scanned", (json_int_t)s->compaction_migrate_scanned,
		"compaction_free_scanned", (json_int_t)s->compaction_free_scanned,
		"compaction_isolated", (json_int_t)s->compaction_isolated,
		"compaction_migrated", (json_int_t)s->compaction_migrated,
		"reclaim_pages_scanned", (json_int_t)s->reclaim_pages_scanned,
		"reclaim_pages_reclaimed", (json_int_t)s->reclaim_pages_reclaimed,
		"lost_events", (json_int_t)s->lost_events));
	return o;
}
