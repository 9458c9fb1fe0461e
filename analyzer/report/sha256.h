/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SHA-256 (FIPS 180-4), small and dependency-free: the project may link only
 * its four libraries, none of which offers a digest, and the reports name
 * each input by its hash so two reports can be tied to the same recording.
 */
#ifndef RR_REPORT_SHA256_H
#define RR_REPORT_SHA256_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#define RR_SHA256_LEN 32
#define RR_SHA256_HEX_LEN (2 * RR_SHA256_LEN + 1)

/*
 * A block function compresses @n consecutive 64-byte blocks at @p into the
 * state @h. rr_sha256_init() picks one for the process, once: the x86-64
 * SHA extensions when the CPU has them (about 5x the portable C), else the
 * portable C. RR_SHA256_PORTABLE=1 in the environment forces the portable
 * one, so both can be timed and tested on a SHA-NI machine.
 */
typedef void rr_sha256_blocks_fn(uint32_t h[8], const uint8_t *p, size_t n);

struct rr_sha256 {
	rr_sha256_blocks_fn *blocks;	/* set by init; a test may swap it before update */
	uint32_t h[8];
	uint64_t bytes;		/* message length so far */
	uint8_t buf[64];
	size_t fill;		/* bytes waiting in @buf */
};

void rr_sha256_init(struct rr_sha256 *c);
void rr_sha256_update(struct rr_sha256 *c, const void *data, size_t len);
void rr_sha256_final(struct rr_sha256 *c, uint8_t digest[RR_SHA256_LEN]);
/* One-shot digest of @len bytes as 64 lower-case hex digits plus NUL. */
void rr_sha256_hex(const void *data, size_t len, char hex[RR_SHA256_HEX_LEN]);
void rr_sha256_to_hex(const uint8_t digest[RR_SHA256_LEN], char hex[RR_SHA256_HEX_LEN]);

/* The round constants (4.2.2), shared by both block functions. */
extern const uint32_t rr_sha256_k[64];

rr_sha256_blocks_fn rr_sha256_blocks_portable;
/* "sha-ni" or "portable": what rr_sha256_init() installs in this process. */
const char *rr_sha256_impl(void);

#if defined(__x86_64__)
/* Only to be called when rr_sha256_shani_usable() (sha256_x86.c). */
rr_sha256_blocks_fn rr_sha256_blocks_shani;
int rr_sha256_shani_usable(void);
#endif

/* The file's SHA-256 as a JSON string, or JSON null when it cannot be read. */
json_t *rr_json_sha256(const char *path);

#endif
