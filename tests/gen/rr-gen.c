// SPDX-License-Identifier: GPL-2.0
/*
 * rr-gen: write genuine trace.dat version 6 files for tests.
 *
 *   rr-gen [-o OUT.dat] [-e OUT.expected.json] SCENARIO.scn
 *   rr-gen --scale N [--kernel 6.1] -o big.dat [-e big.expected.json]
 *
 * The scenario language is described in tests/gen/README.md.  Next to the
 * trace, rr-gen writes the figures an analyzer should find (event counts,
 * per-node throttles, shrink_inactive sums, episodes, lost events),
 * computed from the scenario model, not by reading the trace back.
 *
 * Links against libc only.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats.h"

#define MAX_CPUS 256
#define MAX_NODES 64
#define MAX_FIELDS 24
#define MAX_TASKS 4096
#define PRINT_IP 0xffffffff8110f0a0ULL
#define TS_BASE_NS 1000000000000ULL	/* 1000 s: looks like a real uptime */

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("rr-gen: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (!p)
		die("out of memory");
	return p;
}

/* ------------------------------------------------------------------ */
/* Event layouts                                                       */

enum fkind { F_SCALAR, F_CHARARR, F_DATALOC, F_FLEX };

struct field {
	char type[40];
	char name[32];
	int off, size, sign, fk, slot, arrlen, is_comm;
};

struct layout {
	const struct evdef *def;
	int present;
	int id;
	int nf;
	struct field f[MAX_FIELDS];
	int size;		/* fixed part, bytes (struct size) */
	char *format;		/* tracefs format text */
};

static struct layout lay[NKIND];
static const struct evdef *gen_tab;
static const char *gen_name = "6.1";
static int char_signed = 1;

static int type_size(const char *t, int *sign, int *align)
{
	static const struct { const char *t; int size, sign; } tt[] = {
		{ "int", 4, 1 }, { "unsigned int", 4, 0 }, { "long", 8, 1 },
		{ "unsigned long", 8, 0 }, { "unsigned short", 2, 0 },
		{ "short", 2, 1 }, { "dev_t", 4, 0 }, { "sector_t", 8, 0 },
		{ "ino_t", 8, 0 }, { "gfp_t", 4, 0 }, { "isolate_mode_t", 4, 0 },
		{ "unsigned char", 1, 0 }, { "bool", 1, 0 }, { "u64", 8, 0 },
	};
	size_t i;

	if (!strcmp(t, "char")) {
		*sign = char_signed;
		*align = 1;
		return 1;
	}
	for (i = 0; i < sizeof(tt) / sizeof(tt[0]); i++)
		if (!strcmp(t, tt[i].t)) {
			*sign = tt[i].sign;
			*align = tt[i].size;
			return tt[i].size;
		}
	die("unknown field type '%s'", t);
}

static int slot_of(const char *name)
{
	int i;

	if (!strcmp(name, "classzone_idx"))
		return S_ZONEIDX;
	if (!strcmp(name, "errors"))
		return S_ERROR;
	for (i = 0; i < NSLOT; i++)
		if (!strcmp(slot_names[i], name))
			return i;
	return -1;
}

static void append(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > *cap) {
		*cap = (*len + n + 1) * 2;
		*buf = realloc(*buf, *cap);
		if (!*buf)
			die("out of memory");
	}
	memcpy(*buf + *len, s, n + 1);
	*len += n;
}

