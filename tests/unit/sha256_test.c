// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the SHA-256 behind inputs[].sha256: the FIPS 180-4 example
 * vectors, every split of a message across update() calls (the buffering is
 * where a digest goes wrong), padding at the block edges, and a real trace
 * against sha256sum so the JSON field matches what users compute. TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sha256.h"

static int nr_tests, nr_failed;

static void check(int cond, const char *what)
{
	nr_tests++;
	if (!cond)
		nr_failed++;
	printf("%s %d - %s\n", cond ? "ok" : "not ok", nr_tests, what);
}

static void skip(const char *what, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++nr_tests, what, why);
}

static void check_hex(const char *msg, size_t len, const char *want, const char *what)
{
	char hex[RR_SHA256_HEX_LEN];

	rr_sha256_hex(msg, len, hex);
	check(!strcmp(hex, want), what);
	if (strcmp(hex, want))
		printf("#   got  %s\n#   want %s\n", hex, want);
}

static void test_vectors(void)
{
	static const char m448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	static const char m896[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
				   "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

	check_hex("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		  "empty message");
	check_hex("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		  "\"abc\"");
	check_hex(m448, strlen(m448),
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
		  "448-bit message (two blocks of padding)");
	check_hex(m896, strlen(m896),
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
		  "896-bit message");
}

static void test_million_a(void)
{
	struct rr_sha256 c;
	uint8_t d[RR_SHA256_LEN];
	char hex[RR_SHA256_HEX_LEN], chunk[1000];

	/* Fed in 1000-byte pieces, which are not a multiple of the block size. */
	memset(chunk, 'a', sizeof(chunk));
	rr_sha256_init(&c);
	for (int i = 0; i < 1000; i++)
		rr_sha256_update(&c, chunk, sizeof(chunk));
	rr_sha256_final(&c, d);
	rr_sha256_to_hex(d, hex);
	check(!strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
	      "1,000,000 x 'a' in 1000-byte updates");
}

/* Every two-way split of one message gives the one-shot digest. */
static void test_splits(void)
{
	char msg[200], want[RR_SHA256_HEX_LEN], hex[RR_SHA256_HEX_LEN];
	uint8_t d[RR_SHA256_LEN];
	int bad = 0;

	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (char)(i * 7 + 3);
	rr_sha256_hex(msg, sizeof(msg), want);
	for (size_t cut = 0; cut <= sizeof(msg); cut++) {
		struct rr_sha256 c;

		rr_sha256_init(&c);
		rr_sha256_update(&c, msg, cut);
		rr_sha256_update(&c, msg + cut, sizeof(msg) - cut);
		rr_sha256_final(&c, d);
		rr_sha256_to_hex(d, hex);
		bad += !!strcmp(hex, want);
	}
	check(!bad, "every split of a 200-byte message across two updates");
}

/*
 * Lengths 55, 56, 63, 64 and 65 put the 0x80 byte and the length field on
 * either side of a block edge; the digests are those of sha256sum.
 */
static void test_edges(void)
{
	static const struct {
		size_t len;
		const char *hex;
	} v[] = {
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
		{ 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0" },
	};
	char msg[65], what[64];

	memset(msg, 'a', sizeof(msg));
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(what, sizeof(what), "%zu x 'a' (padding at a block edge)", v[i].len);
		check_hex(msg, v[i].len, v[i].hex, what);
	}
}

/* The bundled trace, hashed through the JSON helper, against sha256sum. */
static void test_trace_file(void)
{
	const char *top = getenv("TOP");
	char path[4096], cmd[4200], want[128] = "";
	json_t *got;
	FILE *p;

	snprintf(path, sizeof(path), "%s/traces/counters-writer.dat", top ? top : ".");
	p = fopen(path, "rb");
	if (!p) {
		skip("counters-writer.dat matches sha256sum", "traces/ not found from here");
		return;
	}
	fclose(p);
	snprintf(cmd, sizeof(cmd), "sha256sum '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p || !fgets(want, sizeof(want), p) || strlen(want) < 64) {
		if (p)
			pclose(p);
		skip("counters-writer.dat matches sha256sum", "sha256sum is not available");
		return;
	}
	pclose(p);
	want[64] = '\0';
	got = rr_json_sha256(path);
	check(json_is_string(got) && !strcmp(json_string_value(got), want),
	      "counters-writer.dat matches sha256sum");
	if (!json_is_string(got) || strcmp(json_string_value(got), want))
		printf("#   got  %s\n#   want %s\n", json_is_string(got) ? json_string_value(got) :
		       "null", want);
	json_decref(got);
	got = rr_json_sha256("/nonexistent/rr-sha256-test");
	check(json_is_null(got), "unreadable file gives null");
	json_decref(got);
}

int main(void)
{
	test_vectors();
	test_million_a();
	test_splits();
	test_edges();
	test_trace_file();
	printf("1..%d\n", nr_tests);
	return nr_failed ? 1 : 0;
}
