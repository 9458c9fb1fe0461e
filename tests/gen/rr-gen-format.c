// SPDX-License-Identifier: GPL-2.0
/*
 * Event layouts per kernel generation (tracefs format text, field
 * offsets) and the encoding of one modelled event into its binary payload.
 */
#include "rr-gen.h"

/* ------------------------------------------------------------------ */
/* Event layouts                                                       */

struct layout lay[NKIND];
const struct evdef *gen_tab;
const char *gen_name = "6.1";
static int char_signed = 1;

static int type_size(const char *t, int *sign, int *align)
{
	static const struct { const char *t; int size, sign; } tt[] = {
		{ "int", 4, 1 }, { "unsigned int", 4, 0 }, { "long", 8, 1 },
		{ "unsigned long", 8, 0 }, { "unsigned short", 2, 0 },
		{ "short", 2, 1 }, { "dev_t", 4, 0 }, { "sector_t", 8, 0 },
		{ "ino_t", 8, 0 }, { "gfp_t", 4, 0 }, { "isolate_mode_t", 4, 0 },
		{ "unsigned char", 1, 0 }, { "bool", 1, 0 }, { "u64", 8, 0 }, { "pid_t", 4, 1 },
	};
	size_t i;

	if (!strcmp(t, "char")) {
		*sign = char_signed;
		*align = 1;
		return 1;
	}
	for (i = 0; i < sizeof(tt) / sizeof(tt[0]); i++)
		if (!strcmp(t, tt[i].t)) {
			*sign = tt[i].sign;
			*align = tt[i].size;
			return tt[i].size;
		}
	die("unknown field type '%s'", t);
}

static int slot_of(const char *name)
{
	int i;

	if (!strcmp(name, "classzone_idx"))
		return S_ZONEIDX;
	if (!strcmp(name, "errors"))
		return S_ERROR;
	for (i = 0; i < NSLOT; i++)
		if (!strcmp(slot_names[i], name))
			return i;
	return -1;
}

void append(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > *cap) {
		*cap = (*len + n + 1) * 2;
		*buf = realloc(*buf, *cap);
		if (!*buf)
			die("out of memory");
	}
	memcpy(*buf + *len, s, n + 1);
	*len += n;
}

