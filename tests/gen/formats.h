/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event format tables for rr-gen, one set per kernel generation.
 *
 * Each event is described by its field declarations in TRACE_EVENT order
 * ("type name;" separated by ';'); rr-gen computes offsets with the
 * kernel's natural alignment and writes the tracefs "format" text from
 * them.  The 6.1 and 6.18 tables reproduce the formats stored in the real
 * recordings under shared/traces (trace-cmd dump --events); 5.10, 5.16-rc
 * and "old" (4.x) are written from that era's include/trace/events/.
 */
#ifndef RR_GEN_FORMATS_H
#define RR_GEN_FORMATS_H

enum gen_kind {
	K_DR_BEGIN, K_DR_END, K_MC_BEGIN, K_MC_END,
	K_KSWAPD_WAKE, K_KSWAPD_SLEEP, K_WAKEUP_KSWAPD,
	K_LRU_ISOLATE, K_SHRINK_INACTIVE, K_SHRINK_ACTIVE,
	K_THROTTLED, K_WRITEPAGE,
	K_CONG_WAIT, K_WAIT_IFF, K_WB_WRITTEN,
	K_COMPACT_ISO,
	K_RQ_ISSUE, K_RQ_COMPLETE,
	K_PRINT,
	K_SCHED_WAKEUP,		/* 6.1 and 6.18 only */
	NKIND
};

/* Value slots shared by all kinds: one name space, looked up by field name. */
enum gen_slot {
	S_NID, S_ZID, S_ORDER, S_GFP, S_MAYWP, S_NR_RECLAIMED, S_NR_SCANNED,
	S_ZONEIDX, S_NR_REQUESTED, S_NR_SKIPPED, S_NR_TAKEN, S_ISOMODE, S_LRU,
	S_NR_DIRTY, S_NR_WRITEBACK, S_NR_CONGESTED, S_NR_IMMEDIATE,
	S_ACT0, S_ACT1, S_REF_KEEP, S_UNMAP_FAIL, S_PRIORITY, S_RFLAGS,
	S_NR_ACTIVE, S_NR_DEACT, S_NR_REFERENCED,
	S_TIMEOUT, S_DELAYED, S_REASON, S_PFN,
	S_NR_PAGES, S_SB_DEV, S_SYNC_MODE, S_KUPDATE, S_CYCLIC, S_BACKGROUND,
	S_CGINO, S_START_PFN, S_END_PFN,
	S_DEV, S_SECTOR, S_NR_SECTOR, S_BYTES, S_ERROR, S_IOPRIO, S_IP,
	S_FILE,		/* derived: lru >= 2 (old lru_isolate "file") */
	S_PID, S_PRIO, S_TARGET_CPU,	/* sched_wakeup: the woken task */
	NSLOT
};

static const char *const slot_names[NSLOT] = {
	"nid", "zid", "order", "gfp_flags", "may_writepage", "nr_reclaimed",
	"nr_scanned", "highest_zoneidx", "nr_requested", "nr_skipped",
	"nr_taken", "isolate_mode", "lru", "nr_dirty", "nr_writeback",
	"nr_congested", "nr_immediate", "nr_activate0", "nr_activate1",
	"nr_ref_keep", "nr_unmap_fail", "priority", "reclaim_flags",
	"nr_active", "nr_deactivated", "nr_referenced", "usec_timeout",
	"usec_delayed", "reason", "pfn", "nr_pages", "sb_dev", "sync_mode",
	"for_kupdate", "range_cyclic", "for_background", "cgroup_ino",
	"start_pfn", "end_pfn", "dev", "sector", "nr_sector", "bytes",
	"error", "ioprio", "ip", "file", "pid", "prio", "target_cpu",
};

struct evdef {
	const char *system;
	const char *name;
	const char *fields;
	const char *print;
};

#define GFP_PRINT(x) "(REC->gfp_flags) ? __print_flags(REC->gfp_flags, \"|\", " \
	"{( unsigned long)(0xcc0), \"GFP_KERNEL\"}, {( unsigned long)(0x100cca), \"GFP_HIGHUSER_MOVABLE\"}, " \
	"{( unsigned long)(0xc40), \"GFP_NOFS\"}, {( unsigned long)(0xc00), \"GFP_NOIO\"}, " \
	"{( unsigned long)(0x800), \"GFP_NOWAIT\"}, {( unsigned long)(0x02), \"__GFP_HIGHMEM\"}, " \
	"{( unsigned long)(0x08), \"__GFP_MOVABLE\"}, {( unsigned long)(0x40), \"__GFP_IO\"}, " \
	"{( unsigned long)(0x80), \"__GFP_FS\"}, {( unsigned long)(0x400), \"__GFP_DIRECT_RECLAIM\"}, " \
	"{( unsigned long)(0x800), \"__GFP_KSWAPD_RECLAIM\"}, {( unsigned long)(0x100000), \"__GFP_HARDWALL\"} ) : \"none\""

