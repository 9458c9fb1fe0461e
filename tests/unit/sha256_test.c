// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the SHA-256 behind inputs[].sha256: the FIPS 180-4 example
 * vectors, every split of a message across update() calls (the buffering is
 * where a digest goes wrong), padding at the block edges, a multi-MiB buffer
 * in odd-sized pieces and a real trace against sha256sum so the JSON field
 * matches what users compute. TAP output.
 *
 * Every digest check runs once per block function: the portable C and, on an
 * x86-64 CPU with SHA extensions, SHA-NI (SKIP otherwise). The test swaps
 * rr_sha256.blocks after init so both run in one process whatever the CPU;
 * a forked child checks that RR_SHA256_PORTABLE=1 forces the portable one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "report/sha256.h"

#include "tap.h"

/* The block function under test, and its name for the TAP lines. */
static rr_sha256_blocks_fn *impl;
static const char *impl_name;

static void start(struct rr_sha256 *c)
{
	rr_sha256_init(c);
	c->blocks = impl;
}

static void finish_hex(struct rr_sha256 *c, char hex[RR_SHA256_HEX_LEN])
{
	uint8_t d[RR_SHA256_LEN];

	rr_sha256_final(c, d);
	rr_sha256_to_hex(d, hex);
}

/* Like check() but with the block function's name and both digests on failure. */
static void check_digest(const char *got, const char *want, const char *what)
{
	char line[256];

	snprintf(line, sizeof(line), "%s: %s", impl_name, what);
	check(!strcmp(got, want), line);
	if (strcmp(got, want))
		printf("#   got  %s\n#   want %s\n", got, want);
}

static void check_hex(const char *msg, size_t len, const char *want, const char *what)
{
	char hex[RR_SHA256_HEX_LEN];
	struct rr_sha256 c;

	start(&c);
	rr_sha256_update(&c, msg, len);
	finish_hex(&c, hex);
	check_digest(hex, want, what);
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
	char hex[RR_SHA256_HEX_LEN], chunk[1000];

	/* Fed in 1000-byte pieces, which are not a multiple of the block size. */
	memset(chunk, 'a', sizeof(chunk));
	start(&c);
	for (int i = 0; i < 1000; i++)
		rr_sha256_update(&c, chunk, sizeof(chunk));
	finish_hex(&c, hex);
	check_digest(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
		     "1,000,000 x 'a' in 1000-byte updates");
}

