/* SPDX-License-Identifier: GPL-2.0 */
/* A growable array of fixed-size elements, for the replay's build steps. */
#ifndef RR_REPLAY_VEC_H
#define RR_REPLAY_VEC_H

#include <stdlib.h>

struct vec {
	void *p;
	size_t n, cap;
};

/* Room for one more element of @elem bytes (doubling); NULL on OOM. */
static inline void *vec_push(struct vec *v, size_t elem)
{
	if (v->n == v->cap) {
		size_t ncap = v->cap ? v->cap * 2 : 64;
		void *np = realloc(v->p, ncap * elem);

		if (!np)
			return NULL;
		v->p = np;
		v->cap = ncap;
	}
	return (char *)v->p + elem * v->n++;
}

#endif
