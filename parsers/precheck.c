// SPDX-License-Identifier: GPL-2.0
/*
 * trace.dat structure pre-check (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5)).
 * libtracecmd reads sizes and offsets from the file and trusts them; here
 * every one is checked against the file size (and, for v7, against the
 * section that holds it) before the library opens the file, so a damaged
 * recording gets one message naming what is wrong and where.
 *
 * Beyond the structure, where the bytes are not compressed, it checks what
 * fuzzing showed libtraceevent 1.7 and our reader trust: print fmt field
 * names (format_check.c; compressed formats get the same check from the
 * format guard as libtracecmd decompresses them), page commit sizes and
 * record lengths (docs/robustness.md). The rest (format text, kallsyms) is
 * left to libtraceevent, which bounds its reads inside a section once the
 * section's size is right.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format_check.h"
#include "precheck.h"
#include "precheck_cursor.h"

/* Larger than any real metadata section (kallsyms is ~10 MiB); libtracecmd mallocs this. */
#define MAX_UNCOMPRESSED	(256ULL << 20)
/* trace-cmd writes chunks of a few pages; a chunk this big is damage. */
#define MAX_CHUNK		(64ULL << 20)
#define MAX_CPUS		8192
#define MAX_OPTION_SECTIONS	256
#define MAX_NAME		256

static const char *printable(const char *s, char *buf, size_t len);

int rr_pc_bad(struct cur *c, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < c->errlen)
		snprintf(c->err + n, c->errlen - (size_t)n, ", at offset %llu",
			 (unsigned long long)off);
	return 1;
}

/* @n bytes at @off lie inside [0, @end)? */
static int need(struct cur *c, uint64_t off, uint64_t n, uint64_t end, const char *what)
{
	if (off > end || n > end - off) {
		if (end == c->size)
			return rr_pc_bad(c, off, "%s (%llu bytes) runs past the end of the file (%llu bytes)",
				   what, (unsigned long long)n, (unsigned long long)c->size);
		return rr_pc_bad(c, off, "%s (%llu bytes) runs past the end of its section (offset %llu)",
			   what, (unsigned long long)n, (unsigned long long)end);
	}
	return 0;
}

uint64_t rr_pc_rd(const struct cur *c, uint64_t off, int bytes)
{
	uint64_t v = 0;

	/* the file's byte order, whatever ours is */
	for (int i = 0; i < bytes; i++) {
		int b = c->big ? i : bytes - 1 - i;

		v = (v << 8) | c->p[off + (uint64_t)b];
	}
	return v;
}


/* Read an unsigned integer of @bytes at *@off (bounded by @end) and advance. */
static int get(struct cur *c, uint64_t *off, uint64_t end, int bytes, const char *what,
	       uint64_t *v)
{
	if (need(c, *off, (uint64_t)bytes, end, what))
		return 1;
	*v = rr_pc_rd(c, *off, bytes);
	*off += (uint64_t)bytes;
	return 0;
}

/* A NUL-terminated string of at most @max bytes at *@off; advance past the NUL. */
static int get_str(struct cur *c, uint64_t *off, uint64_t end, size_t max, const char *what,
		   const char **s)
{
	uint64_t avail = end > *off ? end - *off : 0;
	const unsigned char *nul;

	if (avail > max + 1)
		avail = max + 1;
	nul = avail ? memchr(c->p + *off, 0, (size_t)avail) : NULL;
	if (!nul) {
		if (avail <= max)
			return rr_pc_bad(c, *off, "%s runs past the end of %s", what,
				   end == c->size ? "the file" : "its section");
		return rr_pc_bad(c, *off, "%s is longer than %zu bytes", what, max);
	}
	*s = (const char *)c->p + *off;
	*off = (uint64_t)(nul - c->p) + 1;
	return 0;
}

static int expect_tag(struct cur *c, uint64_t *off, uint64_t end, const char *tag, size_t len)
{
	if (need(c, *off, len, end, tag))
		return 1;
	if (memcmp(c->p + *off, tag, len))
		return rr_pc_bad(c, *off, "expected the '%s' tag", tag);
	*off += len;
	return 0;
}

