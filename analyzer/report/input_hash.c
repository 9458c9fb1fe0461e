// SPDX-License-Identifier: GPL-2.0
/*
 * inputs[].sha256: the digest of the file as read from disk, so a report
 * can be matched to the exact recording it describes (docs/report-schema.md).
 */
#include <stdio.h>
#include <stdlib.h>

#include "report/sha256.h"

json_t *rr_json_sha256(const char *path)
{
	enum { CHUNK = 1 << 16 };
	uint8_t digest[RR_SHA256_LEN];
	char hex[RR_SHA256_HEX_LEN];
	struct rr_sha256 c;
	unsigned char *buf;
	FILE *f;
	size_t n;
	int bad;

	/*
	 * The input was already loaded, so a failure here is unusual (the file
	 * changed underneath us); the report says null rather than failing.
	 */
	f = path ? fopen(path, "rb") : NULL;
	if (!f)
		return json_null();
	buf = malloc(CHUNK);
	if (!buf) {
		fclose(f);
		return json_null();
	}
	rr_sha256_init(&c);
	while ((n = fread(buf, 1, CHUNK, f)) > 0)
		rr_sha256_update(&c, buf, n);
	bad = ferror(f);
	fclose(f);
	free(buf);
	rr_sha256_final(&c, digest);
	if (bad)
		return json_null();
	rr_sha256_to_hex(digest, hex);
	return json_string(hex);
}
