// SPDX-License-Identifier: GPL-2.0
/*
 * The .scn scenario language: reads a scenario file and builds the event
 * model (events, lost-event marks, episodes) from it.
 */
#include "rr-gen.h"

/* ------------------------------------------------------------------ */
/* Scenario model                                                      */

struct ev *evs;
size_t nev, evcap;
static uint32_t evseq;

struct lostmark *lost;
int nlost;

struct episode *eps;
int neps, epcap;

static const char *cur_file;
int cur_line;

static void __attribute__((noreturn, format(printf, 1, 2))) perr(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "rr-gen: %s:%d: ", cur_file, cur_line);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static struct ev *new_ev(int kind, int pid, int cpu, uint64_t us, int node)
{
	struct ev *e;

	if (!lay[kind].present)
		perr("event %s does not exist in kernel %s",
		     gen_61[kind].name ? gen_61[kind].name : gen_510[kind].name, gen_name);
	if (cpu < 0 || cpu >= ncpus)
		perr("cpu %d out of range", cpu);
	if (nev == evcap) {
		evcap = evcap ? evcap * 2 : 4096;
		evs = realloc(evs, evcap * sizeof(*evs));
		if (!evs)
			die("out of memory");
	}
	e = &evs[nev++];
	memset(e, 0, sizeof(*e));
	e->ts = TS_BASE_NS + us * 1000;
	e->pid = pid;
	e->cpu = cpu;
	e->kind = kind;
	e->node = node;
	e->seq = evseq++;
	return e;
}

static int new_episode(int node, int kind)
{
	if (neps == epcap) {
		epcap = epcap ? epcap * 2 : 256;
		eps = realloc(eps, epcap * sizeof(*eps));
		if (!eps)
			die("out of memory");
	}
	memset(&eps[neps], 0, sizeof(eps[0]));
	eps[neps].node = node;
	eps[neps].kind = kind;
	return ++neps;
}

/* key=value arguments of one line */
#define MAXKV 64
struct args {
	int n;
	char *k[MAXKV], *v[MAXKV];
	int used[MAXKV];
	char *text;		/* text="..." rest of line, for print */
	long long iter;		/* innermost repeat index */
	uint64_t toff;		/* time offset of the enclosing repeats, us */
};

static char *arg_str(struct args *a, const char *k)
{
	for (int i = 0; i < a->n; i++)
		if (!strcmp(a->k[i], k)) {
			a->used[i] = 1;
			return a->v[i];
		}
	return NULL;
}

/*
 * Numbers: decimal or 0x hex, optional "A+B" = A + B * repeat index. Read as
 * unsigned 64-bit (so 2^63 and 2^64-1 can be written as hostile values);
 * a leading '-' gives the two's complement, as the kernel's field would.
 */
static uint64_t parse_u64(const char *s, char **end)
{
	if (*s == '-')
		return (uint64_t)0 - (uint64_t)strtoull(s + 1, end, 0);
	return (uint64_t)strtoull(s, end, 0);
}

static uint64_t parse_num(struct args *a, const char *k, const char *s)
{
	char *end;
	uint64_t v = parse_u64(s, &end);

	if (end == s)
		perr("bad number for %s: '%s'", k, s);
	if (*end == '+') {
		const char *s2 = end + 1;
		uint64_t step = parse_u64(s2, &end);

		if (end == s2)
			perr("bad step for %s: '%s'", k, s);
		v += step * (uint64_t)a->iter;
	}
	if (*end)
		perr("bad number for %s: '%s'", k, s);
	return v;
}

static uint64_t num(struct args *a, const char *k, int required, uint64_t def)
{
	char *s = arg_str(a, k);

	if (!s) {
		if (required)
			perr("missing %s=", k);
		return def;
	}
	return parse_num(a, k, s);
}

static uint64_t tnum(struct args *a, const char *k, int required, uint64_t def)
{
	char *s = arg_str(a, k);

	if (!s) {
		if (required)
			perr("missing %s=", k);
		return def;
	}
	return parse_num(a, k, s) + a->toff;
}

