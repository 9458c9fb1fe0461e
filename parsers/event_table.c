// SPDX-License-Identifier: GPL-2.0
/*
 * The table of modelled events: kernel event name -> rr_event kind, and each
 * field -> payload slot. Field names follow the kernel's TRACE_EVENT
 * definitions (reference section 4); older formats simply lack some of the
 * optional fields, and the readers report which.
 */
#include <string.h>
#include <strings.h>

#include "event_table.h"

#define F(n, s)		{ .name = n, .slot = s, .conv = RR_CONV_NUM }
#define FR(n, s)	{ .name = n, .slot = s, .conv = RR_CONV_NUM, .required = 1 }
#define FA(n, a, s)	{ .name = n, .text_alias = a, .slot = s, .conv = RR_CONV_NUM }
#define FC(n, s, c)	{ .name = n, .slot = s, .conv = c }
#define FCR(n, s, c)	{ .name = n, .slot = s, .conv = c, .required = 1 }
#define FCA(n, a, s, c)	{ .name = n, .text_alias = a, .slot = s, .conv = c }
/* FX: a field with an older kernels' name (alt_name) and that name's conversion */
#define FX(n, a, alt, ac, s, c, r) \
	{ .name = n, .text_alias = a, .alt_name = alt, .alt_conv = ac, .slot = s, .conv = c, \
	  .required = r }
#define FIELDS(...)	.fields = { __VA_ARGS__ }, \
	.nr_fields = sizeof((struct rr_field_map[]){ __VA_ARGS__ }) / sizeof(struct rr_field_map)

#define BEGIN_FIELDS	FIELDS(F("order", RR_V_ORDER), F("gfp_flags", RR_V_GFP))
#define END_FIELDS	FIELDS(FR("nr_reclaimed", RR_V_NR_RECLAIMED_END))

