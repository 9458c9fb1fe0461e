// SPDX-License-Identifier: GPL-2.0
/*
 * Shared builder of rr_trace: every reader feeds records through here so the
 * model does not depend on which file format a recording came in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_builder.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/memlimit.h"

#define PID_EMPTY UINT32_MAX

static uint32_t task_of(struct rr_builder *b, uint32_t pid, const char *comm);

/* Grow @array to hold @need elements, doubling; new slots are zeroed only
 * when @zero, so large arrays stay untouched (not resident) until used. */
static int grow_array(void **array, size_t *cap, size_t need, size_t elem, int zero)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 64;
	while (ncap < need)
		ncap *= 2;
	if (rr_mem_charge(*cap * elem, ncap * elem))	/* --max-memory */
		return -ENOMEM;
	p = realloc(*array, ncap * elem);
	if (!p)
		return -ENOMEM;
	if (zero)
		memset((char *)p + *cap * elem, 0, (ncap - *cap) * elem);
	*array = p;
	*cap = ncap;
	return 0;
}

static int grow(void **array, size_t *cap, size_t need, size_t elem)
{
	return grow_array(array, cap, need, elem, 1);
}

int rr_builder_init(struct rr_builder *b, struct rr_trace *trace)
{
	memset(b, 0, sizeof(*b));
	b->trace = trace;
	b->pid_cap = 1024;
	b->pid_slots = malloc(b->pid_cap * sizeof(*b->pid_slots));
	b->task_slots = malloc(b->pid_cap * sizeof(*b->task_slots));
	if (!b->pid_slots || !b->task_slots)
		return -ENOMEM;
	memset(b->pid_slots, 0xff, b->pid_cap * sizeof(*b->pid_slots));
	return 0;
}

void rr_builder_release(struct rr_builder *b)
{
	free(b->pid_slots);
	free(b->task_slots);
	free(b->cpu_after_loss);
	memset(b, 0, sizeof(*b));
}

static int find_name(struct rr_name_count *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i].name, name))
			return (int)i;
	return -1;
}

long rr_builder_name_index(struct rr_builder *b, const char *name, int used)
{
	struct rr_trace *t = b->trace;
	int i = find_name(t->names, t->nr_names, name);

	if (i >= 0)
		return i;
	if (grow((void **)&t->names, &t->cap_names, t->nr_names + 1, sizeof(*t->names)))
		return -1;
	t->names[t->nr_names].name = strdup(name);
	if (!t->names[t->nr_names].name)
		return -1;
	t->names[t->nr_names].used = used;
	return (long)t->nr_names++;
}

int rr_builder_missing_field(struct rr_builder *b, const char *event, const char *field)
{
	struct rr_trace *t = b->trace;
	char key[160];
	int i;

	snprintf(key, sizeof(key), "%s.%s", event, field);
	i = find_name(t->missing_fields, t->nr_missing_fields, key);
	if (i >= 0) {
		t->missing_fields[i].count++;
		return 0;
	}
	if (grow((void **)&t->missing_fields, &t->cap_missing_fields, t->nr_missing_fields + 1,
		 sizeof(*t->missing_fields)))
		return -ENOMEM;
	t->missing_fields[t->nr_missing_fields].name = strdup(key);
	if (!t->missing_fields[t->nr_missing_fields].name)
		return -ENOMEM;
	t->missing_fields[t->nr_missing_fields++].count = 1;
	return 0;
}

static int note_cpu(struct rr_builder *b, int cpu)
{
	struct rr_trace *t = b->trace;
	size_t cap;

	if (cpu < 0 || cpu > 65535)
		return -EINVAL;
	/*
	 * The capacity is rounded up, so a cpu below it may still be above
	 * every cpu seen so far: nr_cpus must grow either way (the model sizes
	 * its per-cpu arrays by it; a fuzzed v7 file with data for cpu 17 of
	 * a 2-cpu header once read past them).
	 */
	if (cpu < b->cpu_cap)
		goto count;
	cap = (size_t)b->cpu_cap;
	if (grow((void **)&b->cpu_after_loss, &cap, (size_t)cpu + 1, 1))
		return -ENOMEM;
	/* lost_per_cpu and loss_marks_per_cpu track the same cpu count */
	{
		size_t c1 = (size_t)b->cpu_cap, c2 = (size_t)b->cpu_cap;

		if (grow((void **)&t->lost_per_cpu, &c1, cap, sizeof(uint64_t)) ||
		    grow((void **)&t->loss_marks_per_cpu, &c2, cap, sizeof(uint64_t)))
			return -ENOMEM;
	}
	b->cpu_cap = (int)cap;
count:
	if (cpu + 1 > t->nr_cpus)
		t->nr_cpus = cpu + 1;
	return 0;
}