static void check_unused(struct args *a, const char *cmd)
{
	for (int i = 0; i < a->n; i++)
		if (!a->used[i])
			perr("%s: unknown argument '%s'", cmd, a->k[i]);
}

static int reason_bit(const char *s)
{
	static const char *const rn[] = { "WRITEBACK", "ISOLATED", "NOPROGRESS", "CONGESTED" };

	for (int r = 0; r < 4; r++)
		if (!strcasecmp(s, rn[r]))
			return r;
	perr("unknown throttle reason '%s'", s);
}

static uint32_t parse_dev(struct args *a, const char *s)
{
	unsigned ma = 8, mi = 0;

	if (!s)
		return 8u << 20;
	if (sscanf(s, "%u:%u", &ma, &mi) != 2)
		perr("bad dev '%s' (want MAJOR:MINOR)", s);
	(void)a;
	return (ma << 20) | mi;
}

/* One reclaim batch: isolate + shrink_inactive (or shrink_active). */
static void batch(struct args *a, int pid, int cpu, uint64_t t_iso, uint64_t t_shr, int node,
		  int active, uint64_t *reclaimed_sum)
{
	uint64_t lru = num(a, "lru", 0, 2);
	uint64_t scanned = num(a, "scanned", 0, 32);
	uint64_t taken = num(a, "taken", 0, scanned);
	uint64_t recl = num(a, "reclaimed", 0, taken / 2);
	uint64_t prio = num(a, "priority", 0, 12);
	struct ev *e;

	e = new_ev(K_LRU_ISOLATE, pid, cpu, t_iso, node);
	e->v[S_ZONEIDX] = num(a, "zoneidx", 0, 2);
	e->v[S_ORDER] = num(a, "order", 0, 0);
	e->v[S_NR_REQUESTED] = 32;
	e->v[S_NR_SCANNED] = scanned;
	e->v[S_NR_SKIPPED] = num(a, "skipped", 0, 0);
	e->v[S_NR_TAKEN] = taken;
	e->v[S_ISOMODE] = 0;
	e->v[S_LRU] = active ? (lru | 1) : lru;
	if (active) {
		e = new_ev(K_SHRINK_ACTIVE, pid, cpu, t_shr, node);
		e->v[S_NID] = node;
		e->v[S_NR_TAKEN] = taken;
		e->v[S_NR_ACTIVE] = taken / 4;
		e->v[S_NR_DEACT] = taken - taken / 4;
		e->v[S_NR_REFERENCED] = taken / 4;
		e->v[S_PRIORITY] = prio;
		e->v[S_RFLAGS] = lru >= 2 ? 0x2 | 0x8 : 0x1 | 0x8;
		return;
	}
	e = new_ev(K_SHRINK_INACTIVE, pid, cpu, t_shr, node);
	e->v[S_NID] = node;
	e->v[S_NR_SCANNED] = taken;
	e->v[S_NR_RECLAIMED] = recl;
	e->v[S_NR_DIRTY] = num(a, "dirty", 0, 0);
	e->v[S_NR_WRITEBACK] = num(a, "writeback", 0, 0);
	e->v[S_NR_CONGESTED] = num(a, "congested", 0, 0);
	e->v[S_NR_IMMEDIATE] = num(a, "immediate", 0, 0);
	e->v[S_ACT0] = lru < 2 ? (taken - recl) / 2 : 0;
	e->v[S_ACT1] = lru >= 2 ? (taken - recl) / 2 : 0;
	e->v[S_REF_KEEP] = 0;
	e->v[S_UNMAP_FAIL] = 0;
	e->v[S_PRIORITY] = prio;
	e->v[S_RFLAGS] = lru >= 2 ? 0x2 | 0x8 : 0x1 | 0x8;
	*reclaimed_sum += recl;
}

