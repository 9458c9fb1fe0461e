// SPDX-License-Identifier: GPL-2.0
/*
 * SHA-256 block function on the x86 SHA extensions (SHA-NI). The portable C
 * in sha256.c costs about 4 ns a byte, three times the whole read of a large
 * trace; SHA-NI does the same rounds several times faster. Only the
 * functions below are built for "sha,sse4.1", never the whole program, so
 * the binary still runs on CPUs without them: sha256.c calls
 * rr_sha256_blocks_shani() only after rr_sha256_shani_usable() said yes.
 *
 * Register layout is the one the instructions want: SHA256RNDS2 takes the
 * state as {A,B,E,F} and {C,D,G,H} and does two rounds with the two
 * message+constant words in the low half of its third operand.
 */
#include "report/sha256.h"

#if defined(__x86_64__)

#include <cpuid.h>
#include <immintrin.h>

/*
 * CPUID rather than __builtin_cpu_supports("sha"): gcc 12 knows that name
 * but clang 14 (also Debian 12) rejects it. SHA is leaf 7 EBX bit 29; PSHUFB
 * (SSSE3) and the blend (SSE4.1) are leaf 1 ECX, present on every SHA-NI CPU
 * but checked anyway. x86-64 kernels always save the XMM state.
 */
int rr_sha256_shani_usable(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
		return 0;
	if (!(ecx & bit_SSSE3) || !(ecx & bit_SSE4_1))
		return 0;
	if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
		return 0;
	return !!(ebx & bit_SHA);
}

/* Four rounds: message words @w plus K[4 * @i ...], two at a time. */
#define QROUND(i, w) do {								\
	const __m128i *k_ = (const __m128i *)&rr_sha256_k[4 * (i)];			\
	__m128i m_ = _mm_add_epi32(w, _mm_loadu_si128(k_));				\
	cdgh = _mm_sha256rnds2_epu32(cdgh, abef, m_);					\
	m_ = _mm_shuffle_epi32(m_, 0x0e);						\
	abef = _mm_sha256rnds2_epu32(abef, cdgh, m_);					\
} while (0)

/*
 * The next four schedule words (6.2.2 step 1) into @w0, which holds
 * W[t-16..t-13]: MSG1 adds sigma0 of W[t-15..t-12], the alignr supplies
 * W[t-7..t-4], and MSG2 adds sigma1 of W[t-2], W[t-1] and then of the two
 * words it has just made.
 */
#define SCHED(w0, w1, w2, w3)								\
	(w0 = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(w0, w1),		\
						 _mm_alignr_epi8(w3, w2, 4)), w3))

__attribute__((target("sha,sse4.1")))
void rr_sha256_blocks_shani(uint32_t h[8], const uint8_t *p, size_t n)
{
	/* Byte order within each 32-bit word: the message is big-endian. */
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i abef, cdgh, tmp, w0, w1, w2, w3, abef_in, cdgh_in;

	/* {A,B,C,D} {E,F,G,H} in memory order to {A,B,E,F} {C,D,G,H}, high lane first. */
	tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xb1);
	cdgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1b);
	abef = _mm_alignr_epi8(tmp, cdgh, 8);
	cdgh = _mm_blend_epi16(cdgh, tmp, 0xf0);

	for (; n; n--, p += 64) {
		abef_in = abef;
		cdgh_in = cdgh;
		w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 0)), bswap);
		w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), bswap);
		w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), bswap);
		w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), bswap);
		QROUND(0, w0);
		QROUND(1, w1);
		QROUND(2, w2);
		QROUND(3, w3);
		for (int i = 4; i < 16; i += 4) {
			SCHED(w0, w1, w2, w3);
			QROUND(i, w0);
			SCHED(w1, w2, w3, w0);
			QROUND(i + 1, w1);
			SCHED(w2, w3, w0, w1);
			QROUND(i + 2, w2);
			SCHED(w3, w0, w1, w2);
			QROUND(i + 3, w3);
		}
		abef = _mm_add_epi32(abef, abef_in);
		cdgh = _mm_add_epi32(cdgh, cdgh_in);
	}

	/* Back to {A,B,C,D} {E,F,G,H}. */
	tmp = _mm_shuffle_epi32(abef, 0x1b);
	cdgh = _mm_shuffle_epi32(cdgh, 0xb1);
	_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(tmp, cdgh, 0xf0));
	_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(cdgh, tmp, 8));
}

#endif /* __x86_64__ */