struct rr_event *rr_builder_push(struct rr_builder *b, uint64_t ts, uint32_t pid, int cpu,
				 enum rr_event_type type)
{
	uint32_t task = pid == PID_EMPTY ? RR_NO_TASK : task_of(b, pid, NULL);

	if (pid != PID_EMPTY && task == RR_NO_TASK)
		return NULL;
	return rr_builder_push_task(b, ts, task, cpu, type);
}

/*
 * Make the event array's next pages resident in one madvise() each 1 MiB
 * instead of a page fault each 4 KiB (35 000 faults, about 80 ms, for the
 * 144 MB of a 3 M-event trace). Only pages wholly inside the array's
 * capacity, 1 MiB ahead of the last event, so RSS grows by at most 1 MiB
 * more than the events written. Without MADV_POPULATE_WRITE (Linux < 5.14)
 * the pages fault in as before.
 */
static void populate_ahead(struct rr_builder *b)
{
	enum { STEP = 1 << 20 };
	struct rr_trace *t = b->trace;
	uintptr_t base = (uintptr_t)t->events, end = base + t->cap_events * sizeof(*t->events);
	uintptr_t from = base + b->populated, to;

	from = (from + 4095) & ~(uintptr_t)4095;
	to = (from + STEP) & ~(uintptr_t)4095;
	if (to > (end & ~(uintptr_t)4095))
		to = end & ~(uintptr_t)4095;
	if (end - base < 4 * STEP || to <= from) {
		b->populated = end - base;	/* asked again once the array grows */
		return;
	}
	if (rr_mem_populate((void *)from, to - from))
		b->populated = SIZE_MAX;	/* not supported here: stop asking */
	else
		b->populated = to - base;
}

struct rr_event *rr_builder_push_task(struct rr_builder *b, uint64_t ts, uint32_t task, int cpu,
				      enum rr_event_type type)
{
	struct rr_trace *t = b->trace;
	struct rr_event *ev;

	if ((cpu >= b->cpu_cap || cpu >= t->nr_cpus) && note_cpu(b, cpu))
		return NULL;
	if (t->nr_events == t->cap_events &&
	    grow_array((void **)&t->events, &t->cap_events, t->nr_events + 1,
		       sizeof(*t->events), 0))
		return NULL;
	if ((t->nr_events + 1) * sizeof(*ev) > b->populated)
		populate_ahead(b);
	ev = &t->events[t->nr_events];
	memset(ev, 0, sizeof(*ev));
	ev->task = task;
	t->nr_events++;
	ev->ts = ts;
	ev->cpu = (uint16_t)cpu;
	ev->nid = RR_NID_NONE;
	ev->type = (uint8_t)type;
	if (b->cpu_after_loss[cpu]) {
		ev->flags |= RR_EVF_AFTER_LOSS;
		b->cpu_after_loss[cpu] = 0;
	}
	if (ts < b->last_ts) {
		b->unsorted = 1;
		t->records_out_of_order++;
	} else
		b->last_ts = ts;
	t->records_used++;
	return ev;
}

static size_t pid_hash(uint32_t pid, size_t cap)
{
	return (size_t)((pid * 2654435761u) & (cap - 1));
}

/* Slot of @pid in the table, or the empty slot where it would go. */
static size_t pid_slot(const uint32_t *slots, size_t cap, uint32_t pid)
{
	size_t i = pid_hash(pid, cap);

	while (slots[i] != PID_EMPTY && slots[i] != pid)
		i = (i + 1) & (cap - 1);
	return i;
}

int rr_builder_task_known(const struct rr_builder *b, uint32_t pid)
{
	return b->pid_slots[pid_slot(b->pid_slots, b->pid_cap, pid)] == pid;
}

uint32_t rr_builder_task_lookup(const struct rr_builder *b, uint32_t pid)
{
	size_t slot = pid_slot(b->pid_slots, b->pid_cap, pid);

	return pid != PID_EMPTY && b->pid_slots[slot] == pid ? b->task_slots[slot] : RR_NO_TASK;
}