static void do_episode(struct args *a, const char *cmd)
{
	int memcg = !strcmp(cmd, "memcg");
	int pid = num(a, "pid", 1, 0), cpu = num(a, "cpu", 1, 0);
	int node;
	uint64_t at = tnum(a, "at", 1, 0), end = tnum(a, "end", 1, 0);
	int nb = num(a, "batches", 0, 4), na = num(a, "active", 0, 0);
	int epi;
	uint64_t recl = 0, step;
	struct ev *e;
	int i;

	if (cpu < 0 || cpu >= ncpus)
		perr("cpu %d out of range", cpu);
	node = num(a, "nid", 0, cpu_node[cpu]);
	epi = new_episode(node, memcg ? EP_MEMCG : EP_DIRECT);
	if (end <= at)
		perr("episode end must be after at");
	step = (end - at) / (uint64_t)(nb + na + 1);
	if (step < 2 && nb + na)
		perr("episode too short for %d batches", nb + na);
	e = new_ev(memcg ? K_MC_BEGIN : K_DR_BEGIN, pid, cpu, at, node);
	e->v[S_ORDER] = memcg ? 0 : num(a, "order", 0, 0);
	e->v[S_GFP] = num(a, "gfp", 0, 0xcc0);
	e->v[S_MAYWP] = 1;
	e->epi = epi;
	e->epi_end = 1;
	for (i = 0; i < nb + na; i++) {
		uint64_t t = at + step * (i + 1);

		batch(a, pid, cpu, t - step / 2, t, node, i >= nb, &recl);
	}
	e = new_ev(memcg ? K_MC_END : K_DR_END, pid, cpu, end, node);
	e->v[S_NR_RECLAIMED] = recl;
	e->epi = epi;
	e->epi_end = 2;
	arg_str(a, "order");
	check_unused(a, cmd);
}

static void do_kswapd(struct args *a)
{
	int pid = num(a, "pid", 1, 0), cpu = num(a, "cpu", 1, 0);
	int node = num(a, "nid", 0, cpu_node[cpu]);
	uint64_t wake = tnum(a, "wake", 1, 0);
	char *sl = arg_str(a, "sleep");
	uint64_t sleep = sl ? parse_num(a, "sleep", sl) + a->toff : 0;
	uint64_t span = tnum(a, "end", 0, sl ? sleep : wake + 1000) - wake;
	int nb = num(a, "batches", 0, 4), na = num(a, "active", 0, 0);
	int epi = new_episode(node, EP_KSWAPD);
	uint64_t recl = 0, step;
	char *w = arg_str(a, "waker");
	struct ev *e;
	int i;

	if (sl && sleep <= wake)
		perr("sleep must be after wake");
	if (w) {
		int wcpu = num(a, "waker_cpu", 0, cpu);

		e = new_ev(K_WAKEUP_KSWAPD, atoi(w), wcpu, wake ? wake - 1 : 0, node);
		e->v[S_NID] = node;
		e->v[S_ZID] = 2;
		e->v[S_ORDER] = 0;
		e->v[S_GFP] = 0x100cca;
	}
	step = span / (uint64_t)(nb + na + 1);
	e = new_ev(K_KSWAPD_WAKE, pid, cpu, wake, node);
	e->v[S_NID] = node;
	e->v[S_ZID] = num(a, "zid", 0, 2);
	e->v[S_ORDER] = num(a, "order", 0, 0);
	e->epi = epi;
	e->epi_end = 1;
	for (i = 0; i < nb + na; i++) {
		uint64_t t = wake + step * (i + 1);

		batch(a, pid, cpu, t - step / 2, t, node, i >= nb, &recl);
	}
	if (sl) {
		e = new_ev(K_KSWAPD_SLEEP, pid, cpu, sleep, node);
		e->v[S_NID] = node;
		e->epi = epi;
		e->epi_end = 2;
		eps[epi - 1].terminated = 1;
	}
	check_unused(a, "kswapd");
}

static void do_print(int pid, int cpu, uint64_t at, const char *text)
{
	struct ev *e = new_ev(K_PRINT, pid, cpu, at, 0);

	e->v[S_IP] = PRINT_IP;
	e->str = strdup(text);
	e->node = -1;
}