static const struct rr_event_desc table[] = {
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", RR_EV_DIRECT_BEGIN, BEGIN_FIELDS },
	{ "vmscan", "mm_vmscan_direct_reclaim_end", RR_EV_DIRECT_END, END_FIELDS },
	{ "vmscan", "mm_vmscan_memcg_reclaim_begin", RR_EV_MEMCG_BEGIN, BEGIN_FIELDS },
	{ "vmscan", "mm_vmscan_memcg_reclaim_end", RR_EV_MEMCG_END, END_FIELDS },
	{ "vmscan", "mm_vmscan_memcg_softlimit_reclaim_begin", RR_EV_SOFTLIMIT_BEGIN, BEGIN_FIELDS },
	{ "vmscan", "mm_vmscan_memcg_softlimit_reclaim_end", RR_EV_SOFTLIMIT_END, END_FIELDS },
	{ "vmscan", "mm_vmscan_node_reclaim_begin", RR_EV_NODE_BEGIN,
	  FIELDS(FR("nid", RR_SLOT_NID), F("order", RR_V_ORDER), F("gfp_flags", RR_V_GFP)) },
	{ "vmscan", "mm_vmscan_node_reclaim_end", RR_EV_NODE_END, END_FIELDS },
	{ "vmscan", "mm_vmscan_kswapd_wake", RR_EV_KSWAPD_WAKE,
	  FIELDS(FR("nid", RR_SLOT_NID), F("order", RR_V_WAKE_ORDER), F("zid", RR_V_WAKE_ZID)) },
	{ "vmscan", "mm_vmscan_kswapd_sleep", RR_EV_KSWAPD_SLEEP,
	  FIELDS(FR("nid", RR_SLOT_NID)) },
	{ "vmscan", "mm_vmscan_wakeup_kswapd", RR_EV_WAKEUP_KSWAPD,
	  FIELDS(FR("nid", RR_SLOT_NID), F("order", RR_V_WAKE_ORDER), F("zid", RR_V_WAKE_ZID),
		 F("gfp_flags", RR_V_WAKE_GFP)) },
	{ "vmscan", "mm_vmscan_lru_isolate", RR_EV_LRU_ISOLATE,
	  FIELDS(F("nr_requested", RR_V_ISO_REQUESTED), FR("nr_scanned", RR_V_ISO_SCANNED),
		 FR("nr_taken", RR_V_ISO_TAKEN), F("nr_skipped", RR_V_ISO_SKIPPED),
		 F("order", RR_V_ISO_ORDER),
		 /* classzone_idx until 5.10, printed "classzone=" */
		 FX("highest_zoneidx", "classzone", "classzone_idx", 0, RR_V_ISO_CLASSZONE,
		    RR_CONV_NUM, 0),
		 /* 4.8-4.10: "int file" instead of "lru" */
		 FX("lru", NULL, "file", RR_CONV_FILE_LRU, RR_SLOT_AUX, RR_CONV_LRU, 1)) },
	{ "vmscan", "mm_vmscan_lru_shrink_inactive", RR_EV_SHRINK_INACTIVE,
	  FIELDS(FR("nid", RR_SLOT_NID), FR("nr_scanned", RR_V_SI_SCANNED),
		 FR("nr_reclaimed", RR_V_SI_RECLAIMED), F("nr_dirty", RR_V_SI_DIRTY),
		 F("nr_writeback", RR_V_SI_WRITEBACK), F("nr_congested", RR_V_SI_CONGESTED),
		 F("nr_immediate", RR_V_SI_IMMEDIATE),
		 FA("nr_activate0", "nr_activate_anon", RR_V_SI_ACTIVATE),
		 FA("nr_activate1", "nr_activate_file", RR_V_SI_ACTIVATE),
		 F("priority", RR_SLOT_AUX),
		 FA("reclaim_flags", "flags", RR_SLOT_RECLAIM_FLAGS)) },
	{ "vmscan", "mm_vmscan_lru_shrink_active", RR_EV_SHRINK_ACTIVE,
	  FIELDS(FR("nid", RR_SLOT_NID), FR("nr_taken", RR_V_SA_TAKEN),
		 F("nr_active", RR_V_SA_ACTIVE), F("nr_deactivated", RR_V_SA_DEACTIVATED),
		 F("nr_referenced", RR_V_SA_REFERENCED), F("priority", RR_SLOT_AUX),
		 FA("reclaim_flags", "flags", RR_SLOT_RECLAIM_FLAGS)) },
	{ "vmscan", "mm_vmscan_throttled", RR_EV_THROTTLED,
	  FIELDS(FR("nid", RR_SLOT_NID), FR("usec_timeout", RR_V_THR_TIMEOUT),
		 { .name = "usec_delayed", .text_alias = "usect_delayed",
		   .slot = RR_V_THR_DELAYED, .conv = RR_CONV_NUM, .required = 1 },
		 FCR("reason", RR_SLOT_AUX, RR_CONV_REASON_BIT)) },
	{ "writeback", "writeback_congestion_wait", RR_EV_CONGESTION_WAIT,
	  FIELDS(FR("usec_timeout", RR_V_THR_TIMEOUT), FR("usec_delayed", RR_V_THR_DELAYED)) },
	{ "writeback", "writeback_wait_iff_congested", RR_EV_WAIT_IFF_CONGESTED,
	  FIELDS(FR("usec_timeout", RR_V_THR_TIMEOUT), FR("usec_delayed", RR_V_THR_DELAYED)) },
	{ "vmscan", "mm_vmscan_write_folio", RR_EV_WRITE_FOLIO,
	  FIELDS(FR("pfn", RR_SLOT_PFN), FA("reclaim_flags", "flags", RR_V_WF_FLAGS)) },
	{ "vmscan", "mm_vmscan_writepage", RR_EV_WRITE_FOLIO,
	  FIELDS(FR("pfn", RR_SLOT_PFN), FA("reclaim_flags", "flags", RR_V_WF_FLAGS)) },
	{ "vmscan", "mm_vmscan_reclaim_pages", RR_EV_RECLAIM_PAGES,
	  FIELDS(FR("nid", RR_SLOT_NID), FR("nr_scanned", RR_V_RP_SCANNED),
		 FR("nr_reclaimed", RR_V_RP_RECLAIMED)) },
	{ "vmscan", "mm_shrink_slab_start", RR_EV_SLAB_START,
	  FIELDS(F("nid", RR_SLOT_NID), F("nr_objects_to_shrink", 0), F("total_scan", 1),
		 F("priority", RR_SLOT_AUX)) },
	{ "vmscan", "mm_shrink_slab_end", RR_EV_SLAB_END,
	  FIELDS(F("nid", RR_SLOT_NID), FA("retval", "last shrinker return val", RR_V_SLAB_FREED),
		 F("unused_scan", 1), F("new_scan", 2), F("total_scan", 3)) },
	{ "compaction", "mm_compaction_isolate_migratepages", RR_EV_COMPACT_ISOLATE_MIGRATE,
	  FIELDS(FA("start_pfn", "range", RR_SLOT_PFN), FR("nr_scanned", RR_V_CI_SCANNED),
		 FR("nr_taken", RR_V_CI_TAKEN)) },
	{ "compaction", "mm_compaction_isolate_freepages", RR_EV_COMPACT_ISOLATE_FREE,
	  FIELDS(FA("start_pfn", "range", RR_SLOT_PFN), FR("nr_scanned", RR_V_CI_SCANNED),
		 FR("nr_taken", RR_V_CI_TAKEN)) },
	{ "compaction", "mm_compaction_fast_isolate_freepages", RR_EV_COMPACT_FAST_ISOLATE_FREE,
	  FIELDS(FA("start_pfn", "range", RR_SLOT_PFN), FR("nr_scanned", RR_V_CI_SCANNED),
		 FR("nr_taken", RR_V_CI_TAKEN)) },
	{ "compaction", "mm_compaction_migratepages", RR_EV_COMPACT_MIGRATEPAGES,
	  FIELDS(FR("nr_migrated", RR_V_CM_MIGRATED), FR("nr_failed", RR_V_CM_FAILED)) },
	{ "compaction", "mm_compaction_begin", RR_EV_COMPACT_BEGIN,
	  FIELDS(F("zone_start", RR_SLOT_PFN), FA("sync", "mode", 2)) },
	{ "compaction", "mm_compaction_end", RR_EV_COMPACT_END,
	  FIELDS(F("zone_start", RR_SLOT_PFN), FA("sync", "mode", 2), F("status", 3)) },
	{ "compaction", "mm_compaction_try_to_compact_pages", RR_EV_COMPACT_TRY,
	  FIELDS(F("order", 0), FA("gfp_mask", "gfp_mask", 1),
		 FA("prio", "priority", 2)) },
	{ "compaction", "mm_compaction_kcompactd_wake", RR_EV_KCOMPACTD_WAKE,
	  FIELDS(FR("nid", RR_SLOT_NID), F("order", 0)) },
	{ "writeback", "writeback_written", RR_EV_WB_WRITTEN,
	  FIELDS(F("nr_pages", RR_V_WB_PAGES)) },
	{ "writeback", "writeback_pages_written", RR_EV_WB_PAGES_WRITTEN,
	  FIELDS(FR("pages", RR_V_WB_PAGES)) },
	{ "block", "block_rq_issue", RR_EV_BLOCK_ISSUE,
	  FIELDS(FCR("dev", RR_V_BLK_DEV, RR_CONV_DEV), FR("nr_sector", RR_V_BLK_SECTORS),
		 FCR("rwbs", RR_V_BLK_OP, RR_CONV_RWBS)) },
	{ "block", "block_rq_complete", RR_EV_BLOCK_COMPLETE,
	  FIELDS(FCR("dev", RR_V_BLK_DEV, RR_CONV_DEV), FR("nr_sector", RR_V_BLK_SECTORS),
		 FCR("rwbs", RR_V_BLK_OP, RR_CONV_RWBS),
		 /* "errors" before 4.x's rename */
		 FX("error", NULL, "errors", 0, RR_V_BLK_ERRORS, RR_CONV_NUM, 0)) },
	/* the woken task's pid: when it runs again is its next event */
	{ "sched", "sched_wakeup", RR_EV_SCHED_WAKEUP,
	  FIELDS(FR("pid", RR_V_SW_PID), F("target_cpu", RR_V_SW_TARGET_CPU)) },
};

