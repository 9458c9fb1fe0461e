// SPDX-License-Identifier: GPL-2.0
/*
 * rr_trace_load(): check the path, pick a reader by the file's first bytes,
 * and hand back a decoded trace. Every failure is one line naming the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "parser.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/trace.h"

static const struct rr_parser *const parsers[] = {
	&rr_tracedat_parser,
	&rr_text_parser,
};

static int read_head(const char *path, unsigned char *head, size_t cap, size_t *len)
{
	FILE *f = fopen(path, "rb");

	if (!f)
		return -errno;
	*len = fread(head, 1, cap, f);
	if (ferror(f)) {
		int err = errno ? -errno : -EIO;

		fclose(f);
		return err;
	}
	fclose(f);
	return 0;
}

int rr_trace_load(const char *path, struct rr_trace **out)
{
	unsigned char head[4096];
	struct rr_trace *t;
	struct stat st;
	size_t len = 0;
	int ret;

	*out = NULL;
	if (stat(path, &st))
		return rr_fail(RR_EXIT_BAD_INPUT, "cannot open '%s': %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return rr_fail(RR_EXIT_BAD_INPUT, "cannot read '%s': is a directory", path);
	if (!S_ISREG(st.st_mode))
		return rr_fail(RR_EXIT_BAD_INPUT, "cannot read '%s': not a regular file", path);
	if (st.st_size == 0)
		return rr_fail(RR_EXIT_BAD_INPUT, "cannot read '%s': the file is empty", path);
	ret = read_head(path, head, sizeof(head), &len);
	if (ret)
		return rr_fail(RR_EXIT_BAD_INPUT, "cannot open '%s': %s", path, strerror(-ret));

	for (size_t i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++) {
		if (!parsers[i]->probe(head, len))
			continue;
		t = calloc(1, sizeof(*t));
		if (!t || !(t->path = strdup(path))) {
			free(t);
			return rr_fail(RR_EXIT_FAILURE, "'%s': out of memory", path);
		}
		t->file_size = (uint64_t)st.st_size;
		ret = parsers[i]->parse(path, t);
		if (ret) {
			rr_trace_free(t);
			return ret;
		}
		*out = t;
		return 0;
	}
	return rr_fail(RR_EXIT_BAD_INPUT,
		       "cannot read '%s': not a trace.dat file nor ftrace text", path);
}