#define RWB_PRINT "(REC->reclaim_flags) ? __print_flags(REC->reclaim_flags, \"|\", " \
	"{0x0001u, \"RECLAIM_WB_ANON\"}, {0x0002u, \"RECLAIM_WB_FILE\"}, {0x0010u, \"RECLAIM_WB_MIXED\"}, " \
	"{0x0004u, \"RECLAIM_WB_SYNC\"}, {0x0008u, \"RECLAIM_WB_ASYNC\"} ) : \"RECLAIM_WB_NONE\""

#define LRU_SYM "__print_symbolic(REC->lru, {0, \"inactive_anon\"}, {1, \"active_anon\"}, " \
	"{2, \"inactive_file\"}, {3, \"active_file\"}, {4, \"unevictable\"})"

#define THR_FLAGS3 "{(1 << VMSCAN_THROTTLE_WRITEBACK), \"VMSCAN_THROTTLE_WRITEBACK\"}, " \
	"{(1 << VMSCAN_THROTTLE_ISOLATED), \"VMSCAN_THROTTLE_ISOLATED\"}, " \
	"{(1 << VMSCAN_THROTTLE_NOPROGRESS), \"VMSCAN_THROTTLE_NOPROGRESS\"}"

#define SHRINK_INACTIVE_FIELDS "int nid; unsigned long nr_scanned; unsigned long nr_reclaimed; " \
	"unsigned long nr_dirty; unsigned long nr_writeback; unsigned long nr_congested; " \
	"unsigned long nr_immediate; unsigned int nr_activate0; unsigned int nr_activate1; " \
	"unsigned long nr_ref_keep; unsigned long nr_unmap_fail; int priority; int reclaim_flags"
#define SHRINK_INACTIVE_PRINT "\"nid=%d nr_scanned=%ld nr_reclaimed=%ld nr_dirty=%ld nr_writeback=%ld " \
	"nr_congested=%ld nr_immediate=%ld nr_activate_anon=%d nr_activate_file=%d nr_ref_keep=%ld " \
	"nr_unmap_fail=%ld priority=%d flags=%s\", REC->nid, REC->nr_scanned, REC->nr_reclaimed, " \
	"REC->nr_dirty, REC->nr_writeback, REC->nr_congested, REC->nr_immediate, REC->nr_activate0, " \
	"REC->nr_activate1, REC->nr_ref_keep, REC->nr_unmap_fail, REC->priority, " RWB_PRINT
#define SHRINK_ACTIVE_FIELDS "int nid; unsigned long nr_taken; unsigned long nr_active; " \
	"unsigned long nr_deactivated; unsigned long nr_referenced; int priority; int reclaim_flags"
#define SHRINK_ACTIVE_PRINT "\"nid=%d nr_taken=%ld nr_active=%ld nr_deactivated=%ld nr_referenced=%ld " \
	"priority=%d flags=%s\", REC->nid, REC->nr_taken, REC->nr_active, REC->nr_deactivated, " \
	"REC->nr_referenced, REC->priority, " RWB_PRINT
#define CONG_FIELDS "unsigned int usec_timeout; unsigned int usec_delayed"
#define CONG_PRINT "\"usec_timeout=%u usec_delayed=%u\", REC->usec_timeout, REC->usec_delayed"
#define WB_WORK_PRINT "\"bdi %s: sb_dev %d:%d nr_pages=%ld sync_mode=%d kupdate=%d range_cyclic=%d " \
	"background=%d reason=%s cgroup_ino=%lu\", REC->name, ((unsigned int) ((REC->sb_dev) >> 20)), " \
	"((unsigned int) ((REC->sb_dev) & ((1U << 20) - 1))), REC->nr_pages, REC->sync_mode, " \
	"REC->for_kupdate, REC->range_cyclic, REC->for_background, __print_symbolic(REC->reason, " \
	"{ 0, \"background\" }, { 1, \"vmscan\" }, { 2, \"sync\" }, { 3, \"periodic\" }, " \
	"{ 4, \"laptop_timer\" }, { 5, \"fs_free_space\" }, { 6, \"forker_thread\" }, " \
	"{ 7, \"foreign_flush\" }), (unsigned long)REC->cgroup_ino"