static int add(struct cur *c, uint64_t off, uint64_t size, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int add(struct cur *c, uint64_t off, uint64_t size, const char *fmt, ...)
{
	struct rr_section_map *m = c->map;
	va_list ap;

	if (!m)
		return 0;
	if (m->nr == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 32;
		struct rr_section *s = realloc(m->sec, cap * sizeof(*s));

		if (!s) {
			snprintf(c->err, c->errlen, "out of memory");
			return -ENOMEM;
		}
		m->sec = s;
		m->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(m->sec[m->nr].what, sizeof(m->sec[m->nr].what), fmt, ap);
	va_end(ap);
	m->sec[m->nr].offset = off;
	m->sec[m->nr].size = size;
	m->nr++;
	return 0;
}

/* A cpu stream that holds @bytes of data, for the reader's plan. */
static int add_stream(struct cur *c, const char *buffer, uint64_t cpu, uint64_t bytes)
{
	struct rr_section_map *m = c->map;
	struct rr_data_stream *st;

	if (!m)
		return 0;
	if (m->nr_streams == m->streams_cap) {
		size_t cap = m->streams_cap ? m->streams_cap * 2 : 16;

		st = realloc(m->streams, cap * sizeof(*st));
		if (!st) {
			snprintf(c->err, c->errlen, "out of memory");
			return -ENOMEM;
		}
		m->streams = st;
		m->streams_cap = cap;
	}
	st = &m->streams[m->nr_streams++];
	/* a name too long to keep whole could not be matched to its handle */
	if (strlen(buffer) >= sizeof(st->buffer))
		m->streams_complete = 0;
	snprintf(st->buffer, sizeof(st->buffer), "%s", buffer);
	st->cpu = cpu > UINT32_MAX ? UINT32_MAX : (uint32_t)cpu;
	st->bytes = bytes;
	return 0;
}

/* @bytes-wide size, then that many bytes of data, inside @end. */
static int sized_blob(struct cur *c, uint64_t *off, uint64_t end, int bytes, const char *what)
{
	uint64_t start = *off, n;
	int ret;

	ret = get(c, off, end, bytes, what, &n);
	if (ret)
		return ret;
	ret = need(c, *off, n, end, what);
	if (ret)
		return ret;
	*off += n;
	return add(c, start, *off - start, "%s", what);
}

/* A tag ("header_page\0"), an 8-byte size and that many bytes. */
static int tag_blob(struct cur *c, uint64_t *off, uint64_t end, const char *tag, size_t len)
{
	uint64_t start = *off, n;
	int ret = expect_tag(c, off, end, tag, len);

	if (!ret)
		ret = get(c, off, end, 8, tag, &n);
	if (!ret)
		ret = need(c, *off, n, end, tag);
	if (ret)
		return ret;
	*off += n;
	return add(c, start, *off - start, "%s", tag);
}

/* header_page's "field: local_t commit;	offset:8;	size:8;": the kernel's long */
static void learn_commit_size(struct cur *c, uint64_t off, uint64_t n)
{
	const char *f = (const char *)c->p + off, *p = memmem(f, (size_t)n, "commit;", 7), *s;

	if (!p || !(s = memmem(p, (size_t)(f + n - p), "size:", 5)) || f + n - s < 6)
		return;
	if (s[5] == '4' || s[5] == '8')
		c->commit_size = s[5] - '0';
	if (c->map)
		c->map->commit_size = c->commit_size;
}

/* header_page and header_event (v6 in line, v7 in the HEADER_INFO section). */
static int header_info(struct cur *c, uint64_t *off, uint64_t end)
{
	uint64_t start = *off;
	int ret = tag_blob(c, off, end, "header_page", 12);

	if (!ret)
		learn_commit_size(c, start + 20, *off - start - 20);

	return ret ? ret : tag_blob(c, off, end, "header_event", 13);
}

/* The print fmt check (format_check.c), with the offset of the bad name. */
static int check_format(struct cur *c, uint64_t off, uint64_t n)
{
	const char *f = (const char *)c->p + off, *name;
	size_t len;

	if (!rr_format_undeclared_field(f, (size_t)n, &name, &len))
		return 0;
	return rr_pc_bad(c, (uint64_t)(name - 5 - (const char *)c->p),
			 "event format: the print fmt uses REC->%.*s, which is not a field",
			 (int)(len > 40 ? 40 : len), name);
}

static int ftrace_formats(struct cur *c, uint64_t *off, uint64_t end)
{
	uint64_t start = *off, count, n;
	int ret = get(c, off, end, 4, "ftrace format count", &count);

	if (ret)
		return ret;
	for (uint64_t i = 0; i < count; i++) {
		ret = get(c, off, end, 8, "ftrace format size", &n);
		if (!ret)
			ret = need(c, *off, n, end, "ftrace format");
		if (!ret)
			ret = check_format(c, *off, n);
		if (ret)
			return ret;
		*off += n;
	}
	return add(c, start, *off - start, "ftrace formats");
}

static int event_formats(struct cur *c, uint64_t *off, uint64_t end)
{
	uint64_t nsys, count, n;
	int ret = get(c, off, end, 4, "event system count", &nsys);

	if (ret)
		return ret;
	for (uint64_t s = 0; s < nsys; s++) {
		uint64_t start = *off;
		const char *name;

		ret = get_str(c, off, end, MAX_NAME, "event system name", &name);
		if (!ret)
			ret = get(c, off, end, 4, "event count", &count);
		if (ret)
			return ret;
		for (uint64_t i = 0; i < count; i++) {
			ret = get(c, off, end, 8, "event format size", &n);
			if (!ret)
				ret = need(c, *off, n, end, "event format");
			if (!ret)
				ret = check_format(c, *off, n);
			if (ret)
				return ret;
			*off += n;
		}
		ret = add(c, start, *off - start, "event formats: %.28s", name);
		if (ret)
			return ret;
	}
	return 0;
}


/* nr_cpus (offset, size) pairs of flyrecord data, each inside [lo, hi). */
static int cpu_table(struct cur *c, uint64_t *off, uint64_t nr_cpus, uint64_t lo, uint64_t hi,
		     const char *buffer)
{
	int ret = need(c, *off, nr_cpus * 16, c->size, "cpu data offsets");

	if (ret)
		return ret;
	for (uint64_t i = 0; i < nr_cpus; i++) {
		uint64_t o = rr_pc_rd(c, *off, 8), n = rr_pc_rd(c, *off + 8, 8);

		if (n && (o < lo || o > hi || n > hi - o))
			return rr_pc_bad(c, *off, "%scpu %llu data (offset %llu, %llu bytes) lies outside "
				   "the file (%llu bytes)", buffer, (unsigned long long)i,
				   (unsigned long long)o, (unsigned long long)n,
				   (unsigned long long)c->size);
		*off += 16;
		if (n) {
			char what[64];	/* "%.24s" + "cpu " + 20 digits + " data" */

			snprintf(what, sizeof(what), "%.24scpu %llu data", buffer, (unsigned long long)i);
			ret = add(c, o, n, "%s", what);
			if (!ret)
				ret = add_stream(c, "", i, n);
			if (!ret)
				ret = rr_pc_check_pages(c, o, n, what);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int v6_options(struct cur *c, uint64_t *off)
{
	uint64_t start = *off, id, n;
	int ret;

	for (;;) {
		ret = get(c, off, c->size, 2, "option id", &id);
		if (ret)
			return ret;
		if (!id)
			break;
		ret = get(c, off, c->size, 4, "option size", &n);
		if (!ret)
			ret = need(c, *off, n, c->size, "option data");
		if (ret)
			return ret;
		/* BUFFER: an instance's flyrecord lies at the offset it names */
		if (id == 3 && (n < 8 || rr_pc_rd(c, *off, 8) >= c->size))
			return rr_pc_bad(c, *off, "buffer instance offset lies outside the file");
		/* its cpu table is libtracecmd's to read: the stream list is partial */
		if (id == 3 && c->map)
			c->map->streams_complete = 0;
		*off += n;
	}
	return add(c, start, *off - start, "options");
}

static int check_v6(struct cur *c, uint64_t off)
{
	uint64_t cpus, start;
	int ret;

	ret = header_info(c, &off, c->size);
	if (!ret)
		ret = ftrace_formats(c, &off, c->size);
	if (!ret)
		ret = event_formats(c, &off, c->size);
	if (!ret)
		ret = sized_blob(c, &off, c->size, 4, "kallsyms");
	if (!ret)
		ret = sized_blob(c, &off, c->size, 4, "printk formats");
	if (!ret)
		ret = sized_blob(c, &off, c->size, 8, "cmdlines");
	if (ret)
		return ret;
	start = off;
	ret = get(c, &off, c->size, 4, "cpu count", &cpus);
	if (ret)
		return ret;
	if (cpus > MAX_CPUS)
		return rr_pc_bad(c, start, "absurd cpu count %llu", (unsigned long long)cpus);
	for (;;) {
		start = off;
		ret = need(c, off, 10, c->size, "data section tag");
		if (ret)
			return ret;
		if (!memcmp(c->p + off, "options  ", 10)) {
			off += 10;
			ret = v6_options(c, &off);
			if (ret)
				return ret;
			continue;
		}
		/*
		 * A latency tracer's text, no ring buffer: nothing to model, and
		 * libtracecmd 1.3 crashes iterating it (tracecmd_peek_data()).
		 */
		if (!memcmp(c->p + off, "latency  ", 10))
			return rr_pc_bad(c, off, "a latency trace (tracer text, no event data) is not "
				   "supported");
		if (memcmp(c->p + off, "flyrecord", 10))
			return rr_pc_bad(c, off, "expected 'options', 'latency' or 'flyrecord'");
		off += 10;
		ret = add(c, start, 10 + cpus * 16, "flyrecord cpu table");
		return ret ? ret : cpu_table(c, &off, cpus, 0, c->size, "");
	}
}

static const char *const v7_section_names[] = {
	[16] = "header info", [17] = "ftrace formats", [18] = "event formats",
	[19] = "kallsyms", [20] = "printk formats", [21] = "cmdlines",
};

/*
 * The section header at @off: id @want, flags, size inside the file. Sets
 * *@data, *@end to its contents and *@compressed.
 */
static int v7_section(struct cur *c, uint64_t off, unsigned int want, const char *what,
		      uint64_t *data, uint64_t *end, int *compressed)
{
	uint64_t id, flags, size, o = off;
	int ret;

	if (need(c, off, 16, c->size, what))
		return 1;
	get(c, &o, c->size, 2, what, &id);
	get(c, &o, c->size, 2, what, &flags);
	o += 4;			/* description string id */
	get(c, &o, c->size, 8, what, &size);
	if (id != want)
		return rr_pc_bad(c, off, "%s: section id %llu where %u was expected", what,
			   (unsigned long long)id, want);
	if (flags & ~1ULL)
		return rr_pc_bad(c, off, "%s: unknown section flags 0x%llx", what,
			   (unsigned long long)flags);
	if ((flags & 1) && !c->compressed_ok)
		return rr_pc_bad(c, off, "%s: compressed section in a file without compression", what);
	ret = need(c, o, size, c->size, what);
	if (ret)
		return ret;
	ret = add(c, off, 16 + size, "%s section", what);
	if (ret)
		return ret;
	*data = o;
	*end = o + size;
	*compressed = (int)(flags & 1);
	return 0;
}

/* A metadata section (ids 16..21) named by an option. */
static int v7_meta(struct cur *c, uint64_t sec, unsigned int id)
{
	const char *what = v7_section_names[id];
	uint64_t off, end, csize, usize;
	int compressed, ret;

	ret = v7_section(c, sec, id, what, &off, &end, &compressed);
	if (ret)
		return ret;
	if (compressed) {
		uint64_t o = off;

		if (get(c, &o, end, 4, "compressed size", &csize) ||
		    get(c, &o, end, 4, "uncompressed size", &usize))
			return 1;
		if (need(c, o, csize, end, "compressed data"))
			return 1;
		if (usize > MAX_UNCOMPRESSED)
			return rr_pc_bad(c, off, "%s: absurd uncompressed size %llu", what,
				   (unsigned long long)usize);
		return 0;
	}
	switch (id) {
	case 16: ret = header_info(c, &off, end); break;
	case 17: ret = ftrace_formats(c, &off, end); break;
	case 18: ret = event_formats(c, &off, end); break;
	case 19: ret = sized_blob(c, &off, end, 4, "kallsyms"); break;
	case 20: ret = sized_blob(c, &off, end, 4, "printk formats"); break;
	default: ret = sized_blob(c, &off, end, 8, "cmdlines"); break;
	}
	return ret;
}

/*
 * The chunks of one cpu's compressed flyrecord data. The size in the
 * BUFFER option does not count the 4-byte chunk count (trace-cmd 3.1 files),
 * so the chunks may end 4 bytes after it, still inside the section.
 */
static int v7_chunks(struct cur *c, uint64_t off, uint64_t size, uint64_t sec_end,
		     const char *what)
{
	uint64_t end = off + size + 4 <= sec_end ? off + size + 4 : sec_end, count, csize, usize;

	if (get(c, &off, end, 4, "chunk count", &count))
		return 1;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t at = off;

		if (get(c, &off, end, 4, "chunk compressed size", &csize) ||
		    get(c, &off, end, 4, "chunk uncompressed size", &usize) ||
		    need(c, off, csize, end, "compressed chunk"))
			return 1;
		if (usize > MAX_CHUNK || (usize % c->page_size))
			return rr_pc_bad(c, at, "%s: chunk %llu of %llu: bad uncompressed size %llu", what,
				   (unsigned long long)i, (unsigned long long)count,
				   (unsigned long long)usize);
		off += csize;
	}
	return 0;
}

/* BUFFER option: the flyrecord section of one instance and its cpus. */
static int v7_buffer(struct cur *c, uint64_t off, uint64_t end)
{
	uint64_t sec, page, cpus, data, sec_end;
	const char *name, *clock;
	char label[40];
	int compressed, ret;

	if (get(c, &off, end, 8, "buffer offset", &sec) ||
	    get_str(c, &off, end, MAX_NAME, "buffer name", &name) ||
	    get_str(c, &off, end, MAX_NAME, "buffer clock", &clock) ||
	    get(c, &off, end, 4, "buffer page size", &page) ||
	    get(c, &off, end, 4, "buffer cpu count", &cpus))
		return 1;
	if (cpus > MAX_CPUS)
		return rr_pc_bad(c, off - 4, "buffer '%.32s': absurd cpu count %llu", name,
			   (unsigned long long)cpus);
	if (need(c, off, cpus * 20, end, "buffer cpu table"))
		return 1;
	snprintf(label, sizeof(label), "%.30s%s", name, *name ? ": " : "");
	ret = v7_section(c, sec, 3, *name ? name : "flyrecord", &data, &sec_end, &compressed);
	if (ret)
		return ret;
	for (uint64_t i = 0; i < cpus; i++, off += 20) {
		uint64_t id = rr_pc_rd(c, off, 4), o = rr_pc_rd(c, off + 4, 8), n = rr_pc_rd(c, off + 12, 8);

		if (!n)
			continue;
		if (o < data || o > sec_end || n > sec_end - o)
			return rr_pc_bad(c, off, "%scpu %llu data (offset %llu, %llu bytes) lies outside "
				   "its section (offset %llu, %llu bytes)", label,
				   (unsigned long long)id, (unsigned long long)o,
				   (unsigned long long)n, (unsigned long long)data,
				   (unsigned long long)(sec_end - data));
		ret = add(c, o, n, "%scpu %llu data", label, (unsigned long long)id);
		if (!ret)
			ret = add_stream(c, name, id, n);
		if (!ret && compressed)
			ret = v7_chunks(c, o, n, sec_end, label[0] ? label : "flyrecord");
		else if (!ret)
			ret = rr_pc_check_pages(c, o, n, "cpu data");
		if (ret)
			return ret;
	}
	return 0;
}

static int check_v7(struct cur *c, uint64_t off)
{
	uint64_t seen[MAX_OPTION_SECTIONS], next, start = off;
	const char *name, *version;
	char pbuf[32];
	int nr_seen = 0, ret;

	if (get_str(c, &off, c->size, 31, "compression name", &name) ||
	    get_str(c, &off, c->size, 63, "compression version", &version))
		return 1;
	/*
	 * The algorithms libtracecmd 1.3 knows; on any other name it fails
	 * (and leaks its event parser), so say it here.
	 */
	if (strcmp(name, "none") && strcmp(name, "zstd") && strcmp(name, "zlib"))
		return rr_pc_bad(c, start, "unknown compression '%s' (none, zstd or zlib)",
			   printable(name, pbuf, sizeof(pbuf)));
	if (c->map)
		snprintf(c->map->compression, sizeof(c->map->compression), "%s", name);
	c->compressed_ok = strcmp(name, "none") != 0;
	if (get(c, &off, c->size, 8, "first options offset", &next))
		return 1;
	ret = add(c, start, off - start, "compression header");
	if (ret)
		return ret;
	if (!next)
		return rr_pc_bad(c, off - 8, "no options section");
	while (next) {
		uint64_t o, end, id, n, at = next;
		int compressed;

		for (int i = 0; i < nr_seen; i++)
			if (seen[i] == next)
				return rr_pc_bad(c, next, "options sections form a loop");
		if (nr_seen == MAX_OPTION_SECTIONS)
			return rr_pc_bad(c, next, "more than %d options sections", MAX_OPTION_SECTIONS);
		seen[nr_seen++] = next;
		ret = v7_section(c, next, 0, "options", &o, &end, &compressed);
		if (ret)
			return ret;
		/* libtracecmd 1.3 reads options sections uncompressed */
		if (compressed)
			return rr_pc_bad(c, at, "compressed options section");
		next = 0;
		for (;;) {
			uint64_t opt = o;

			if (get(c, &o, end, 2, "option id", &id) ||
			    get(c, &o, end, 4, "option size", &n) ||
			    need(c, o, n, end, "option data"))
				return 1;
			if (id == 0) {
				if (n < 8)
					return rr_pc_bad(c, opt, "options end without the next offset");
				next = rr_pc_rd(c, o, 8);
				break;
			}
			if (id >= 16 && id <= 21) {
				if (n < 8)
					return rr_pc_bad(c, opt, "option %llu is %llu bytes, 8 expected",
						   (unsigned long long)id, (unsigned long long)n);
				ret = v7_meta(c, rr_pc_rd(c, o, 8), (unsigned int)id);
			} else if (id == 3) {
				ret = v7_buffer(c, o, o + n);
			} else if (id == 22) {
				/* BUFFER_TEXT: latency text; as for v6 above */
				ret = rr_pc_bad(c, opt, "a latency trace (tracer text, no event data) is "
					  "not supported");
			}
			if (ret)
				return ret;
			o += n;
		}
	}
	return 0;
}

/* @s for a message: at most @len - 1 bytes, the unprintable ones as '?' */
static const char *printable(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	buf[i] = 0;
	return buf;
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int rr_precheck_buffer(const unsigned char *data, uint64_t size, struct rr_section_map *map,
		       char *err, size_t errlen)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct cur c = { .p = data, .size = size, .map = map, .err = err, .errlen = errlen };
	uint64_t off = sizeof(magic), v;
	const char *version;
	char vbuf[16];
	int big;

	if (map) {
		memset(map, 0, sizeof(*map));
		map->file_size = size;
		snprintf(map->compression, sizeof(map->compression), "none");
	}
	if (size < sizeof(magic) || memcmp(data, magic, sizeof(magic)))
		return rr_pc_bad(&c, 0, "no trace.dat magic");
	if (get_str(&c, &off, size, 15, "version string", &version))
		return 1;
	if (strcmp(version, "6") && strcmp(version, "7"))
		return rr_pc_bad(&c, 10, "unsupported version '%s' (6 and 7 are read)",
			   printable(version, vbuf, sizeof(vbuf)));
	c.version = version[0] - '0';
	if (need(&c, off, 6, size, "initial format"))
		return 1;
	if (data[off] > 1)
		return rr_pc_bad(&c, off, "endianness flag %u (0 or 1 expected)", data[off]);
	big = data[off];
	c.big = big;
	if (data[off + 1] != 4 && data[off + 1] != 8)
		return rr_pc_bad(&c, off + 1, "long size %u (4 or 8 expected)", data[off + 1]);
	off += 2;
	get(&c, &off, size, 4, "page size", &v);
	if (!is_pow2(v) || v < 1024 || v > (1U << 20))
		return rr_pc_bad(&c, off - 4, "page size %llu (a power of two, 1 KiB to 1 MiB, expected)",
			   (unsigned long long)v);
	c.page_size = (uint32_t)v;
	c.commit_size = data[off - 5];	/* until header_page says otherwise */
	if (map) {
		map->version = c.version;
		map->big_endian = big;
		map->long_size = data[off - 5];
		map->commit_size = c.commit_size;
		map->page_size = c.page_size;
		map->streams_complete = 1;
	}
	if (add(&c, 0, off, "initial format"))
		return -ENOMEM;
	return c.version == 6 ? check_v6(&c, off) : check_v7(&c, off);
}

int rr_precheck_tracedat(const char *path, struct rr_section_map *map, char *err, size_t errlen)
{
	struct stat st;
	void *p;
	int fd, ret;

	if (map)
		memset(map, 0, sizeof(*map));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (st.st_size == 0) {
		close(fd);
		snprintf(err, errlen, "the file is empty, at offset 0");
		return 1;
	}
	/* Only the pages that hold headers, tables and chunk headers are touched. */
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	ret = -errno;
	close(fd);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "%s", strerror(-ret));
		return ret;
	}
	ret = rr_precheck_buffer(p, (uint64_t)st.st_size, map, err, errlen);
	munmap(p, (size_t)st.st_size);
	return ret;
}

void rr_section_map_release(struct rr_section_map *map)
{
	if (!map)
		return;
	free(map->sec);
	map->sec = NULL;
	map->nr = map->cap = 0;
	free(map->streams);
	map->streams = NULL;
	map->nr_streams = map->streams_cap = 0;
}
