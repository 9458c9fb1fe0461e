// SPDX-License-Identifier: GPL-2.0
/*
 * SHA-256 as FIPS 180-4 specifies it (sections 4.1.2, 4.2.2, 5.1.1, 5.3.3,
 * 6.2), written out because no allowed dependency provides it. Checked by
 * tests/unit/sha256_test.c against the standard's vectors and sha256sum.
 * The block function is chosen once per process (see sha256.h): on x86-64
 * with SHA extensions it is sha256_x86.c, which hashes a large trace several
 * times faster than the C below.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "report/sha256.h"

const uint32_t rr_sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

/* Big-endian loads and stores: the standard defines words that way. */
static inline uint32_t load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void compress(uint32_t h[8], const uint8_t block[64])
{
	const uint32_t *K = rr_sha256_k;
	uint32_t w[64], a, b, c, d, e, f, g, k;

	for (int t = 0; t < 16; t++)
		w[t] = load_be32(block + 4 * t);
	for (int t = 16; t < 64; t++) {
		uint32_t s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ (w[t - 2] >> 10);

		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	a = h[0]; b = h[1]; c = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; k = h[7];
	for (int t = 0; t < 64; t++) {
		uint32_t t1 = k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) +
			      K[t] + w[t];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		k = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += k;
}

void rr_sha256_blocks_portable(uint32_t h[8], const uint8_t *p, size_t n)
{
	for (; n; n--, p += 64)
		compress(h, p);
}

static rr_sha256_blocks_fn *chosen_blocks;
static pthread_once_t choose_once = PTHREAD_ONCE_INIT;

/*
 * Runs once, under pthread_once, so concurrent reports (sweep workers) see
 * one settled pointer. RR_SHA256_PORTABLE=1 forces the C version: for timing
 * it against SHA-NI and for testing the fallback on a machine that has SHA-NI.
 */
static void choose_blocks(void)
{
	const char *env = getenv("RR_SHA256_PORTABLE");

	chosen_blocks = rr_sha256_blocks_portable;
	if (env && !strcmp(env, "1"))
		return;
#if defined(__x86_64__)
	if (rr_sha256_shani_usable())
		chosen_blocks = rr_sha256_blocks_shani;
#endif
}

static rr_sha256_blocks_fn *blocks_for_process(void)
{
	pthread_once(&choose_once, choose_blocks);
	return chosen_blocks;
}

const char *rr_sha256_impl(void)
{
	return blocks_for_process() == rr_sha256_blocks_portable ? "portable" : "sha-ni";
}

void rr_sha256_init(struct rr_sha256 *c)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	c->blocks = blocks_for_process();
	memcpy(c->h, iv, sizeof(iv));
	c->bytes = 0;
	c->fill = 0;
}

void rr_sha256_update(struct rr_sha256 *c, const void *data, size_t len)
{
	const uint8_t *p = data;

	c->bytes += len;
	if (c->fill) {
		size_t n = 64 - c->fill < len ? 64 - c->fill : len;

		memcpy(c->buf + c->fill, p, n);
		c->fill += n;
		p += n;
		len -= n;
		if (c->fill < 64)
			return;
		c->blocks(c->h, c->buf, 1);
		c->fill = 0;
	}
	/* Whole blocks straight from the caller's buffer: no copy on the hot path. */
	if (len >= 64) {
		c->blocks(c->h, p, len / 64);
		p += len & ~(size_t)63;
		len &= 63;
	}
	memcpy(c->buf, p, len);
	c->fill = len;
}

void rr_sha256_final(struct rr_sha256 *c, uint8_t digest[RR_SHA256_LEN])
{
	uint64_t bits = c->bytes * 8;

	/* Padding (5.1.1): 0x80, zeros up to 56 mod 64, then the bit length. */
	c->buf[c->fill++] = 0x80;
	if (c->fill > 56) {
		memset(c->buf + c->fill, 0, 64 - c->fill);
		c->blocks(c->h, c->buf, 1);
		c->fill = 0;
	}
	memset(c->buf + c->fill, 0, 56 - c->fill);
	store_be32(c->buf + 56, (uint32_t)(bits >> 32));
	store_be32(c->buf + 60, (uint32_t)bits);
	c->blocks(c->h, c->buf, 1);
	for (int i = 0; i < 8; i++)
		store_be32(digest + 4 * i, c->h[i]);
	memset(c, 0, sizeof(*c));
}

void rr_sha256_to_hex(const uint8_t digest[RR_SHA256_LEN], char hex[RR_SHA256_HEX_LEN])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < RR_SHA256_LEN; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[2 * RR_SHA256_LEN] = '\0';
}

void rr_sha256_hex(const void *data, size_t len, char hex[RR_SHA256_HEX_LEN])
{
	struct rr_sha256 c;
	uint8_t d[RR_SHA256_LEN];

	rr_sha256_init(&c);
	rr_sha256_update(&c, data, len);
	rr_sha256_final(&c, d);
	rr_sha256_to_hex(d, hex);
}