static void build_layout(int k)
{
	struct layout *L = &lay[k];
	const struct evdef *d = &gen_tab[k];
	char decl[1024], *save = NULL, *tok;
	int off = 8, maxal = 4;
	char line[256], *fmt = NULL;
	size_t flen = 0, fcap = 0;
	int i;

	L->def = d;
	L->present = d->name != NULL;
	if (!L->present)
		return;
	L->id = k == K_PRINT ? 5 : 500 + k;
	snprintf(decl, sizeof(decl), "%s", d->fields);
	for (tok = strtok_r(decl, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		struct field *F = &L->f[L->nf];
		char *name, *br, *end;
		int al;

		while (isspace((unsigned char)*tok))
			tok++;
		end = tok + strlen(tok);
		while (end > tok && isspace((unsigned char)end[-1]))
			*--end = 0;
		if (!*tok)
			continue;
		if (L->nf >= MAX_FIELDS)
			die("too many fields");
		name = strrchr(tok, ' ');
		*name++ = 0;
		snprintf(F->type, sizeof(F->type), "%s", tok);
		snprintf(F->name, sizeof(F->name), "%s", name);
		br = strchr(F->name, '[');
		if (!strncmp(F->type, "__data_loc", 10)) {
			F->fk = F_DATALOC;
			F->size = 4;
			F->sign = char_signed;
			al = 4;
		} else if (br) {
			*br = 0;
			type_size(F->type, &F->sign, &al);
			if (br[1] == ']') {
				F->fk = F_FLEX;
				F->size = 0;
			} else {
				F->fk = F_CHARARR;
				F->arrlen = atoi(br + 1);
				F->size = F->arrlen;
			}
		} else {
			F->fk = F_SCALAR;
			F->size = type_size(F->type, &F->sign, &al);
		}
		off = (off + al - 1) / al * al;
		F->off = off;
		off += F->size;
		if (al > maxal)
			maxal = al;
		F->slot = slot_of(F->name);
		F->is_comm = !strcmp(F->name, "comm");
		L->nf++;
	}
	L->size = (off + maxal - 1) / maxal * maxal;
	if (L->f[L->nf - 1].fk == F_FLEX)
		L->size = off;	/* flexible array: data starts right at buf */

	snprintf(line, sizeof(line), "name: %s\nID: %d\nformat:\n", d->name, L->id);
	append(&fmt, &flen, &fcap, line);
	append(&fmt, &flen, &fcap,
	       "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	       "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	       "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	       "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
	for (i = 0; i < L->nf; i++) {
		struct field *F = &L->f[i];
		char nm[48];

		if (F->fk == F_CHARARR)
			snprintf(nm, sizeof(nm), "%s[%d]", F->name, F->arrlen);
		else if (F->fk == F_FLEX)
			snprintf(nm, sizeof(nm), "%s[]", F->name);
		else
			snprintf(nm, sizeof(nm), "%s", F->name);
		snprintf(line, sizeof(line), "\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;\n",
			 F->type, nm, F->off, F->size, F->sign);
		append(&fmt, &flen, &fcap, line);
	}
	append(&fmt, &flen, &fcap, "\nprint fmt: ");
	append(&fmt, &flen, &fcap, d->print);
	append(&fmt, &flen, &fcap, "\n");
	L->format = fmt;
}

static void select_gen(const char *g)
{
	if (!strcmp(g, "6.1"))
		gen_tab = gen_61;
	else if (!strcmp(g, "6.18"))
		gen_tab = gen_618;
	else if (!strcmp(g, "5.16rc") || !strcmp(g, "5.16-rc"))
		gen_tab = gen_516rc;
	else if (!strcmp(g, "5.10"))
		gen_tab = gen_510;
	else if (!strcmp(g, "old"))
		gen_tab = gen_old;
	else
		die("unknown kernel generation '%s' (5.10, 5.16rc, 6.1, 6.18, old)", g);
	gen_name = gen_tab == gen_61 ? "6.1" : gen_tab == gen_618 ? "6.18" :
		   gen_tab == gen_516rc ? "5.16rc" : gen_tab == gen_510 ? "5.10" : "old";
	char_signed = gen_tab != gen_618;
	for (int k = 0; k < NKIND; k++)
		build_layout(k);
}

/* ------------------------------------------------------------------ */
/* Events                                                              */

struct ev {
	uint64_t ts;		/* ns */
	int32_t pid;
	int16_t cpu;
	int16_t kind;
	int32_t node;		/* node the expected figures charge it to */
	int32_t epi;		/* episode index + 1, or 0 */
	uint32_t seq;
	uint8_t epi_end;	/* 1: begin, 2: end of episode */
	uint64_t v[NSLOT];
	const char *str;
};

static char *task_comm[MAX_TASKS];
static int task_pid[MAX_TASKS];
static int ntasks;

static const char *comm_of(int pid)
{
	for (int i = 0; i < ntasks; i++)
		if (task_pid[i] == pid)
			return task_comm[i];
	return "<...>";
}

/* Encode one event payload into out; returns its length. */
static int encode(const struct ev *e, unsigned char *out)
{
	const struct layout *L = &lay[e->kind];
	int len = L->size;

	if (!L->present)
		die("event kind %d not in kernel %s", e->kind, gen_name);
	memset(out, 0, L->size);
	out[0] = L->id & 0xff;
	out[1] = L->id >> 8;
	out[3] = 0;
	memcpy(out + 4, &e->pid, 4);
	for (int i = 0; i < L->nf; i++) {
		const struct field *F = &L->f[i];
		uint64_t v;
		const char *s;
		size_t n;

		switch (F->fk) {
		case F_SCALAR:
			if (F->slot == S_FILE)
				v = e->v[S_LRU] >= 2;
			else
				v = F->slot >= 0 ? e->v[F->slot] : 0;
			/* little endian host */
			switch (F->size) {
			case 8: memcpy(out + F->off, &v, 8); break;
			case 4: { uint32_t v4 = v; memcpy(out + F->off, &v4, 4); break; }
			case 2: { uint16_t v2 = v; memcpy(out + F->off, &v2, 2); break; }
			default: out[F->off] = v; break;
			}
			break;
		case F_CHARARR:
			s = F->is_comm ? comm_of(e->pid) : e->str ? e->str : "";
			n = strlen(s);
			if (n > (size_t)F->arrlen - 1)
				n = F->arrlen - 1;
			memcpy(out + F->off, s, n);
			break;
		case F_DATALOC: {
			uint32_t loc = (1u << 16) | (uint32_t)len;

			memcpy(out + F->off, &loc, 4);
			out[len++] = 0;		/* empty cmd string */
			break;
		}
		case F_FLEX:
			s = e->str ? e->str : "";
			n = strlen(s);
			memcpy(out + len, s, n);
			len += n;
			out[len++] = '\n';
			out[len++] = 0;
			break;
		}
	}
	return len;
}

/* ------------------------------------------------------------------ */
/* Ring-buffer pages                                                   */

struct pw {
	FILE *f;
	unsigned psz;
	unsigned char *page;
	unsigned used;
	int has;
	uint64_t last_ts;
	uint64_t cur_lost, pend_lost;
	uint64_t pages;
	uint64_t extends;
};

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static void pw_flush(struct pw *w)
{
	unsigned cap = w->psz - 16;
	uint64_t commit = w->used;

	if (!w->has)
		return;
	if (w->cur_lost) {
		put64(w->page + 16 + w->used, w->cur_lost);
		commit |= (1ULL << 31) | (1ULL << 30);	/* MISSED_EVENTS | MISSED_STORED */
	} else if (cap - w->used >= 8) {
		/* padding event to the end of the page, as rb_reset_tail() */
		put32(w->page + 16 + w->used, 29);
		put32(w->page + 16 + w->used + 4, cap - w->used - 4);
		commit = cap;
	}
	put64(w->page + 8, commit);
	if (fwrite(w->page, 1, w->psz, w->f) != w->psz)
		die("write: %s", strerror(errno));
	w->pages++;
	w->has = 0;
}

static void pw_start(struct pw *w, uint64_t ts)
{
	memset(w->page, 0, w->psz);
	put64(w->page, ts);
	w->used = 0;
	w->has = 1;
	w->last_ts = ts;
	w->cur_lost = w->pend_lost;
	w->pend_lost = 0;
}

static void pw_lost(struct pw *w, uint64_t count)
{
	pw_flush(w);
	w->pend_lost += count;
}

static void pw_add(struct pw *w, uint64_t ts, const unsigned char *data, unsigned len)
{
	unsigned al = (len + 3) & ~3u;
	unsigned rlen = len <= 112 ? 4 + al : 8 + al;
	unsigned cap, ext;
	uint64_t delta;
	unsigned char *p;

	if (rlen > w->psz - 16 - 16)
		die("event of %u bytes does not fit in a page", len);
	if (!w->has)
		pw_start(w, ts);
	if (ts < w->last_ts)
		die("time goes backwards on a CPU");
	delta = ts - w->last_ts;
	ext = delta >= (1u << 27) ? 8 : 0;
	cap = w->psz - 16 - (w->cur_lost ? 8 : 0);
	if (w->used + ext + rlen > cap) {
		pw_flush(w);
		pw_start(w, ts);
		delta = 0;
		ext = 0;
	}
	p = w->page + 16 + w->used;
	if (ext) {
		put32(p, 30 | (uint32_t)((delta & ((1u << 27) - 1)) << 5));
		put32(p + 4, (uint32_t)(delta >> 27));
		p += 8;
		delta = 0;
		w->extends++;
	}
	if (len <= 112) {
		put32(p, (al / 4) | (uint32_t)(delta << 5));
		memcpy(p + 4, data, len);
	} else {
		put32(p, (uint32_t)(delta << 5));
		put32(p + 4, al + 4);
		memcpy(p + 8, data, len);
	}
	w->used += ext + rlen;
	w->last_ts = ts;
}

/* ------------------------------------------------------------------ */
/* File header                                                         */

static int ncpus = 4, nnodes = 2, hz = 250, page_size = 4096;
static int cpu_node[MAX_CPUS];
static uint64_t node_start[MAX_NODES], node_end[MAX_NODES];

static void w8(FILE *f, uint64_t v) { fwrite(&v, 8, 1, f); }
static void w4(FILE *f, uint32_t v) { fwrite(&v, 4, 1, f); }
static void ws(FILE *f, const char *s) { fwrite(s, 1, strlen(s) + 1, f); }

/* Writes everything up to the flyrecord table; returns the table offset. */
static long write_header(FILE *f)
{
	static const char hdr_event[] =
		"# compressed entry header\n"
		"\ttype_len    :    5 bits\n"
		"\ttime_delta  :   27 bits\n"
		"\tarray       :   32 bits\n"
		"\n"
		"\tpadding     : type == 29\n"
		"\ttime_extend : type == 30\n"
		"\ttime_stamp : type == 31\n"
		"\tdata max type_len  == 28\n";
	static const char *systems[] = { "vmscan", "writeback", "compaction", "block" };
	static const char ksyms[] = "ffffffff8110f0a0 T tracing_mark_write\n";
	char hp[512];
	char *cl = NULL;
	size_t cllen = 0, clcap = 0;
	long pos;
	int i, k;

	fwrite("\x17\x08\x44tracing", 1, 10, f);
	ws(f, "6");
	fputc(0, f);		/* little endian */
	fputc(8, f);		/* long size */
	w4(f, page_size);

	snprintf(hp, sizeof(hp),
		 "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		 "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		 "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		 "\tfield: char data;\toffset:16;\tsize:%d;\tsigned:1;\n", page_size - 16);
	ws(f, "header_page");
	w8(f, strlen(hp));
	fwrite(hp, 1, strlen(hp), f);
	ws(f, "header_event");
	w8(f, strlen(hdr_event));
	fwrite(hdr_event, 1, strlen(hdr_event), f);

	/* ftrace formats: print */
	w4(f, 1);
	w8(f, strlen(lay[K_PRINT].format));
	fwrite(lay[K_PRINT].format, 1, strlen(lay[K_PRINT].format), f);

	w4(f, 4);
	for (i = 0; i < 4; i++) {
		int n = 0;

		for (k = 0; k < NKIND; k++)
			if (lay[k].present && k != K_PRINT && !strcmp(lay[k].def->system, systems[i]))
				n++;
		ws(f, systems[i]);
		w4(f, n);
		for (k = 0; k < NKIND; k++)
			if (lay[k].present && k != K_PRINT && !strcmp(lay[k].def->system, systems[i])) {
				w8(f, strlen(lay[k].format));
				fwrite(lay[k].format, 1, strlen(lay[k].format), f);
			}
	}
	w4(f, strlen(ksyms));
	fwrite(ksyms, 1, strlen(ksyms), f);
	w4(f, 0);		/* printk formats */

	append(&cl, &cllen, &clcap, "");
	for (i = 0; i < ntasks; i++) {
		char line[64];

		snprintf(line, sizeof(line), "%d %s\n", task_pid[i], task_comm[i]);
		append(&cl, &cllen, &clcap, line);
	}
	w8(f, cllen);
	fwrite(cl, 1, cllen, f);
	free(cl);

	w4(f, ncpus);
	fwrite("options  \0", 1, 10, f);
	fputc(0, f);		/* option 0: done */
	fputc(0, f);
	fwrite("flyrecord\0", 1, 10, f);
	pos = ftell(f);
	for (i = 0; i < ncpus; i++) {
		w8(f, 0);
		w8(f, 0);
	}
	return pos;
}

static void align_page(FILE *f)
{
	long pos = ftell(f);
	long pad = (page_size - pos % page_size) % page_size;

	while (pad-- > 0)
		fputc(0, f);
}

/* ------------------------------------------------------------------ */
/* Expected figures                                                    */

enum { R_WRITEBACK, R_ISOLATED, R_NOPROGRESS, R_CONGESTED, R_CONG_WAIT, R_WAIT_IFF, NREASON };
static const char *const reason_names[NREASON] = {
	"WRITEBACK", "ISOLATED", "NOPROGRESS", "CONGESTED", "CONGESTION_WAIT", "WAIT_IFF_CONGESTED"
};
enum { EP_DIRECT, EP_MEMCG, EP_KSWAPD, NEPKIND };
static const char *const ep_names[NEPKIND] = { "direct", "memcg", "kswapd" };

struct expect {
	uint64_t count[NKIND];
	uint64_t thr_n[MAX_NODES][NREASON], thr_us[MAX_NODES][NREASON];
	uint64_t si_n[MAX_NODES], si_scanned[MAX_NODES], si_reclaimed[MAX_NODES];
	uint64_t ep[MAX_NODES][NEPKIND], ep_complete[MAX_NODES][NEPKIND];
	uint64_t ep_begun[MAX_NODES][NEPKIND];	/* begin event in the file */
	uint64_t lost, events;
};

static struct expect X;

static void tally(const struct ev *e)
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

static void write_expected(const char *path, const char *source)
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

/* ------------------------------------------------------------------ */
/* Scenario model                                                      */

static struct ev *evs;
static size_t nev, evcap;
static uint32_t evseq;

struct lostmark {
	int cpu;
	uint64_t at, until;	/* ns */
	uint64_t count;
	int used;
};
static struct lostmark *lost;
static int nlost;

struct episode {
	int node, kind;
	int have_begin, have_end;
	int terminated;		/* kswapd: has a sleep */
};
static struct episode *eps;
static int neps, epcap;

static const char *cur_file;
static int cur_line;

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

static void read_scenario(const char *path)
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

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w+");

	if (!f)
		die("%s: %s", path, strerror(errno));
	setvbuf(f, NULL, _IOFBF, 4 << 20);
	return f;
}

static void finish_file(FILE *f, long table, const uint64_t *off, const uint64_t *size)
{
	if (fseek(f, table, SEEK_SET))
		die("seek: %s", strerror(errno));
	for (int c = 0; c < ncpus; c++) {
		w8(f, off[c]);
		w8(f, size[c]);
	}
	if (fclose(f))
		die("close: %s", strerror(errno));
}

static void run_scenario(const char *scn, const char *out, const char *exp)
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

	f = open_out(out);
	table = write_header(f);
	off = xcalloc(ncpus, 8);
	size = xcalloc(ncpus, 8);
	memset(&w, 0, sizeof(w));
	w.f = f;
	w.psz = page_size;
	w.page = xcalloc(1, page_size);
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

static void run_scale(uint64_t n, const char *out, const char *exp)
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
	f = open_out(out);
	table = write_header(f);
	off = xcalloc(ncpus, 8);
	size = xcalloc(ncpus, 8);
	memset(&w, 0, sizeof(w));
	w.f = f;
	w.psz = page_size;
	w.page = xcalloc(1, page_size);
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

/* ------------------------------------------------------------------ */

static char *derive(const char *base, const char *suffix)
{
	size_t n = strlen(base);
	char *s;

	if (n > 4 && (!strcmp(base + n - 4, ".scn") || !strcmp(base + n - 4, ".dat")))
		n -= 4;
	s = xcalloc(1, n + strlen(suffix) + 1);
	memcpy(s, base, n);
	strcpy(s + n, suffix);
	return s;
}

static void usage(void)
{
	fputs("usage: rr-gen [-o OUT.dat] [-e OUT.expected.json] SCENARIO.scn\n"
	      "       rr-gen --scale N [--kernel GEN] -o OUT.dat [-e OUT.expected.json]\n"
	      "GEN: 5.10 5.16rc 6.1 6.18 old\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *out = NULL, *exp = NULL, *scn = NULL, *kern = "6.1";
	uint64_t scale = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "-e") && i + 1 < argc)
			exp = argv[++i];
		else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
			scale = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--kernel") && i + 1 < argc)
			kern = argv[++i];
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			usage();
		else if (argv[i][0] == '-')
			usage();
		else
			scn = argv[i];
	}
	if (scale) {
		if (!out)
			usage();
		select_gen(kern);
		run_scale(scale, out, exp ? exp : derive(out, ".expected.json"));
		return 0;
	}
	if (!scn)
		usage();
	if (!out) {
		const char *b = strrchr(scn, '/');

		out = derive(b ? b + 1 : scn, ".dat");
	}
	if (!exp)
		exp = derive(out, ".expected.json");
	run_scenario(scn, out, exp);
	return 0;
}