#define COMPACT_FIELDS "unsigned long start_pfn; unsigned long end_pfn; unsigned long nr_scanned; " \
	"unsigned long nr_taken"
#define COMPACT_PRINT "\"range=(0x%lx ~ 0x%lx) nr_scanned=%lu nr_taken=%lu\", REC->start_pfn, " \
	"REC->end_pfn, REC->nr_scanned, REC->nr_taken"
#define DEVMM "((unsigned int) ((REC->dev) >> 20)), ((unsigned int) ((REC->dev) & ((1U << 20) - 1)))"
#define RQ_ISSUE_PRINT "\"%d,%d %s %u (%s) %llu + %u [%s]\", " DEVMM ", REC->rwbs, REC->bytes, " \
	"__get_str(cmd), (unsigned long long)REC->sector, REC->nr_sector, REC->comm"
#define RQ_COMPLETE_PRINT "\"%d,%d %s (%s) %llu + %u [%d]\", " DEVMM ", REC->rwbs, __get_str(cmd), " \
	"(unsigned long long)REC->sector, REC->nr_sector, REC->error"
#define IOPRIO_PRINT "__print_symbolic((((REC->ioprio) >> 13) & (8 - 1)), { IOPRIO_CLASS_NONE, \"none\" }, " \
	"{ IOPRIO_CLASS_RT, \"rt\" }, { IOPRIO_CLASS_BE, \"be\" }, { IOPRIO_CLASS_IDLE, \"idle\" }, " \
	"{ IOPRIO_CLASS_INVALID, \"invalid\"}), (((REC->ioprio) >> 3) & ((1 << 10) - 1)), " \
	"((REC->ioprio) & ((1 << 3) - 1))"
#define PRINT_DEF { "ftrace", "print", "unsigned long ip; char buf[]", \
	"\"%ps: %s\", (void *)REC->ip, REC->buf" }

#define WRITEPAGE_PRINT "\"page=%p pfn=0x%lx flags=%s\", (((struct page *)vmemmap_base) + (REC->pfn)), " \
	"REC->pfn, " RWB_PRINT

/* Kernel 6.1 (Debian 12), as in numa2-both-pressure.dat. */
/* sched_wakeup as in sched-crosscheck.dat (6.18; the same in 6.1) */
#define SCHED_WAKEUP_DEF { "sched", "sched_wakeup", \
	"char comm[16]; pid_t pid; int prio; int target_cpu", \
	"\"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, " \
	"REC->target_cpu" }