static void do_line(struct args *a, const char *cmd)
{
	struct ev *e;
	int pid, cpu;
	uint64_t at;

	if (!strcmp(cmd, "direct") || !strcmp(cmd, "memcg")) {
		do_episode(a, cmd);
		return;
	}
	if (!strcmp(cmd, "kswapd")) {
		do_kswapd(a);
		return;
	}
	if (!strcmp(cmd, "lost")) {
		struct lostmark *m;

		lost = realloc(lost, (nlost + 1) * sizeof(*lost));
		if (!lost)
			die("out of memory");
		m = &lost[nlost++];
		m->cpu = num(a, "cpu", 1, 0);
		m->at = TS_BASE_NS + tnum(a, "at", 1, 0) * 1000;
		m->until = arg_str(a, "until") ? TS_BASE_NS + tnum(a, "until", 1, 0) * 1000 : m->at;
		m->count = num(a, "count", 1, 0);
		m->used = 0;
		if (m->cpu < 0 || m->cpu >= ncpus)
			perr("lost: cpu out of range");
		check_unused(a, cmd);
		return;
	}
	pid = num(a, "pid", 1, 0);
	cpu = num(a, "cpu", 1, 0);
	if (cpu < 0 || cpu >= ncpus)
		perr("cpu %d out of range", cpu);
	at = tnum(a, "at", 1, 0);
	if (!strcmp(cmd, "throttle")) {
		int r = reason_bit(arg_str(a, "reason") ? arg_str(a, "reason") : "");
		int node = num(a, "nid", 1, 0);

		e = new_ev(K_THROTTLED, pid, cpu, at, node);
		e->v[S_NID] = node;
		e->v[S_REASON] = 1u << r;
		e->v[S_TIMEOUT] = num(a, "timeout", 1, 0);
		e->v[S_DELAYED] = num(a, "delayed", 0, e->v[S_TIMEOUT]);
	} else if (!strcmp(cmd, "congestion_wait") || !strcmp(cmd, "wait_iff_congested")) {
		int node = num(a, "nid", 0, cpu_node[cpu]);

		e = new_ev(cmd[0] == 'c' ? K_CONG_WAIT : K_WAIT_IFF, pid, cpu, at, node);
		e->v[S_TIMEOUT] = num(a, "timeout", 0, 1000000 / hz * (hz / 10));
		e->v[S_DELAYED] = num(a, "delayed", 0, e->v[S_TIMEOUT]);
	} else if (!strcmp(cmd, "wakeup_kswapd")) {
		int node = num(a, "nid", 1, 0);

		e = new_ev(K_WAKEUP_KSWAPD, pid, cpu, at, node);
		e->v[S_NID] = node;
		e->v[S_ZID] = num(a, "zid", 0, 2);
		e->v[S_ORDER] = num(a, "order", 0, 0);
		e->v[S_GFP] = num(a, "gfp", 0, 0x100cca);
	} else if (!strcmp(cmd, "writepage")) {
		e = new_ev(K_WRITEPAGE, pid, cpu, at, cpu_node[cpu]);
		e->v[S_PFN] = num(a, "pfn", 1, 0);
		e->v[S_RFLAGS] = num(a, "flags", 0, 0x2 | 0x8);
	} else if (!strcmp(cmd, "wb_written")) {
		char *bdi = arg_str(a, "bdi");

		e = new_ev(K_WB_WRITTEN, pid, cpu, at, cpu_node[cpu]);
		e->str = strdup(bdi ? bdi : "8:0");
		e->v[S_NR_PAGES] = num(a, "nr_pages", 0, 1024);
		e->v[S_SB_DEV] = parse_dev(a, arg_str(a, "sb_dev"));
		e->v[S_SYNC_MODE] = 0;
		e->v[S_CYCLIC] = 1;
		e->v[S_BACKGROUND] = num(a, "background", 0, 1);
		e->v[S_REASON] = num(a, "reason", 0, 0);
	} else if (!strcmp(cmd, "rq_issue") || !strcmp(cmd, "rq_complete") || !strcmp(cmd, "rq")) {
		uint32_t dev = parse_dev(a, arg_str(a, "dev"));
		uint64_t sector = num(a, "sector", 0, 0), nsec = num(a, "nr_sector", 0, 8);
		char *rw = arg_str(a, "rwbs");
		uint64_t lat = num(a, "lat", 0, 100);

		if (strcmp(cmd, "rq_complete")) {
			e = new_ev(K_RQ_ISSUE, pid, cpu, at, cpu_node[cpu]);
			e->v[S_DEV] = dev;
			e->v[S_SECTOR] = sector;
			e->v[S_NR_SECTOR] = nsec;
			e->v[S_BYTES] = nsec * 512;
			e->v[S_IOPRIO] = 2 << 13 | 4;
			e->str = strdup(rw ? rw : "W");
		}
		if (strcmp(cmd, "rq_issue")) {
			e = new_ev(K_RQ_COMPLETE, strcmp(cmd, "rq") ? pid : 0, cpu,
				   strcmp(cmd, "rq") ? at : at + lat, cpu_node[cpu]);
			e->v[S_DEV] = dev;
			e->v[S_SECTOR] = sector;
			e->v[S_NR_SECTOR] = nsec;
			e->v[S_IOPRIO] = 2 << 13 | 4;
			e->str = strdup(rw ? rw : "W");
		}
	} else if (!strcmp(cmd, "sched_wakeup")) {
		/* pid= is the waker (current), woken= the task made runnable */
		e = new_ev(K_SCHED_WAKEUP, pid, cpu, at, cpu_node[cpu]);
		e->v[S_PID] = num(a, "woken", 1, 0);
		e->v[S_PRIO] = num(a, "prio", 0, 120);
		e->v[S_TARGET_CPU] = num(a, "target_cpu", 0, (uint64_t)cpu);
	} else if (!strcmp(cmd, "compact_isolate")) {
		e = new_ev(K_COMPACT_ISO, pid, cpu, at, cpu_node[cpu]);
		e->v[S_START_PFN] = num(a, "start_pfn", 1, 0);
		e->v[S_END_PFN] = num(a, "end_pfn", 1, 0);
		e->v[S_NR_SCANNED] = num(a, "scanned", 0, 32);
		e->v[S_NR_TAKEN] = num(a, "taken", 0, 32);
	} else if (!strcmp(cmd, "meta")) {
		char line[256];

		snprintf(line, sizeof(line), "rr-meta v1 hz=%d page_size=%d nodes=%d kernel=%s sample_us=%" PRIu64,
			 hz, page_size, nnodes,
			 !strcmp(gen_name, "6.1") ? "6.1.0" : !strcmp(gen_name, "6.18") ? "6.18.0" :
			 !strcmp(gen_name, "5.10") ? "5.10.0" : !strcmp(gen_name, "5.16rc") ? "5.16.0-rc4" : "4.9.0",
			 num(a, "sample_us", 0, 5000));
		do_print(pid, cpu, at, line);
		for (int n = 0; n < nnodes; n++) {
			snprintf(line, sizeof(line), "rr-meta v1 node=%d start_pfn=%" PRIu64 " end_pfn=%" PRIu64,
				 n, node_start[n], node_end[n]);
			do_print(pid, cpu, at, line);
		}
	} else if (!strcmp(cmd, "counters")) {
		char line[1024];
		size_t len;
		int node = num(a, "node", 1, 0);

		len = snprintf(line, sizeof(line), "rr-counters v1 node=%d", node);
		for (int i = 0; i < a->n; i++) {
			if (a->used[i])
				continue;
			a->used[i] = 1;
			len += snprintf(line + len, sizeof(line) - len, " %s=%" PRIu64, a->k[i],
					parse_num(a, a->k[i], a->v[i]));
			if (len >= sizeof(line))
				perr("counters line too long");
		}
		do_print(pid, cpu, at, line);
	} else if (!strcmp(cmd, "print")) {
		if (!a->text)
			perr("print needs text=...");
		do_print(pid, cpu, at, a->text);
	} else {
		perr("unknown line '%s'", cmd);
	}
	check_unused(a, cmd);
}

