// SPDX-License-Identifier: GPL-2.0
/*
 * Scale mode: streams N pseudo-random events straight to the writer,
 * without building a model in memory.
 */
#include "rr-gen.h"

/* ------------------------------------------------------------------ */
/* Scale mode                                                          */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

static void scale_emit(struct pw *w, unsigned char *buf, struct ev *e, uint64_t *left)
{
	if (!*left)
		return;
	pw_add(w, e->ts, buf, encode(e, buf));
	tally(e);
	(*left)--;
}

void run_scale(uint64_t n, const char *out, const char *exp)
{
	static const char *const comms[] = { "dd", "memhog", "cat", "kswapd0", "kswapd1", "rr-sampler", "kworker/u8:2" };
	unsigned char *buf = xcalloc(1, 65536);
	uint64_t *off, *size;
	struct timespec t0, t1;
	struct pw w;
	struct ev e;
	long table;
	FILE *f;
	double secs;

	ncpus = 4;
	nnodes = 2;
	for (int c = 0; c < 4; c++)
		cpu_node[c] = c / 2;
	for (int i = 0; i < 7; i++) {
		task_pid[ntasks] = 1000 + i;
		task_comm[ntasks++] = (char *)comms[i];
	}
	/* Each CPU gets its own three reclaimers (pids 1000+100*c .. +2): the
	 * CPUs' timelines overlap, one task cannot be in two episodes on two
	 * CPUs at once, and an analyzer pairs a task's events by pid. */
	for (int c = 1; c < 4; c++)
		for (int i = 0; i < 3; i++) {
			task_pid[ntasks] = 1000 + 100 * c + i;
			task_comm[ntasks++] = (char *)comms[i];
		}
	node_start[0] = 1;
	node_end[0] = 0x80000;
	node_start[1] = 0x80000;
	node_end[1] = 0x100000;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	f = start_file(out, &w, &table, &off, &size);
	memset(&e, 0, sizeof(e));

	for (int c = 0; c < ncpus; c++) {
		uint64_t left = n / ncpus + ((uint64_t)c < n % ncpus);
		uint64_t t = TS_BASE_NS, next_sample = TS_BASE_NS;
		int node = cpu_node[c];
		uint64_t seq = 0;

		align_page(f);
		off[c] = ftell(f);
		w.has = 0;
		while (left) {
			uint64_t r = rnd();
			int memcg = (r & 7) == 0, nb = 1 + (r >> 3) % 8;
			int pid = 1000 + 100 * c + (int)((r >> 8) % 3);
			uint64_t recl = 0;

			/* counter samples every 5 ms of trace time, on CPU 0 */
			if (c == 0 && t >= next_sample) {
				char line[256];

				for (int nd = 0; nd < nnodes && left; nd++) {
					memset(e.v, 0, sizeof(e.v));
					e.kind = K_PRINT;
					e.pid = 1005;
					e.ts = t;
					e.node = -1;
					e.v[S_IP] = PRINT_IP;
					snprintf(line, sizeof(line),
						 "rr-counters v1 node=%d nr_free_pages=%" PRIu64
						 " nr_isolated_file=%" PRIu64 " nr_throttled_written=%" PRIu64,
						 nd, 20000 + (r >> 20) % 5000, (r >> 40) % 512, seq);
					e.str = line;
					scale_emit(&w, buf, &e, &left);
				}
				next_sample += 5000000;
			}
			/* episode begin */
			memset(e.v, 0, sizeof(e.v));
			e.pid = pid;
			e.node = node;
			t += 1000 + (r >> 32) % 4000;
			e.ts = t;
			e.kind = memcg ? K_MC_BEGIN : K_DR_BEGIN;
			e.v[S_GFP] = 0xcc0;
			e.str = "W";
			/* tally before the emit: after it, left is 0 for the file's last event */
			if (left) {
				X.ep[node][memcg ? EP_MEMCG : EP_DIRECT]++;
				X.ep_begun[node][memcg ? EP_MEMCG : EP_DIRECT]++;
			}
			scale_emit(&w, buf, &e, &left);
			for (int b = 0; b < nb && left; b++) {
				uint64_t rr = rnd(), sc = 1 + rr % 32, tk = sc, rc = tk * ((rr >> 8) % 100) / 100;

				memset(e.v, 0, sizeof(e.v));
				t += 500 + (rr >> 16) % 3000;
				e.ts = t;
				e.kind = K_LRU_ISOLATE;
				e.v[S_ZONEIDX] = 2;
				e.v[S_NR_REQUESTED] = 32;
				e.v[S_NR_SCANNED] = sc;
				e.v[S_NR_TAKEN] = tk;
				e.v[S_LRU] = 2 + ((rr >> 24) & 1) * 0;
				scale_emit(&w, buf, &e, &left);
				memset(e.v, 0, sizeof(e.v));
				t += 2000 + (rr >> 28) % 20000;
				e.ts = t;
				e.kind = K_SHRINK_INACTIVE;
				e.v[S_NID] = node;
				e.v[S_NR_SCANNED] = tk;
				e.v[S_NR_RECLAIMED] = rc;
				e.v[S_NR_DIRTY] = (rr >> 40) % 4;
				e.v[S_PRIORITY] = 12 - (rr >> 44) % 4;
				e.v[S_RFLAGS] = 0xa;
				scale_emit(&w, buf, &e, &left);
				recl += rc;
			}
			if (gen_tab[K_THROTTLED].name && (r >> 50) % 10 == 0) {
				int reason = (r >> 54) % 3 == 0 ? 1 : 0;
				uint64_t tmo = reason ? 20000 : 100000, del = tmo - (r >> 56) % 4 * 4000;

				memset(e.v, 0, sizeof(e.v));
				t += del * 1000;
				e.ts = t;
				e.kind = K_THROTTLED;
				e.v[S_NID] = node;
				e.v[S_TIMEOUT] = tmo;
				e.v[S_DELAYED] = del;
				e.v[S_REASON] = 1u << reason;
				scale_emit(&w, buf, &e, &left);
			}
			memset(e.v, 0, sizeof(e.v));
			t += 1000;
			e.ts = t;
			e.kind = memcg ? K_MC_END : K_DR_END;
			e.v[S_NR_RECLAIMED] = recl;
			if (left)
				X.ep_complete[node][memcg ? EP_MEMCG : EP_DIRECT]++;
			scale_emit(&w, buf, &e, &left);
			/* a block write completes */
			memset(e.v, 0, sizeof(e.v));
			t += 3000;
			e.ts = t;
			e.pid = 0;
			e.kind = K_RQ_COMPLETE;
			e.v[S_DEV] = 8u << 20;
			e.v[S_SECTOR] = seq * 8;
			e.v[S_NR_SECTOR] = 256;
			e.str = "W";
			scale_emit(&w, buf, &e, &left);
			seq++;
			/* now and then a long quiet gap: exercises time extends */
			if ((seq & 4095) == 0)
				t += 200000000;
		}
		pw_flush(&w);
		size[c] = ftell(f) - off[c];
	}
	finish_file(f, table, off, size);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (exp)
		write_expected(exp, "scale");
	fprintf(stderr, "rr-gen: %s: %" PRIu64 " events, %" PRIu64 " pages in %.3f s (%.1f M events/s), kernel %s\n",
		out, X.events, w.pages, secs, secs > 0 ? X.events / secs / 1e6 : 0.0, gen_name);
	free(buf);
}