static const struct evdef gen_61[NKIND] = {
	[K_DR_BEGIN] = { "vmscan", "mm_vmscan_direct_reclaim_begin", "int order; unsigned long gfp_flags",
		"\"order=%d gfp_flags=%s\", REC->order, " GFP_PRINT(0) },
	[K_DR_END] = { "vmscan", "mm_vmscan_direct_reclaim_end", "unsigned long nr_reclaimed",
		"\"nr_reclaimed=%lu\", REC->nr_reclaimed" },
	[K_MC_BEGIN] = { "vmscan", "mm_vmscan_memcg_reclaim_begin", "int order; unsigned long gfp_flags",
		"\"order=%d gfp_flags=%s\", REC->order, " GFP_PRINT(0) },
	[K_MC_END] = { "vmscan", "mm_vmscan_memcg_reclaim_end", "unsigned long nr_reclaimed",
		"\"nr_reclaimed=%lu\", REC->nr_reclaimed" },
	[K_KSWAPD_WAKE] = { "vmscan", "mm_vmscan_kswapd_wake", "int nid; int zid; int order",
		"\"nid=%d order=%d\", REC->nid, REC->order" },
	[K_KSWAPD_SLEEP] = { "vmscan", "mm_vmscan_kswapd_sleep", "int nid", "\"nid=%d\", REC->nid" },
	[K_WAKEUP_KSWAPD] = { "vmscan", "mm_vmscan_wakeup_kswapd",
		"int nid; int zid; int order; unsigned long gfp_flags",
		"\"nid=%d order=%d gfp_flags=%s\", REC->nid, REC->order, " GFP_PRINT(0) },
	[K_LRU_ISOLATE] = { "vmscan", "mm_vmscan_lru_isolate",
		"int highest_zoneidx; int order; unsigned long nr_requested; unsigned long nr_scanned; "
		"unsigned long nr_skipped; unsigned long nr_taken; unsigned int isolate_mode; int lru",
		"\"isolate_mode=%d classzone=%d order=%d nr_requested=%lu nr_scanned=%lu nr_skipped=%lu "
		"nr_taken=%lu lru=%s\", REC->isolate_mode, REC->highest_zoneidx, REC->order, "
		"REC->nr_requested, REC->nr_scanned, REC->nr_skipped, REC->nr_taken, " LRU_SYM },
	[K_SHRINK_INACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_inactive", SHRINK_INACTIVE_FIELDS,
		SHRINK_INACTIVE_PRINT },
	[K_SHRINK_ACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_active", SHRINK_ACTIVE_FIELDS,
		SHRINK_ACTIVE_PRINT },
	[K_THROTTLED] = { "vmscan", "mm_vmscan_throttled",
		"int nid; int usec_timeout; int usec_delayed; int reason",
		"\"nid=%d usec_timeout=%d usect_delayed=%d reason=%s\", REC->nid, REC->usec_timeout, "
		"REC->usec_delayed, (REC->reason) ? __print_flags(REC->reason, \"|\", " THR_FLAGS3 ", "
		"{(1 << VMSCAN_THROTTLE_CONGESTED), \"VMSCAN_THROTTLE_CONGESTED\"} ) : \"VMSCAN_THROTTLE_NONE\"" },
	[K_WRITEPAGE] = { "vmscan", "mm_vmscan_write_folio", "unsigned long pfn; int reclaim_flags",
		WRITEPAGE_PRINT },
	[K_WB_WRITTEN] = { "writeback", "writeback_written",
		"char name[32]; long nr_pages; dev_t sb_dev; int sync_mode; int for_kupdate; "
		"int range_cyclic; int for_background; int reason; ino_t cgroup_ino", WB_WORK_PRINT },
	[K_COMPACT_ISO] = { "compaction", "mm_compaction_isolate_migratepages", COMPACT_FIELDS, COMPACT_PRINT },
	[K_RQ_ISSUE] = { "block", "block_rq_issue",
		"dev_t dev; sector_t sector; unsigned int nr_sector; unsigned int bytes; char rwbs[8]; "
		"char comm[16]; __data_loc char[] cmd", RQ_ISSUE_PRINT },
	[K_RQ_COMPLETE] = { "block", "block_rq_complete",
		"dev_t dev; sector_t sector; unsigned int nr_sector; int error; char rwbs[8]; "
		"__data_loc char[] cmd", RQ_COMPLETE_PRINT },
	[K_PRINT] = PRINT_DEF,
	[K_SCHED_WAKEUP] = SCHED_WAKEUP_DEF,
};