static void build_layout(int k)
{
	struct layout *L = &lay[k];
	const struct evdef *d = &gen_tab[k];
	char decl[1024], *save = NULL, *tok;
	int off = 8, maxal = 4;
	char line[256], *fmt = NULL;
	size_t flen = 0, fcap = 0;
	int i;

	L->def = d;
	L->present = d->name != NULL;
	if (!L->present)
		return;
	L->id = k == K_PRINT ? 5 : 500 + k;
	snprintf(decl, sizeof(decl), "%s", d->fields);
	for (tok = strtok_r(decl, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		struct field *F = &L->f[L->nf];
		char *name, *br, *end;
		int al;

		while (isspace((unsigned char)*tok))
			tok++;
		end = tok + strlen(tok);
		while (end > tok && isspace((unsigned char)end[-1]))
			*--end = 0;
		if (!*tok)
			continue;
		if (L->nf >= MAX_FIELDS)
			die("too many fields");
		name = strrchr(tok, ' ');
		*name++ = 0;
		snprintf(F->type, sizeof(F->type), "%s", tok);
		snprintf(F->name, sizeof(F->name), "%s", name);
		br = strchr(F->name, '[');
		if (!strncmp(F->type, "__data_loc", 10)) {
			F->fk = F_DATALOC;
			F->size = 4;
			F->sign = char_signed;
			al = 4;
		} else if (br) {
			*br = 0;
			type_size(F->type, &F->sign, &al);
			if (br[1] == ']') {
				F->fk = F_FLEX;
				F->size = 0;
			} else {
				F->fk = F_CHARARR;
				F->arrlen = atoi(br + 1);
				F->size = F->arrlen;
			}
		} else {
			F->fk = F_SCALAR;
			F->size = type_size(F->type, &F->sign, &al);
		}
		off = (off + al - 1) / al * al;
		F->off = off;
		off += F->size;
		if (al > maxal)
			maxal = al;
		F->slot = slot_of(F->name);
		F->is_comm = !strcmp(F->name, "comm");
		L->nf++;
	}
	L->size = (off + maxal - 1) / maxal * maxal;
	if (L->f[L->nf - 1].fk == F_FLEX)
		L->size = off;	/* flexible array: data starts right at buf */

	snprintf(line, sizeof(line), "name: %s\nID: %d\nformat:\n", d->name, L->id);
	append(&fmt, &flen, &fcap, line);
	append(&fmt, &flen, &fcap,
	       "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	       "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	       "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	       "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n");
	for (i = 0; i < L->nf; i++) {
		struct field *F = &L->f[i];
		char nm[48];

		if (F->fk == F_CHARARR)
			snprintf(nm, sizeof(nm), "%s[%d]", F->name, F->arrlen);
		else if (F->fk == F_FLEX)
			snprintf(nm, sizeof(nm), "%s[]", F->name);
		else
			snprintf(nm, sizeof(nm), "%s", F->name);
		snprintf(line, sizeof(line), "\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;\n",
			 F->type, nm, F->off, F->size, F->sign);
		append(&fmt, &flen, &fcap, line);
	}
	append(&fmt, &flen, &fcap, "\nprint fmt: ");
	append(&fmt, &flen, &fcap, d->print);
	append(&fmt, &flen, &fcap, "\n");
	L->format = fmt;
}

void select_gen(const char *g)
{
	if (!strcmp(g, "6.1"))
		gen_tab = gen_61;
	else if (!strcmp(g, "6.18"))
		gen_tab = gen_618;
	else if (!strcmp(g, "5.16rc") || !strcmp(g, "5.16-rc"))
		gen_tab = gen_516rc;
	else if (!strcmp(g, "5.10"))
		gen_tab = gen_510;
	else if (!strcmp(g, "old"))
		gen_tab = gen_old;
	else
		die("unknown kernel generation '%s' (5.10, 5.16rc, 6.1, 6.18, old)", g);
	gen_name = gen_tab == gen_61 ? "6.1" : gen_tab == gen_618 ? "6.18" :
		   gen_tab == gen_516rc ? "5.16rc" : gen_tab == gen_510 ? "5.10" : "old";
	char_signed = gen_tab != gen_618;
	for (int k = 0; k < NKIND; k++)
		build_layout(k);
}

/* ------------------------------------------------------------------ */
/* Events                                                              */

char *task_comm[MAX_TASKS];
int task_pid[MAX_TASKS];
int ntasks;

static const char *comm_of(int pid)
{
	for (int i = 0; i < ntasks; i++)
		if (task_pid[i] == pid)
			return task_comm[i];
	return "<...>";
}

/* Encode one event payload into out; returns its length. */
int encode(const struct ev *e, unsigned char *out)
{
	const struct layout *L = &lay[e->kind];
	int len = L->size;

	if (!L->present)
		die("event kind %d not in kernel %s", e->kind, gen_name);
	memset(out, 0, L->size);
	out[0] = L->id & 0xff;
	out[1] = L->id >> 8;
	out[3] = 0;
	memcpy(out + 4, &e->pid, 4);
	for (int i = 0; i < L->nf; i++) {
		const struct field *F = &L->f[i];
		uint64_t v;
		const char *s;
		size_t n;

		switch (F->fk) {
		case F_SCALAR:
			if (F->slot == S_FILE)
				v = e->v[S_LRU] >= 2;
			else
				v = F->slot >= 0 ? e->v[F->slot] : 0;
			/* little endian host */
			switch (F->size) {
			case 8: memcpy(out + F->off, &v, 8); break;
			case 4: { uint32_t v4 = v; memcpy(out + F->off, &v4, 4); break; }
			case 2: { uint16_t v2 = v; memcpy(out + F->off, &v2, 2); break; }
			default: out[F->off] = v; break;
			}
			break;
		case F_CHARARR:
			/* sched_wakeup's comm is the woken task's */
			s = F->is_comm ? comm_of(e->kind == K_SCHED_WAKEUP ? (int)e->v[S_PID] : e->pid)
				       : e->str ? e->str : "";
			n = strlen(s);
			if (n > (size_t)F->arrlen - 1)
				n = F->arrlen - 1;
			memcpy(out + F->off, s, n);
			break;
		case F_DATALOC: {
			uint32_t loc = (1u << 16) | (uint32_t)len;

			memcpy(out + F->off, &loc, 4);
			out[len++] = 0;		/* empty cmd string */
			break;
		}
		case F_FLEX:
			s = e->str ? e->str : "";
			n = strlen(s);
			memcpy(out + len, s, n);
			len += n;
			out[len++] = '\n';
			out[len++] = 0;
			break;
		}
	}
	return len;
}
