// SPDX-License-Identifier: GPL-2.0
/*
 * --ground-truth: /proc/vmstat and PSI totals read outside the trace,
 * right after tracing starts and right before it stops, written in the
 * shape of the "ground_truth" block of the shared traces' manifests so the
 * same comparisons (trace sums against kernel counters) apply.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder.h"
#include "reclaim_replay/error.h"

struct kv {
	char name[64];
	long long value;
};

struct rr_gt_snapshot {
	struct kv *vm;
	size_t nr_vm;
	/* [memory, io][some, full] total= in us; -1 when absent */
	long long psi[2][2];
	uint64_t mono_ns;
};

static const char *const psi_names[] = { "memory", "io" };

/* Counters the manifests list even when unchanged (rr-manifest.py COUNTER_RE). */
static const char *const selected_prefix[] = {
	"pgscan_", "pgsteal_", "allocstall_", "pgrefill", "pgactivate", "pgdeactivate",
	"workingset_", "compact_", "pgmajfault", "pgfault", "nr_throttled_written",
	"nr_vmscan_write", "nr_vmscan_immediate_reclaim", "nr_dirtied", "nr_written", "pswpin",
	"pswpout", "kswapd_", "pginodesteal", "slabs_scanned", "thp_", "pgpgin", "pgpgout",
	"pgalloc_", "pgfree", "pgmigrate_", "pgdemote_", "pgskip_", "oom_kill", "drop_",
	"pglazyfree", "pgrotated", "zone_reclaim", "swap_ra",
};

static const char *const gauges[] = {
	"nr_free_pages", "nr_dirty", "nr_writeback", "nr_inactive_file", "nr_active_file",
	"nr_inactive_anon", "nr_active_anon", "nr_isolated_file", "nr_isolated_anon", "nr_shmem",
	"nr_mlock", "nr_unevictable", "nr_dirty_threshold", "nr_dirty_background_threshold",
	"nr_swapcached", "nr_file_pages", "nr_anon_pages",
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static int is_selected(const char *k)
{
	for (size_t i = 0; i < ARRAY_LEN(selected_prefix); i++)
		if (!strncmp(k, selected_prefix[i], strlen(selected_prefix[i])))
			return 1;
	return 0;
}

static int is_gauge(const char *k)
{
	for (size_t i = 0; i < ARRAY_LEN(gauges); i++)
		if (!strcmp(k, gauges[i]))
			return 1;
	return 0;
}

static void read_psi(struct rr_gt_snapshot *s, int which)
{
	char path[64], line[256];
	FILE *f;

	s->psi[which][0] = s->psi[which][1] = -1;
	snprintf(path, sizeof(path), "/proc/pressure/%s", psi_names[which]);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *t = strstr(line, "total=");
		int kind = !strncmp(line, "some", 4) ? 0 : !strncmp(line, "full", 4) ? 1 : -1;

		if (t && kind >= 0)
			s->psi[which][kind] = atoll(t + 6);
	}
	fclose(f);
}

struct rr_gt_snapshot *rr_gt_snapshot_take(void)
{
	struct rr_gt_snapshot *s = calloc(1, sizeof(*s));
	size_t cap = 0;
	char line[256];
	FILE *f;

	if (!s)
		return NULL;
	s->mono_ns = rr_rec_now_ns();
	f = fopen("/proc/vmstat", "r");
	if (!f) {
		free(s);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		struct kv kv;

		if (sscanf(line, "%63s %lld", kv.name, &kv.value) != 2)
			continue;
		if (s->nr_vm == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct kv *n = realloc(s->vm, ncap * sizeof(*n));

			if (!n) {
				fclose(f);
				rr_gt_snapshot_free(s);
				return NULL;
			}
			s->vm = n;
			cap = ncap;
		}
		s->vm[s->nr_vm++] = kv;
	}
	fclose(f);
	read_psi(s, 0);
	read_psi(s, 1);
	return s;
}

void rr_gt_snapshot_free(struct rr_gt_snapshot *snap)
{
	if (!snap)
		return;
	free(snap->vm);
	free(snap);
}

static const struct kv *find_kv(const struct rr_gt_snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->nr_vm; i++)
		if (!strcmp(s->vm[i].name, name))
			return &s->vm[i];
	return NULL;
}

int rr_gt_write(const char *path, const struct rr_gt_snapshot *before,
		const struct rr_gt_snapshot *after)
{
	json_t *doc = json_object(), *sel = json_object(), *all = json_object();
	json_t *g = json_object(), *psi = json_object();
	int ret = 0;

	for (size_t i = 0; i < after->nr_vm; i++) {
		const struct kv *a = &after->vm[i], *b = find_kv(before, a->name);
		long long d;

		if (!b)
			continue;
		d = a->value - b->value;
		if (is_selected(a->name))
			json_object_set_new(sel, a->name, json_integer(d));
		if (d)
			json_object_set_new(all, a->name, json_integer(d));
		if (is_gauge(a->name))
			json_object_set_new(g, a->name, json_pack("{s:I,s:I}", "before",
				(json_int_t)b->value, "after", (json_int_t)a->value));
	}
	for (int w = 0; w < 2; w++) {
		if (before->psi[w][0] < 0 || after->psi[w][0] < 0)
			continue;	/* PSI off (psi=0) or no such resource */
		json_object_set_new(psi, psi_names[w], json_pack("{s:I,s:I}",
			"some", (json_int_t)(after->psi[w][0] - before->psi[w][0]),
			"full", (json_int_t)(after->psi[w][1] - before->psi[w][1])));
	}
	json_object_set_new(doc, "window", json_string(
		"snapshots taken right after tracing_on=1 and right before tracing_on=0 of the "
		"recording instance"));
	json_object_set_new(doc, "window_s", json_real((double)(after->mono_ns - before->mono_ns) / 1e9));
	json_object_set_new(doc, "vmstat_delta_selected", sel);
	json_object_set_new(doc, "vmstat_delta_all_nonzero", all);
	json_object_set_new(doc, "vmstat_gauges", g);
	json_object_set_new(doc, "psi_total_delta_us", psi);
	if (json_dump_file(doc, path, JSON_SORT_KEYS | JSON_INDENT(2)))
		ret = rr_fail(RR_EXIT_FAILURE, "cannot write '%s': %s", path,
			      strerror(errno ? errno : EIO));
	json_decref(doc);
	return ret;
}