/* Kernel 6.18, as in counters-writer.dat: no isolate_mode, ioprio in block. */
static const struct evdef gen_618[NKIND] = {
	[K_DR_BEGIN] = { "vmscan", "mm_vmscan_direct_reclaim_begin", "int order; unsigned long gfp_flags",
		"\"order=%d gfp_flags=%s\", REC->order, " GFP_PRINT(0) },
	[K_DR_END] = { "vmscan", "mm_vmscan_direct_reclaim_end", "unsigned long nr_reclaimed",
		"\"nr_reclaimed=%lu\", REC->nr_reclaimed" },
	[K_MC_BEGIN] = { "vmscan", "mm_vmscan_memcg_reclaim_begin", "int order; unsigned long gfp_flags",
		"\"order=%d gfp_flags=%s\", REC->order, " GFP_PRINT(0) },
	[K_MC_END] = { "vmscan", "mm_vmscan_memcg_reclaim_end", "unsigned long nr_reclaimed",
		"\"nr_reclaimed=%lu\", REC->nr_reclaimed" },
	[K_KSWAPD_WAKE] = { "vmscan", "mm_vmscan_kswapd_wake", "int nid; int zid; int order",
		"\"nid=%d order=%d\", REC->nid, REC->order" },
	[K_KSWAPD_SLEEP] = { "vmscan", "mm_vmscan_kswapd_sleep", "int nid", "\"nid=%d\", REC->nid" },
	[K_WAKEUP_KSWAPD] = { "vmscan", "mm_vmscan_wakeup_kswapd",
		"int nid; int zid; int order; unsigned long gfp_flags",
		"\"nid=%d order=%d gfp_flags=%s\", REC->nid, REC->order, " GFP_PRINT(0) },
	[K_LRU_ISOLATE] = { "vmscan", "mm_vmscan_lru_isolate",
		"int highest_zoneidx; int order; unsigned long nr_requested; unsigned long nr_scanned; "
		"unsigned long nr_skipped; unsigned long nr_taken; int lru",
		"\"classzone=%d order=%d nr_requested=%lu nr_scanned=%lu nr_skipped=%lu nr_taken=%lu "
		"lru=%s\", REC->highest_zoneidx, REC->order, REC->nr_requested, REC->nr_scanned, "
		"REC->nr_skipped, REC->nr_taken, " LRU_SYM },
	[K_SHRINK_INACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_inactive", SHRINK_INACTIVE_FIELDS,
		SHRINK_INACTIVE_PRINT },
	[K_SHRINK_ACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_active", SHRINK_ACTIVE_FIELDS,
		SHRINK_ACTIVE_PRINT },
	[K_THROTTLED] = { "vmscan", "mm_vmscan_throttled",
		"int nid; int usec_timeout; int usec_delayed; int reason",
		"\"nid=%d usec_timeout=%d usect_delayed=%d reason=%s\", REC->nid, REC->usec_timeout, "
		"REC->usec_delayed, (REC->reason) ? __print_flags(REC->reason, \"|\", " THR_FLAGS3 ", "
		"{(1 << VMSCAN_THROTTLE_CONGESTED), \"VMSCAN_THROTTLE_CONGESTED\"} ) : \"VMSCAN_THROTTLE_NONE\"" },
	[K_WRITEPAGE] = { "vmscan", "mm_vmscan_write_folio", "unsigned long pfn; int reclaim_flags",
		WRITEPAGE_PRINT },
	[K_WB_WRITTEN] = { "writeback", "writeback_written",
		"char name[32]; long nr_pages; dev_t sb_dev; int sync_mode; int for_kupdate; "
		"int range_cyclic; int for_background; int reason; ino_t cgroup_ino", WB_WORK_PRINT },
	[K_COMPACT_ISO] = { "compaction", "mm_compaction_isolate_migratepages", COMPACT_FIELDS, COMPACT_PRINT },
	[K_RQ_ISSUE] = { "block", "block_rq_issue",
		"dev_t dev; sector_t sector; unsigned int nr_sector; unsigned int bytes; "
		"unsigned short ioprio; char rwbs[10]; char comm[16]; __data_loc char[] cmd",
		"\"%d,%d %s %u (%s) %llu + %u %s,%u,%u [%s]\", " DEVMM ", REC->rwbs, REC->bytes, "
		"__get_str(cmd), (unsigned long long)REC->sector, REC->nr_sector, " IOPRIO_PRINT ", REC->comm" },
	[K_RQ_COMPLETE] = { "block", "block_rq_complete",
		"dev_t dev; sector_t sector; unsigned int nr_sector; int error; unsigned short ioprio; "
		"char rwbs[10]; __data_loc char[] cmd",
		"\"%d,%d %s (%s) %llu + %u %s,%u,%u [%d]\", " DEVMM ", REC->rwbs, __get_str(cmd), "
		"(unsigned long long)REC->sector, REC->nr_sector, " IOPRIO_PRINT ", REC->error" },
	[K_PRINT] = PRINT_DEF,
	[K_SCHED_WAKEUP] = SCHED_WAKEUP_DEF,
};

