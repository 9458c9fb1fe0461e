/* SPDX-License-Identifier: GPL-2.0 */
/* Small lexing helpers of the ftrace text reader, on [p, end) spans. */
#ifndef RR_PARSERS_TEXT_LEX_H
#define RR_PARSERS_TEXT_LEX_H

#include <stdint.h>
#include <string.h>

static inline int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline int is_word(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline const char *skip_spaces(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static inline int starts_with(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(end - p) >= n && !memcmp(p, word, n);
}

static inline int word_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && !memcmp(s, word, len);
}

/*
 * Unsigned decimal or 0x hex at [*pp, end), saturating at UINT64_MAX so a
 * huge number reads as "huge", not as garbage. Returns 0 when no digit.
 */
static inline int read_uint(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	int hex = 0, any = 0;

	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		hex = 1;
		p += 2;
	}
	for (; p < end; p++) {
		unsigned d;

		if (is_digit(*p))
			d = (unsigned)(*p - '0');
		else if (hex && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (hex && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			break;
		any = 1;
		if (v > (UINT64_MAX - d) / (hex ? 16 : 10))
			v = UINT64_MAX;
		else
			v = v * (hex ? 16 : 10) + d;
	}
	if (!any)
		return 0;
	*pp = p;
	*out = v;
	return 1;
}

#endif