const struct rr_event_desc *rr_event_desc_find(const char *system, const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (strcmp(table[i].name, name))
			continue;
		if (system && strcmp(table[i].system, system))
			continue;
		return &table[i];
	}
	return NULL;
}

uint64_t rr_field_alt_value(const struct rr_field_map *m, uint64_t value)
{
	if (m->alt_conv == RR_CONV_FILE_LRU)
		return value ? RR_LRU_INACTIVE_FILE : RR_LRU_INACTIVE_ANON;
	return value;
}

int rr_is_print_event(const char *system, const char *name)
{
	return !strcmp(name, "print") && (!system || !strcmp(system, "ftrace"));
}

int rr_reason_from_bits(uint64_t bits)
{
	/* The kernel stores 1 << reason; exactly one bit must be set. */
	if (bits == 0 || (bits & (bits - 1)) || bits > (1u << RR_REASON_CONGESTED))
		return -1;
	return __builtin_ctzll(bits);
}

static int word_eq(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !strncasecmp(s, word, len);
}

int rr_reason_from_text(const char *s, size_t len)
{
	static const char *const names[] = { "WRITEBACK", "ISOLATED", "NOPROGRESS", "CONGESTED" };
	static const char prefix[] = "VMSCAN_THROTTLE_";

	if (len > sizeof(prefix) - 1 && !strncmp(s, prefix, sizeof(prefix) - 1)) {
		s += sizeof(prefix) - 1;
		len -= sizeof(prefix) - 1;
	}
	for (int i = 0; i < 4; i++)
		if (word_eq(s, len, names[i]))
			return i;
	return -1;
}