/* 5.16-rc1..rc7: throttling without CONGESTED, gfp_t gfp_flags, writepage. */
static const struct evdef gen_516rc[NKIND] = {
	[K_DR_BEGIN] = { "vmscan", "mm_vmscan_direct_reclaim_begin", "int order; gfp_t gfp_flags",
		"\"order=%d gfp_flags=%s\", REC->order, " GFP_PRINT(0) },
	[K_DR_END] = { "vmscan", "mm_vmscan_direct_reclaim_end", "unsigned long nr_reclaimed",
		"\"nr_reclaimed=%lu\", REC->nr_reclaimed" },
	[K_MC_BEGIN] = { "vmscan", "mm_vmscan_memcg_reclaim_begin", "int order; gfp_t gfp_flags",
		"\"order=%d gfp_flags=%s\", REC->order, " GFP_PRINT(0) },
	[K_MC_END] = { "vmscan", "mm_vmscan_memcg_reclaim_end", "unsigned long nr_reclaimed",
		"\"nr_reclaimed=%lu\", REC->nr_reclaimed" },
	[K_KSWAPD_WAKE] = { "vmscan", "mm_vmscan_kswapd_wake", "int nid; int zid; int order",
		"\"nid=%d order=%d\", REC->nid, REC->order" },
	[K_KSWAPD_SLEEP] = { "vmscan", "mm_vmscan_kswapd_sleep", "int nid", "\"nid=%d\", REC->nid" },
	[K_WAKEUP_KSWAPD] = { "vmscan", "mm_vmscan_wakeup_kswapd", "int nid; int zid; int order; gfp_t gfp_flags",
		"\"nid=%d order=%d gfp_flags=%s\", REC->nid, REC->order, " GFP_PRINT(0) },
	[K_LRU_ISOLATE] = { "vmscan", "mm_vmscan_lru_isolate",
		"int highest_zoneidx; int order; unsigned long nr_requested; unsigned long nr_scanned; "
		"unsigned long nr_skipped; unsigned long nr_taken; isolate_mode_t isolate_mode; int lru",
		"\"isolate_mode=%d classzone=%d order=%d nr_requested=%lu nr_scanned=%lu nr_skipped=%lu "
		"nr_taken=%lu lru=%s\", REC->isolate_mode, REC->highest_zoneidx, REC->order, "
		"REC->nr_requested, REC->nr_scanned, REC->nr_skipped, REC->nr_taken, " LRU_SYM },
	[K_SHRINK_INACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_inactive", SHRINK_INACTIVE_FIELDS,
		SHRINK_INACTIVE_PRINT },
	[K_SHRINK_ACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_active", SHRINK_ACTIVE_FIELDS,
		SHRINK_ACTIVE_PRINT },
	[K_THROTTLED] = { "vmscan", "mm_vmscan_throttled",
		"int nid; int usec_timeout; int usec_delayed; int reason",
		"\"nid=%d usec_timeout=%d usect_delayed=%d reason=%s\", REC->nid, REC->usec_timeout, "
		"REC->usec_delayed, (REC->reason) ? __print_flags(REC->reason, \"|\", " THR_FLAGS3
		" ) : \"VMSCAN_THROTTLE_NONE\"" },
	[K_WRITEPAGE] = { "vmscan", "mm_vmscan_writepage", "unsigned long pfn; int reclaim_flags",
		WRITEPAGE_PRINT },
	[K_CONG_WAIT] = { "writeback", "writeback_congestion_wait", CONG_FIELDS, CONG_PRINT },
	[K_WB_WRITTEN] = { "writeback", "writeback_written",
		"char name[32]; long nr_pages; dev_t sb_dev; int sync_mode; int for_kupdate; "
		"int range_cyclic; int for_background; int reason; ino_t cgroup_ino", WB_WORK_PRINT },
	[K_COMPACT_ISO] = { "compaction", "mm_compaction_isolate_migratepages", COMPACT_FIELDS, COMPACT_PRINT },
	[K_RQ_ISSUE] = { "block", "block_rq_issue",
		"dev_t dev; sector_t sector; unsigned int nr_sector; unsigned int bytes; char rwbs[8]; "
		"char comm[16]; __data_loc char[] cmd", RQ_ISSUE_PRINT },
	[K_RQ_COMPLETE] = { "block", "block_rq_complete",
		"dev_t dev; sector_t sector; unsigned int nr_sector; int error; char rwbs[8]; "
		"__data_loc char[] cmd", RQ_COMPLETE_PRINT },
	[K_PRINT] = PRINT_DEF,
};

/*
 * 5.10: legacy congestion events, mm_vmscan_writepage, no mm_vmscan_throttled;
 * lru_isolate's zone index is named classzone_idx (as the project's issue 3
 * specifies for this generation).
 */
