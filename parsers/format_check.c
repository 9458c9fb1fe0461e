// SPDX-License-Identifier: GPL-2.0
/*
 * libtraceevent 1.7 dereferences NULL when a print fmt names a field the
 * format does not declare (REC->x inside __print_flags or an operator, found
 * by fuzzing, and by a single bit flip inside a zstd-compressed event
 * formats section): every REC->name must be a field.
 */
#include <stddef.h>
#include <string.h>

#include "format_check.h"

static int is_ident(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_';
}

/* Is @name (@len bytes) the name of a "field:" line of the format @f[0..@n)? */
static int has_field(const char *f, size_t n, const char *name, size_t len)
{
	const char *p = f, *end = f + n;

	while ((p = memmem(p, (size_t)(end - p), "field:", 6))) {
		const char *semi = memchr(p, ';', (size_t)(end - p)), *q;

		if (!semi)
			return 0;
		/* the declaration's last identifier, before any [N] */
		q = semi;
		while (q > p && q[-1] == ']') {
			while (q > p && q[-1] != '[')
				q--;
			if (q > p)
				q--;
		}
		while (q > p && q[-1] == ' ')
			q--;
		if ((size_t)(q - p) >= len && !memcmp(q - len, name, len) &&
		    !is_ident((unsigned char)q[-(ptrdiff_t)len - 1]))
			return 1;
		p = semi;
	}
	return 0;
}

int rr_format_undeclared_field(const char *f, size_t n, const char **name, size_t *len)
{
	const char *end = f + n, *p = memmem(f, n, "print fmt:", 10);

	while (p && (p = memmem(p, (size_t)(end - p), "REC->", 5))) {
		const char *start = p + 5, *q = start;

		while (q < end && is_ident((unsigned char)*q))
			q++;
		if (q == start || !has_field(f, n, start, (size_t)(q - start))) {
			*name = start;
			*len = (size_t)(q - start);
			return 1;
		}
		p = q;
	}
	return 0;
}

size_t rr_format_name(const char *f, size_t n, const char **name)
{
	const char *p = n >= 6 && !memcmp(f, "name: ", 6) ? f + 6 : NULL, *nl;

	if (!p)
		return 0;
	nl = memchr(p, '\n', n - 6);
	*name = p;
	return (size_t)((nl ? nl : f + n) - p);
}