/* Split a line into command and key=value pairs (modifies line). */
static char *split_args(char *line, struct args *a)
{
	char *p = line, *cmd;

	a->n = 0;
	a->text = NULL;
	memset(a->used, 0, sizeof(a->used));
	while (isspace((unsigned char)*p))
		p++;
	cmd = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	if (*p)
		*p++ = 0;
	for (;;) {
		char *k, *eq;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (!strncmp(p, "text=", 5)) {
			a->text = p + 5;
			if (*a->text == '"') {
				char *q = strrchr(a->text + 1, '"');

				a->text++;
				if (q)
					*q = 0;
			}
			break;
		}
		k = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		if (*p)
			*p++ = 0;
		eq = strchr(k, '=');
		if (a->n >= MAXKV)
			perr("too many arguments");
		if (eq) {
			*eq = 0;
			a->k[a->n] = k;
			a->v[a->n] = eq + 1;
			a->n++;
		} else {
			/* "KEY VALUE" form (lost CPU 1 AT 500 COUNT 40) */
			char *v;

			while (isspace((unsigned char)*p))
				p++;
			v = p;
			while (*p && !isspace((unsigned char)*p))
				p++;
			if (*p)
				*p++ = 0;
			if (!*v)
				perr("argument '%s' has no value", k);
			for (char *c = k; *c; c++)
				*c = tolower((unsigned char)*c);
			a->k[a->n] = k;
			a->v[a->n] = v;
			a->n++;
		}
	}
	return cmd;
}