static int pid_set_grow(struct rr_builder *b)
{
	size_t ncap = b->pid_cap * 2;
	uint32_t *slots = malloc(ncap * sizeof(*slots));
	uint32_t *tasks = malloc(ncap * sizeof(*tasks));

	if (!slots || !tasks) {
		free(slots);
		free(tasks);
		return -ENOMEM;
	}
	memset(slots, 0xff, ncap * sizeof(*slots));
	for (size_t i = 0; i < b->pid_cap; i++) {
		if (b->pid_slots[i] != PID_EMPTY) {
			size_t j = pid_slot(slots, ncap, b->pid_slots[i]);

			slots[j] = b->pid_slots[i];
			tasks[j] = b->task_slots[i];
		}
	}
	free(b->pid_slots);
	free(b->task_slots);
	b->pid_slots = slots;
	b->task_slots = tasks;
	b->pid_cap = ncap;
	return 0;
}

static int16_t kswapd_nid_of(const char *comm)
{
	char *end;
	long n;

	if (strncmp(comm, "kswapd", 6) || comm[6] < '0' || comm[6] > '9')
		return RR_NID_NONE;
	n = strtol(comm + 6, &end, 10);
	/* "kswapd0:0" is the per-memcg-tier naming of some kernels */
	if ((*end && *end != ':') || n >= RR_MAX_NODES)
		return RR_NID_NONE;
	return (int16_t)n;
}

static void set_comm(struct rr_task *task, const char *comm)
{
	snprintf(task->comm, sizeof(task->comm), "%s", comm && *comm ? comm : "<...>");
	task->kswapd_nid = kswapd_nid_of(task->comm);
	task->is_kswapd = task->kswapd_nid != RR_NID_NONE;
}

/* Index of @pid's task, adding it (comm @comm, may be NULL) when new. */
static uint32_t task_of(struct rr_builder *b, uint32_t pid, const char *comm)
{
	struct rr_trace *t = b->trace;
	size_t slot = pid_slot(b->pid_slots, b->pid_cap, pid);

	if (b->pid_slots[slot] == pid)
		return b->task_slots[slot];
	if ((t->nr_tasks + 1) * 2 >= b->pid_cap) {
		if (pid_set_grow(b))
			return RR_NO_TASK;
		slot = pid_slot(b->pid_slots, b->pid_cap, pid);
	}
	if (grow((void **)&t->tasks, &t->cap_tasks, t->nr_tasks + 1, sizeof(*t->tasks)))
		return RR_NO_TASK;
	b->pid_slots[slot] = pid;
	b->task_slots[slot] = (uint32_t)t->nr_tasks;
	t->tasks[t->nr_tasks].pid = pid;
	set_comm(&t->tasks[t->nr_tasks], comm);
	return (uint32_t)t->nr_tasks++;
}

int rr_builder_task(struct rr_builder *b, uint32_t pid, const char *comm)
{
	size_t slot = pid_slot(b->pid_slots, b->pid_cap, pid);
	struct rr_task *task;

	if (pid == PID_EMPTY)
		return 0;
	if (b->pid_slots[slot] != pid)
		return task_of(b, pid, comm) == RR_NO_TASK ? -ENOMEM : 0;
	/* seen through push first: give it its name now */
	task = &b->trace->tasks[b->task_slots[slot]];
	if (!strcmp(task->comm, "<...>") && comm && *comm)
		set_comm(task, comm);
	return 0;
}

int rr_builder_lost(struct rr_builder *b, int cpu, uint64_t ts, uint64_t count)
{
	struct rr_trace *t = b->trace;
	struct rr_event *ev;

	if ((cpu >= b->cpu_cap || cpu >= t->nr_cpus) && note_cpu(b, cpu))
		return -ENOMEM;
	t->lost_per_cpu[cpu] += count;
	t->loss_marks_per_cpu[cpu]++;
	ev = rr_builder_push(b, ts, PID_EMPTY, cpu, RR_EV_LOST);
	if (!ev)
		return -ENOMEM;
	t->records_used--;	/* a notice, not a record */
	ev->v[RR_V_LOST_COUNT] = rr_sat32(count);
	b->cpu_after_loss[cpu] = 1;
	return 0;
}