static const struct evdef gen_510[NKIND] = {
	[K_DR_BEGIN] = { "vmscan", "mm_vmscan_direct_reclaim_begin", "int order; gfp_t gfp_flags",
		"\"order=%d gfp_flags=%s\", REC->order, " GFP_PRINT(0) },
	[K_DR_END] = { "vmscan", "mm_vmscan_direct_reclaim_end", "unsigned long nr_reclaimed",
		"\"nr_reclaimed=%lu\", REC->nr_reclaimed" },
	[K_MC_BEGIN] = { "vmscan", "mm_vmscan_memcg_reclaim_begin", "int order; gfp_t gfp_flags",
		"\"order=%d gfp_flags=%s\", REC->order, " GFP_PRINT(0) },
	[K_MC_END] = { "vmscan", "mm_vmscan_memcg_reclaim_end", "unsigned long nr_reclaimed",
		"\"nr_reclaimed=%lu\", REC->nr_reclaimed" },
	[K_KSWAPD_WAKE] = { "vmscan", "mm_vmscan_kswapd_wake", "int nid; int zid; int order",
		"\"nid=%d order=%d\", REC->nid, REC->order" },
	[K_KSWAPD_SLEEP] = { "vmscan", "mm_vmscan_kswapd_sleep", "int nid", "\"nid=%d\", REC->nid" },
	[K_WAKEUP_KSWAPD] = { "vmscan", "mm_vmscan_wakeup_kswapd", "int nid; int zid; int order; gfp_t gfp_flags",
		"\"nid=%d order=%d gfp_flags=%s\", REC->nid, REC->order, " GFP_PRINT(0) },
	[K_LRU_ISOLATE] = { "vmscan", "mm_vmscan_lru_isolate",
		"int classzone_idx; int order; unsigned long nr_requested; unsigned long nr_scanned; "
		"unsigned long nr_skipped; unsigned long nr_taken; isolate_mode_t isolate_mode; int lru",
		"\"isolate_mode=%d classzone=%d order=%d nr_requested=%lu nr_scanned=%lu nr_skipped=%lu "
		"nr_taken=%lu lru=%s\", REC->isolate_mode, REC->classzone_idx, REC->order, "
		"REC->nr_requested, REC->nr_scanned, REC->nr_skipped, REC->nr_taken, " LRU_SYM },
	[K_SHRINK_INACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_inactive", SHRINK_INACTIVE_FIELDS,
		SHRINK_INACTIVE_PRINT },
	[K_SHRINK_ACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_active", SHRINK_ACTIVE_FIELDS,
		SHRINK_ACTIVE_PRINT },
	[K_WRITEPAGE] = { "vmscan", "mm_vmscan_writepage", "unsigned long pfn; int reclaim_flags",
		WRITEPAGE_PRINT },
	[K_CONG_WAIT] = { "writeback", "writeback_congestion_wait", CONG_FIELDS, CONG_PRINT },
	[K_WAIT_IFF] = { "writeback", "writeback_wait_iff_congested", CONG_FIELDS, CONG_PRINT },
	[K_WB_WRITTEN] = { "writeback", "writeback_written",
		"char name[32]; long nr_pages; dev_t sb_dev; int sync_mode; int for_kupdate; "
		"int range_cyclic; int for_background; int reason; ino_t cgroup_ino", WB_WORK_PRINT },
	[K_COMPACT_ISO] = { "compaction", "mm_compaction_isolate_migratepages", COMPACT_FIELDS, COMPACT_PRINT },
	[K_RQ_ISSUE] = { "block", "block_rq_issue",
		"dev_t dev; sector_t sector; unsigned int nr_sector; unsigned int bytes; char rwbs[8]; "
		"char comm[16]; __data_loc char[] cmd", RQ_ISSUE_PRINT },
	[K_RQ_COMPLETE] = { "block", "block_rq_complete",
		"dev_t dev; sector_t sector; unsigned int nr_sector; int error; char rwbs[8]; "
		"__data_loc char[] cmd", RQ_COMPLETE_PRINT },
	[K_PRINT] = PRINT_DEF,
};

/*
 * "old": a 4.x-like set (about 4.8-4.10): per-zone fields, no nr_congested /
 * nr_immediate / nr_activate*, kswapd_wake without zid, wakeup_kswapd
 * without gfp_flags, direct_reclaim_begin with may_writepage, lru_isolate
 * with "file" instead of "lru", block_rq_complete with "errors".
 */