static char **lines;
static int *line_no;
static int nlines;

static int is_header(const char *cmd)
{
	return !strcmp(cmd, "kernel") || !strcmp(cmd, "hz") || !strcmp(cmd, "page_size") ||
	       !strcmp(cmd, "nodes") || !strcmp(cmd, "cpus") || !strcmp(cmd, "cpu_node") ||
	       !strcmp(cmd, "task") || !strcmp(cmd, "node_pfn");
}

static int is_header_line(const char *s)
{
	char w[32];
	size_t n = strcspn(s, " \t");

	if (n >= sizeof(w))
		return 0;
	memcpy(w, s, n);
	w[n] = 0;
	return is_header(w);
}

static void exec_lines(int from, int to, uint64_t toff, long long iter, int depth)
{
	int i = from;

	while (i < to) {
		char buf[2048], *cmd;
		struct args a;

		cur_line = line_no[i];
		snprintf(buf, sizeof(buf), "%s", lines[i]);
		cmd = buf + strspn(buf, " \t");
		if (!*cmd || is_header_line(cmd)) {
			i++;
			continue;
		}
		cmd = split_args(buf, &a);
		a.iter = iter;
		a.toff = toff;
		if (!*cmd || is_header(cmd)) {
			i++;
			continue;
		}
		if (!strcmp(cmd, "}"))
			perr("unbalanced }");
		if (!strcmp(cmd, "repeat")) {
			/* repeat N every US { */
			char *tok[4];
			char tmp[2048];
			int d = 1, j, nt = 0;
			long long n, every;

			snprintf(tmp, sizeof(tmp), "%s", lines[i]);
			for (char *s = strtok(tmp, " \t"); s && nt < 4; s = strtok(NULL, " \t"))
				tok[nt++] = s;
			if (nt < 4 || strcmp(tok[2], "every"))
				perr("syntax: repeat N every US {");
			n = strtoll(tok[1], NULL, 0);
			every = strtoll(tok[3], NULL, 0);
			if (!strchr(lines[i], '{'))
				perr("repeat needs '{' on the same line");
			for (j = i + 1; j < to; j++) {
				const char *s = lines[j];

				while (isspace((unsigned char)*s))
					s++;
				if (!strncmp(s, "repeat", 6))
					d++;
				else if (*s == '}' && --d == 0)
					break;
			}
			if (j >= to)
				perr("repeat without closing }");
			if (depth > 8)
				perr("repeat nested too deep");
			for (long long r = 0; r < n; r++)
				exec_lines(i + 1, j, toff + (uint64_t)(r * every), r, depth + 1);
			i = j + 1;
			continue;
		}
		do_line(&a, cmd);
		i++;
	}
}