/* Parse "key=value" with an unsigned decimal value; 0 on success. */
static int kv_u64(const char *tok, size_t len, const char **key, size_t *klen, uint64_t *val)
{
	const char *eq = memchr(tok, '=', len);
	uint64_t v = 0;

	if (!eq || eq == tok || eq + 1 == tok + len)
		return -1;
	for (const char *p = eq + 1; p < tok + len; p++) {
		if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*key = tok;
	*klen = (size_t)(eq - tok);
	*val = v;
	return 0;
}

static const char *const counter_names[RR_NR_COUNTERS] = {
	"nr_free_pages", "nr_inactive_anon", "nr_active_anon", "nr_inactive_file",
	"nr_active_file", "nr_isolated_anon", "nr_isolated_file", "nr_dirty",
	"nr_writeback", "nr_written", "nr_throttled_written", "nr_vmscan_immediate_reclaim",
};

const char *rr_counter_name(enum rr_counter c)
{
	return c < RR_NR_COUNTERS ? counter_names[c] : "?";
}

static int key_is(const char *key, size_t klen, const char *name)
{
	return strlen(name) == klen && !memcmp(key, name, klen);
}

/* Next space-separated token of [*p, end). */
static int next_token(const char **p, const char *end, const char **tok, size_t *len)
{
	while (*p < end && **p == ' ')
		(*p)++;
	if (*p >= end)
		return 0;
	*tok = *p;
	while (*p < end && **p != ' ')
		(*p)++;
	*len = (size_t)(*p - *tok);
	return 1;
}

static int parse_counters(struct rr_builder *b, uint64_t ts, const char *p, const char *end,
			  struct rr_counter_sample *s)
{
	const char *tok, *key;
	size_t len, klen;
	uint64_t val;
	int have_node = 0;

	memset(s, 0, sizeof(*s));
	s->ts = ts;
	while (next_token(&p, end, &tok, &len)) {
		if (kv_u64(tok, len, &key, &klen, &val))
			return -1;
		if (key_is(key, klen, "node")) {
			if (val >= RR_MAX_NODES)
				return -1;
			s->nid = (int16_t)val;
			have_node = 1;
			continue;
		}
		for (int c = 0; c < RR_NR_COUNTERS; c++) {
			if (key_is(key, klen, counter_names[c])) {
				s->value[c] = val;
				s->present |= 1u << c;
				break;
			}
		}
		/* unknown keys are ignored, as the line format says */
	}
	(void)b;
	return have_node ? 0 : -1;
}

static int parse_meta(struct rr_builder *b, const char *p, const char *end)
{
	struct rr_trace *t = b->trace;
	const char *tok, *eq;
	size_t len;
	long node = -1;
	uint64_t start = 0, stop = 0;
	int have_range = 0;

	while (next_token(&p, end, &tok, &len)) {
		eq = memchr(tok, '=', len);
		if (!eq)
			return -1;
		size_t klen = (size_t)(eq - tok), vlen = len - klen - 1;
		char val[64];

		if (vlen >= sizeof(val))
			vlen = sizeof(val) - 1;
		memcpy(val, eq + 1, vlen);
		val[vlen] = 0;
		if (key_is(tok, klen, "hz"))
			t->hz = atoi(val);
		else if (key_is(tok, klen, "page_size"))
			t->page_size = atoi(val);
		else if (key_is(tok, klen, "nodes"))
			t->meta_nodes = atoi(val);
		else if (key_is(tok, klen, "kernel"))
			snprintf(t->kernel, sizeof(t->kernel), "%s", val);
		else if (key_is(tok, klen, "sample_us"))
			t->sample_us = (uint32_t)strtoul(val, NULL, 10);
		else if (key_is(tok, klen, "node"))
			node = strtol(val, NULL, 10);
		else if (key_is(tok, klen, "start_pfn"))
			start = strtoull(val, NULL, 0), have_range |= 1;
		else if (key_is(tok, klen, "end_pfn"))
			stop = strtoull(val, NULL, 0), have_range |= 2;
	}
	if (node >= 0 && node < RR_MAX_NODES && have_range == 3 && t->nr_ranges < RR_MAX_NODES) {
		t->ranges[t->nr_ranges].nid = (int)node;
		t->ranges[t->nr_ranges].start_pfn = start;
		t->ranges[t->nr_ranges].end_pfn = stop;
		t->nr_ranges++;
	}
	t->had_meta = 1;
	return 0;
}

int rr_builder_print(struct rr_builder *b, uint64_t ts, uint32_t pid, int cpu,
		     const char *text, size_t len)
{
	static const char counters[] = "rr-counters v1 ", meta[] = "rr-meta v1 ";
	struct rr_trace *t = b->trace;
	const char *end = text + len;
	struct rr_counter_sample s;
	struct rr_event *ev;

	while (end > text && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\0'))
		end--;
	len = (size_t)(end - text);

	if (len > sizeof(counters) - 1 && !memcmp(text, counters, sizeof(counters) - 1)) {
		if (parse_counters(b, ts, text + sizeof(counters) - 1, end, &s)) {
			t->malformed_samples++;
		} else {
			if (grow_array((void **)&t->samples, &t->cap_samples, t->nr_samples + 1,
				       sizeof(*t->samples), 0))
				return -ENOMEM;
			ev = rr_builder_push(b, ts, pid, cpu, RR_EV_COUNTERS);
			if (!ev)
				return -ENOMEM;
			ev->nid = s.nid;
			ev->v[RR_V_SAMPLE_INDEX] = (uint32_t)t->nr_samples;
			t->samples[t->nr_samples++] = s;
			return 0;
		}
	} else if (len > sizeof(meta) - 1 && !memcmp(text, meta, sizeof(meta) - 1)) {
		if (!parse_meta(b, text + sizeof(meta) - 1, end)) {
			ev = rr_builder_push(b, ts, pid, cpu, RR_EV_META);
			return ev ? 0 : -ENOMEM;
		}
		t->malformed_samples++;
	}
	ev = rr_builder_push(b, ts, pid, cpu, RR_EV_MARKER);
	return ev ? 0 : -ENOMEM;
}

/* Stable merge sort by ts: readers deliver time order, so this rarely runs. */
static int sort_events(struct rr_trace *t)
{
	size_t n = t->nr_events;
	struct rr_event *tmp, *src = t->events, *dst;

	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	dst = tmp;
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi)
				dst[k++] = src[j].ts < src[i].ts ? src[j++] : src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		struct rr_event *swap = src;

		src = dst;
		dst = swap;
	}
	if (src != t->events)
		memcpy(t->events, src, n * sizeof(*tmp));
	free(tmp);
	return 0;
}

