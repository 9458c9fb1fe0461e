/* SPDX-License-Identifier: GPL-2.0 */
/* The values at a few ranks of an array of uint64_t (select_u64.c). */
#ifndef RR_REPLAY_SELECT_U64_H
#define RR_REPLAY_SELECT_U64_H

#include <stddef.h>
#include <stdint.h>

/*
 * Set out[i] to the value a sort of @v would put at index ranks[i]
 * (ascending, each < @n; 0 when @n is 0). Reorders @v.
 */
void rr_select_ranks_u64(uint64_t *v, size_t n, const size_t *ranks, size_t nr, uint64_t *out);

#endif