void read_scenario(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[2048];
	int ln = 0, have_kernel = 0, have_cpu_node = 0;

	if (!f)
		die("%s: %s", path, strerror(errno));
	cur_file = path;
	while (fgets(buf, sizeof(buf), f)) {
		char *h = strchr(buf, '#');
		char *cmd, copy[2048];
		struct args a;

		ln++;
		if (h && !strstr(buf, "text="))
			*h = 0;
		buf[strcspn(buf, "\r\n")] = 0;
		lines = realloc(lines, (nlines + 1) * sizeof(*lines));
		line_no = realloc(line_no, (nlines + 1) * sizeof(*line_no));
		if (!lines || !line_no)
			die("out of memory");
		lines[nlines] = strdup(buf);
		line_no[nlines++] = ln;

		/* header lines take effect at once, wherever they are */
		cur_line = ln;
		snprintf(copy, sizeof(copy), "%s", buf);
		cmd = strtok(copy, " \t");
		if (!cmd)
			continue;
		if (!strcmp(cmd, "kernel")) {
			char *g = strtok(NULL, " \t");

			if (!g)
				perr("kernel needs a generation");
			select_gen(g);
			have_kernel = 1;
		} else if (!strcmp(cmd, "hz")) {
			hz = atoi(strtok(NULL, " \t"));
		} else if (!strcmp(cmd, "page_size")) {
			page_size = atoi(strtok(NULL, " \t"));
			if (page_size < 256 || (page_size & (page_size - 1)))
				perr("bad page_size");
		} else if (!strcmp(cmd, "nodes")) {
			nnodes = atoi(strtok(NULL, " \t"));
			if (nnodes < 1 || nnodes > MAX_NODES)
				perr("bad nodes");
		} else if (!strcmp(cmd, "cpus")) {
			ncpus = atoi(strtok(NULL, " \t"));
			if (ncpus < 1 || ncpus > MAX_CPUS)
				perr("bad cpus");
		} else if (!strcmp(cmd, "cpu_node")) {
			char *s;
			int c = 0;

			while ((s = strtok(NULL, " \t")) && c < MAX_CPUS)
				cpu_node[c++] = atoi(s);
			have_cpu_node = 1;
		} else if (!strcmp(cmd, "node_pfn")) {
			int n = atoi(strtok(NULL, " \t"));
			char *s1 = strtok(NULL, " \t"), *s2 = strtok(NULL, " \t");

			if (n < 0 || n >= MAX_NODES || !s1 || !s2)
				perr("syntax: node_pfn N START END");
			node_start[n] = strtoull(s1, NULL, 0);
			node_end[n] = strtoull(s2, NULL, 0);
		} else if (!strcmp(cmd, "task")) {
			char *p = strtok(NULL, " \t"), *c = strtok(NULL, " \t");

			if (!p || !c || ntasks >= MAX_TASKS)
				perr("syntax: task PID COMM");
			task_pid[ntasks] = atoi(p);
			task_comm[ntasks++] = strdup(c);
		}
		(void)a;
	}
	fclose(f);
	if (!have_kernel)
		select_gen("6.1");
	if (!have_cpu_node)
		for (int c = 0; c < ncpus; c++)
			cpu_node[c] = c * nnodes / ncpus;
	for (int n = 0; n < nnodes; n++)
		if (!node_end[n]) {
			node_start[n] = n ? (uint64_t)n * 0x80000 : 1;
			node_end[n] = (uint64_t)(n + 1) * 0x80000;
		}
	exec_lines(0, nlines, 0, 0, 0);
}