/* Every two-way split of one message gives the one-shot digest. */
static void test_splits(void)
{
	/* sha256sum of bytes (i * 7 + 3) mod 256 for i = 0..199. */
	static const char want[] =
		"2c7e18c942ef065b526a2d4e5546283749cd3ddfb51d8fc71f42717363685f46";
	char msg[200], hex[RR_SHA256_HEX_LEN], what[80];
	int bad = 0;

	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (char)(i * 7 + 3);
	for (size_t cut = 0; cut <= sizeof(msg); cut++) {
		struct rr_sha256 c;

		start(&c);
		rr_sha256_update(&c, msg, cut);
		rr_sha256_update(&c, msg + cut, sizeof(msg) - cut);
		finish_hex(&c, hex);
		bad += !!strcmp(hex, want);
	}
	snprintf(what, sizeof(what), "%s: every split of a 200-byte message across two updates",
		 impl_name);
	check(!bad, what);
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

/* sha256sum's digest of @path into @want (65 bytes); 0 when it cannot run. */
static int sha256sum_of(const char *path, char want[RR_SHA256_HEX_LEN])
{
	char cmd[4200], line[256] = "";
	FILE *p;

	snprintf(cmd, sizeof(cmd), "sha256sum '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	if (!fgets(line, sizeof(line), p) || strlen(line) < 64) {
		pclose(p);
		return 0;
	}
	pclose(p);
	memcpy(want, line, 64);
	want[64] = '\0';
	return 1;
}

/* rr_json_sha256() (the process's own block function) of @path against @want. */
static void check_json_file(const char *path, const char *want, const char *what)
{
	json_t *got = rr_json_sha256(path);

	check(json_is_string(got) && !strcmp(json_string_value(got), want), what);
	if (!json_is_string(got) || strcmp(json_string_value(got), want))
		printf("#   got  %s\n#   want %s\n", json_is_string(got) ? json_string_value(got) :
		       "null", want);
	json_decref(got);
}

/*
 * A pseudo-random buffer of 5 MiB plus an odd tail: thousands of blocks
 * through the block function in one call, and, in pieces of odd sizes,
 * through every path of update()'s buffering. The reference digest is
 * sha256sum's of the same bytes written to a temporary file, which stays
 * for test_big_file().
 */
#define BIG_LEN ((5u << 20) + 4099u)
static unsigned char *big;
static char big_path[4096], big_want[RR_SHA256_HEX_LEN];

static void make_big(void)
{
	const char *tmp = getenv("TMPDIR");
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	FILE *f;
	int fd;

	big = malloc(BIG_LEN);
	if (!big)
		return;
	for (size_t i = 0; i < BIG_LEN; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		big[i] = (unsigned char)(x >> 24);
	}
	snprintf(big_path, sizeof(big_path), "%s/rr-sha256-test.XXXXXX", tmp ? tmp : "/tmp");
	fd = mkstemp(big_path);
	if (fd < 0) {
		big_path[0] = '\0';
		return;
	}
	f = fdopen(fd, "wb");
	if (!f || fwrite(big, 1, BIG_LEN, f) != BIG_LEN || fclose(f) != 0 ||
	    !sha256sum_of(big_path, big_want))
		big_want[0] = '\0';
}

static void test_big(void)
{
	/* Prime sizes and block edges; the cycle lands the cuts at every offset mod 64. */
	static const size_t piece[] = { 1, 63, 64, 65, 127, 4097, 65537, 1048573, 3 };
	char hex[RR_SHA256_HEX_LEN], what[128];
	struct rr_sha256 c;
	size_t off = 0;

	if (!big_want[0]) {
		snprintf(what, sizeof(what), "%s: 5 MiB buffer matches sha256sum", impl_name);
		skip(what, "could not write a temporary file or run sha256sum");
		skip(what, "could not write a temporary file or run sha256sum");
		return;
	}
	start(&c);
	rr_sha256_update(&c, big, BIG_LEN);
	finish_hex(&c, hex);
	check_digest(hex, big_want, "5 MiB + 4099 bytes in one update matches sha256sum");

	start(&c);
	for (size_t i = 0; off < BIG_LEN; i++) {
		size_t n = piece[i % (sizeof(piece) / sizeof(piece[0]))];

		if (n > BIG_LEN - off)
			n = BIG_LEN - off;
		rr_sha256_update(&c, big + off, n);
		off += n;
	}
	finish_hex(&c, hex);
	check_digest(hex, big_want, "5 MiB + 4099 bytes in odd-sized updates matches sha256sum");
}

/* The same file through the JSON helper: several 1 MiB reads and a short last one. */
static void test_big_file(void)
{
	if (!big_want[0]) {
		skip("rr_json_sha256 of the 5 MiB file matches sha256sum", "no reference digest");
		return;
	}
	check_json_file(big_path, big_want, "rr_json_sha256 of the 5 MiB file matches sha256sum");
}

/* The bundled trace, hashed through the JSON helper, against sha256sum. */
static void test_trace_file(void)
{
	const char *top = getenv("TOP");
	char path[4096], want[RR_SHA256_HEX_LEN];
	json_t *got;
	FILE *p;

	snprintf(path, sizeof(path), "%s/traces/counters-writer.dat", top ? top : ".");
	p = fopen(path, "rb");
	if (!p) {
		skip("counters-writer.dat matches sha256sum", "traces/ not found from here");
		return;
	}
	fclose(p);
	if (!sha256sum_of(path, want)) {
		skip("counters-writer.dat matches sha256sum", "sha256sum is not available");
		return;
	}
	check_json_file(path, want, "counters-writer.dat matches sha256sum");
	got = rr_json_sha256("/nonexistent/rr-sha256-test");
	check(json_is_null(got), "unreadable file gives null");
	json_decref(got);
}

/*
 * The choice rr_sha256_init() makes is settled once per process, so the
 * override is checked in a child forked before this process makes its own.
 */
static void test_choice(void)
{
	const char *want = "portable";
	pid_t pid = fork();
	int status = -1;

	if (pid == 0) {
		setenv("RR_SHA256_PORTABLE", "1", 1);
		_exit(strcmp(rr_sha256_impl(), "portable") ? 1 : 0);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	check(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "RR_SHA256_PORTABLE=1 selects the portable block function");

#if defined(__x86_64__)
	{
		const char *env = getenv("RR_SHA256_PORTABLE");

		if (!(env && !strcmp(env, "1")) && rr_sha256_shani_usable())
			want = "sha-ni";
	}
#endif
	check(!strcmp(rr_sha256_impl(), want), "default block function is the fastest usable");
	printf("# this process hashes with %s (CPU %s SHA-NI)\n", rr_sha256_impl(),
#if defined(__x86_64__)
	       rr_sha256_shani_usable() ? "has" : "lacks"
#else
	       "is not x86-64, no"
#endif
	       );
}

static void test_one_impl(void)
{
	test_vectors();
	test_million_a();
	test_splits();
	test_edges();
	test_big();
}

int main(void)
{
	test_choice();
	make_big();

	impl = rr_sha256_blocks_portable;
	impl_name = "portable";
	test_one_impl();

	impl_name = "sha-ni";
#if defined(__x86_64__)
	if (rr_sha256_shani_usable()) {
		impl = rr_sha256_blocks_shani;
		test_one_impl();
	} else {
		skip("sha-ni: FIPS vectors, splits, edges and 5 MiB buffer", "CPU lacks SHA-NI");
	}
#else
	skip("sha-ni: FIPS vectors, splits, edges and 5 MiB buffer", "not an x86-64 build");
#endif

	test_big_file();
	test_trace_file();
	if (big_path[0])
		unlink(big_path);
	free(big);
	return tap_done();
}