int rr_lru_from_text(const char *s, size_t len)
{
	static const char *const names[] = { "inactive_anon", "active_anon", "inactive_file",
					     "active_file", "unevictable" };
	for (int i = 0; i < 5; i++)
		if (word_eq(s, len, names[i]))
			return i;
	return -1;
}

int rr_rwbs_op(const char *s, size_t len)
{
	/* blk_fill_rwbs(): the first letter is the operation, except F for
	 * flushes, which may precede W. */
	size_t i = 0;

	while (i < len && s[i] == 'F')
		i++;
	if (i == len)
		return i ? RR_BLK_OTHER : -1;
	switch (s[i]) {
	case 'R': return RR_BLK_READ;
	case 'W': return RR_BLK_WRITE;
	case 'D': return RR_BLK_DISCARD;
	case 'N': case 'E': case 'S': case 'Z': return RR_BLK_OTHER;
	default: return RR_BLK_OTHER;
	}
}

unsigned rr_reclaim_flags_from_text(const char *s, size_t len)
{
	unsigned flags = 0;
	const char *end = s + len;

	while (s < end) {
		const char *bar = memchr(s, '|', (size_t)(end - s));
		size_t n = bar ? (size_t)(bar - s) : (size_t)(end - s);

		if (word_eq(s, n, "RECLAIM_WB_ANON"))
			flags |= RR_RECLAIM_WB_ANON;
		else if (word_eq(s, n, "RECLAIM_WB_FILE"))
			flags |= RR_RECLAIM_WB_FILE;
		s += n + (bar ? 1 : 0);
	}
	return flags;
}
