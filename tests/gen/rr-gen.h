/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rr-gen internal interface: the types and state shared by the rr-gen-*.c
 * files.  rr-gen is a single-threaded test tool, so the model lives in
 * plain globals, each defined in the file whose job it is.
 */
#ifndef RR_GEN_H
#define RR_GEN_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
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

/* Event layouts and encoding (rr-gen-format.c) */
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

/* Events (rr-gen-format.c) */
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

/* Ring-buffer pages (rr-gen-writer.c) */
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

/* Expected figures (rr-gen-expect.c) */
enum { R_WRITEBACK, R_ISOLATED, R_NOPROGRESS, R_CONGESTED, R_CONG_WAIT, R_WAIT_IFF, NREASON };
enum { EP_DIRECT, EP_MEMCG, EP_KSWAPD, NEPKIND };

struct expect {
	uint64_t count[NKIND];
	uint64_t thr_n[MAX_NODES][NREASON], thr_us[MAX_NODES][NREASON];
	uint64_t si_n[MAX_NODES], si_scanned[MAX_NODES], si_reclaimed[MAX_NODES];
	uint64_t ep[MAX_NODES][NEPKIND], ep_complete[MAX_NODES][NEPKIND];
	uint64_t ep_begun[MAX_NODES][NEPKIND];	/* begin event in the file */
	uint64_t lost, events;
};

/* Scenario model (rr-gen-scn.c) */
struct lostmark {
	int cpu;
	uint64_t at, until;	/* ns */
	uint64_t count;
	int used;
};

struct episode {
	int node, kind;
	int have_begin, have_end;
	int terminated;		/* kswapd: has a sleep */
};

/* rr-gen.c */
void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...);
void *xcalloc(size_t n, size_t sz);

/* rr-gen-format.c */
extern struct layout lay[NKIND];
extern const struct evdef *gen_tab;
extern const char *gen_name;
void append(char **buf, size_t *len, size_t *cap, const char *s);
void select_gen(const char *g);
extern char *task_comm[MAX_TASKS];
extern int task_pid[MAX_TASKS];
extern int ntasks;
int encode(const struct ev *e, unsigned char *out);

/* rr-gen-writer.c */
void pw_flush(struct pw *w);
void pw_lost(struct pw *w, uint64_t count);
void pw_add(struct pw *w, uint64_t ts, const unsigned char *data, unsigned len);
extern int ncpus, nnodes, hz, page_size;
extern int cpu_node[MAX_CPUS];
extern uint64_t node_start[MAX_NODES], node_end[MAX_NODES];
long write_header(FILE *f);
void align_page(FILE *f);
FILE *open_out(const char *path);
FILE *start_file(const char *path, struct pw *w, long *table, uint64_t **off,
		 uint64_t **size);
void finish_file(FILE *f, long table, const uint64_t *off, const uint64_t *size);

/* rr-gen-expect.c */
extern struct expect X;
void tally(const struct ev *e);
void write_expected(const char *path, const char *source);

/* rr-gen-scn.c */
extern struct ev *evs;
extern size_t nev, evcap;
extern struct lostmark *lost;
extern int nlost;
extern struct episode *eps;
extern int neps, epcap;
extern int cur_line;
void read_scenario(const char *path);

/* rr-gen-run.c */
void run_scenario(const char *scn, const char *out, const char *exp);

/* rr-gen-scale.c */
void run_scale(uint64_t n, const char *out, const char *exp);

#endif /* RR_GEN_H */
