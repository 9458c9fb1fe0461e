// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat v6 writer: file header and sections, ring-buffer pages with
 * time extends and missed-event flags, and the per-CPU offset table.
 */
#include "rr-gen.h"

/* ------------------------------------------------------------------ */
/* Ring-buffer pages                                                   */

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

void pw_flush(struct pw *w)
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

void pw_lost(struct pw *w, uint64_t count)
{
	pw_flush(w);
	w->pend_lost += count;
}

void pw_add(struct pw *w, uint64_t ts, const unsigned char *data, unsigned len)
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

int ncpus = 4, nnodes = 2, hz = 250, page_size = 4096;
int cpu_node[MAX_CPUS];
uint64_t node_start[MAX_NODES], node_end[MAX_NODES];

static void w8(FILE *f, uint64_t v) { fwrite(&v, 8, 1, f); }
static void w4(FILE *f, uint32_t v) { fwrite(&v, 4, 1, f); }
static void ws(FILE *f, const char *s) { fwrite(s, 1, strlen(s) + 1, f); }

/* Writes everything up to the flyrecord table; returns the table offset. */
long write_header(FILE *f)
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
	static const char *systems[] = { "vmscan", "writeback", "compaction", "block", "sched" };
	const int nr_systems = sizeof(systems) / sizeof(systems[0]);
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

	w4(f, nr_systems);
	for (i = 0; i < nr_systems; i++) {
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

void align_page(FILE *f)
{
	long pos = ftell(f);
	long pad = (page_size - pos % page_size) % page_size;

	while (pad-- > 0)
		fputc(0, f);
}

FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w+");

	if (!f)
		die("%s: %s", path, strerror(errno));
	setvbuf(f, NULL, _IOFBF, 4 << 20);
	return f;
}

/*
 * A new trace.dat at @path: the header written (*@table: where the cpu data
 * table goes), per-cpu offset and size tables, and @w ready for cpu data.
 */
FILE *start_file(const char *path, struct pw *w, long *table, uint64_t **off, uint64_t **size)
{
	FILE *f = open_out(path);

	*table = write_header(f);
	*off = xcalloc(ncpus, 8);
	*size = xcalloc(ncpus, 8);
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->psz = page_size;
	w->page = xcalloc(1, page_size);
	return f;
}

void finish_file(FILE *f, long table, const uint64_t *off, const uint64_t *size)
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