static int nid_of_pfn(const struct rr_trace *t, uint64_t pfn)
{
	for (int i = 0; i < t->nr_ranges; i++)
		if (pfn >= t->ranges[i].start_pfn && pfn < t->ranges[i].end_pfn)
			return t->ranges[i].nid;
	return RR_NID_NONE;
}

static int uses_pfn(uint8_t type)
{
	switch (type) {
	case RR_EV_WRITE_FOLIO:
	case RR_EV_COMPACT_ISOLATE_MIGRATE:
	case RR_EV_COMPACT_ISOLATE_FREE:
	case RR_EV_COMPACT_FAST_ISOLATE_FREE:
	case RR_EV_COMPACT_BEGIN:
	case RR_EV_COMPACT_END:
		return 1;
	default:
		return 0;
	}
}

int rr_builder_finish(struct rr_builder *b)
{
	struct rr_trace *t = b->trace;
	int max_nid = 0;

	/* Readers may learn a cpu count (file header, "cpus=N") above the cpus
	 * that had events: the per-cpu arrays must cover all of them. */
	if (t->nr_cpus > 65536)
		t->nr_cpus = b->cpu_cap;	/* a header's claim we cannot believe */
	if (t->nr_cpus > 0 && note_cpu(b, t->nr_cpus - 1))
		return -ENOMEM;

	if (b->unsorted && sort_events(t))
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_events; i++) {
		struct rr_event *ev = &t->events[i];

		if (uses_pfn(ev->type) && t->nr_ranges)
			ev->nid = (int16_t)nid_of_pfn(t, (uint64_t)ev->v[0] | (uint64_t)ev->v[1] << 32);
		if (ev->nid > max_nid)
			max_nid = ev->nid;
		if (ev->type == RR_EV_CONGESTION_WAIT || ev->type == RR_EV_WAIT_IFF_CONGESTED)
			t->legacy_throttle_events = 1;
	}
	for (size_t i = 0; i < t->nr_tasks; i++)
		if (t->tasks[i].kswapd_nid > max_nid)
			max_nid = t->tasks[i].kswapd_nid;
	if (t->meta_nodes > max_nid + 1 && t->meta_nodes <= RR_MAX_NODES)
		max_nid = t->meta_nodes - 1;
	t->nr_nodes = max_nid + 1;
	/* Give back the doubling slack: the model keeps the array for good. */
	if (t->nr_events && t->nr_events < t->cap_events) {
		struct rr_event *fit = realloc(t->events, t->nr_events * sizeof(*fit));

		if (fit) {
			t->events = fit;
			t->cap_events = t->nr_events;
		}
	}
	return 0;
}