static const struct evdef gen_old[NKIND] = {
	[K_DR_BEGIN] = { "vmscan", "mm_vmscan_direct_reclaim_begin", "int order; int may_writepage; gfp_t gfp_flags",
		"\"order=%d may_writepage=%d gfp_flags=%s\", REC->order, REC->may_writepage, " GFP_PRINT(0) },
	[K_DR_END] = { "vmscan", "mm_vmscan_direct_reclaim_end", "unsigned long nr_reclaimed",
		"\"nr_reclaimed=%lu\", REC->nr_reclaimed" },
	[K_MC_BEGIN] = { "vmscan", "mm_vmscan_memcg_reclaim_begin", "int order; int may_writepage; gfp_t gfp_flags",
		"\"order=%d may_writepage=%d gfp_flags=%s\", REC->order, REC->may_writepage, " GFP_PRINT(0) },
	[K_MC_END] = { "vmscan", "mm_vmscan_memcg_reclaim_end", "unsigned long nr_reclaimed",
		"\"nr_reclaimed=%lu\", REC->nr_reclaimed" },
	[K_KSWAPD_WAKE] = { "vmscan", "mm_vmscan_kswapd_wake", "int nid; int order",
		"\"nid=%d order=%d\", REC->nid, REC->order" },
	[K_KSWAPD_SLEEP] = { "vmscan", "mm_vmscan_kswapd_sleep", "int nid", "\"nid=%d\", REC->nid" },
	[K_WAKEUP_KSWAPD] = { "vmscan", "mm_vmscan_wakeup_kswapd", "int nid; int zid; int order",
		"\"nid=%d zid=%d order=%d\", REC->nid, REC->zid, REC->order" },
	[K_LRU_ISOLATE] = { "vmscan", "mm_vmscan_lru_isolate",
		"int classzone_idx; int order; unsigned long nr_requested; unsigned long nr_scanned; "
		"unsigned long nr_skipped; unsigned long nr_taken; isolate_mode_t isolate_mode; int file",
		"\"isolate_mode=%d classzone=%d order=%d nr_requested=%lu nr_scanned=%lu nr_skipped=%lu "
		"nr_taken=%lu file=%d\", REC->isolate_mode, REC->classzone_idx, REC->order, "
		"REC->nr_requested, REC->nr_scanned, REC->nr_skipped, REC->nr_taken, REC->file" },
	[K_SHRINK_INACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_inactive",
		"int nid; unsigned long nr_scanned; unsigned long nr_reclaimed; int priority; int reclaim_flags",
		"\"nid=%d nr_scanned=%ld nr_reclaimed=%ld priority=%d flags=%s\", REC->nid, REC->nr_scanned, "
		"REC->nr_reclaimed, REC->priority, " RWB_PRINT },
	[K_SHRINK_ACTIVE] = { "vmscan", "mm_vmscan_lru_shrink_active", SHRINK_ACTIVE_FIELDS,
		SHRINK_ACTIVE_PRINT },
	[K_WRITEPAGE] = { "vmscan", "mm_vmscan_writepage", "unsigned long pfn; int reclaim_flags",
		WRITEPAGE_PRINT },
	[K_CONG_WAIT] = { "writeback", "writeback_congestion_wait", CONG_FIELDS, CONG_PRINT },
	[K_WAIT_IFF] = { "writeback", "writeback_wait_iff_congested", CONG_FIELDS, CONG_PRINT },
	[K_WB_WRITTEN] = { "writeback", "writeback_written",
		"char name[32]; long nr_pages; dev_t sb_dev; int sync_mode; int for_kupdate; "
		"int range_cyclic; int for_background; int reason; unsigned int cgroup_ino", WB_WORK_PRINT },
	[K_COMPACT_ISO] = { "compaction", "mm_compaction_isolate_migratepages", COMPACT_FIELDS, COMPACT_PRINT },
	[K_RQ_ISSUE] = { "block", "block_rq_issue",
		"dev_t dev; sector_t sector; unsigned int nr_sector; unsigned int bytes; char rwbs[8]; "
		"char comm[16]; __data_loc char[] cmd", RQ_ISSUE_PRINT },
	[K_RQ_COMPLETE] = { "block", "block_rq_complete",
		"dev_t dev; sector_t sector; unsigned int nr_sector; int errors; char rwbs[8]; "
		"__data_loc char[] cmd",
		"\"%d,%d %s (%s) %llu + %u [%d]\", " DEVMM ", REC->rwbs, __get_str(cmd), "
		"(unsigned long long)REC->sector, REC->nr_sector, REC->errors" },
	[K_PRINT] = PRINT_DEF,
};

#endif /* RR_GEN_FORMATS_H */
