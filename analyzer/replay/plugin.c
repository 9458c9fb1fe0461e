// SPDX-License-Identifier: GPL-2.0
/*
 * Loading policy plugins. Everything a plugin hands over is checked before
 * the engine calls into it: the entry point, the ABI version, the size of
 * its ops (fields are only ever appended to struct rr_policy_ops, so a
 * smaller size is an older header and a larger one a newer header than
 * ours), a decide hook and a usable name. Each load counts a reference
 * until rr_plugin_put, and the last put closes the dlopen handle, so a
 * plugin's code stays mapped for as long as a policy instance may call it.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plugin.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/replay.h"

#define MAX_NAME 31

/* A loaded plugin: one per ops, however often it was loaded and not put. */
struct plugin_ref {
	struct plugin_ref *next;
	const struct rr_policy_ops *ops;
	void *handle;
	char *path;		/* as first loaded */
	unsigned long count;
};

/* Policies may be opened and closed from a sweep's threads. */
static struct plugin_ref *refs;
static pthread_mutex_t refs_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * The PATH of "PATH[:ARGS]" ends at the first ".so:" (ARGS may hold any
 * character, '/' and ':' included); without one, all of @spec is the path.
 */
static size_t path_len(const char *spec)
{
	const char *so = strstr(spec, ".so:");

	return so ? (size_t)(so - spec) + 3 : strlen(spec);
}

int rr_plugin_is_spec(const char *spec)
{
	size_t n = path_len(spec);

	return strchr(spec, '/') || (n > 3 && !strncmp(spec + n - 3, ".so", 3));
}

/* The file to dlopen: a bare "x.so" is ./x.so, never a library search. */
static char *plugin_file(const char *spec)
{
	size_t n = path_len(spec);
	int bare = !memchr(spec, '/', n);
	char *p = malloc(n + 3);

	if (!p)
		return NULL;
	memcpy(p, "./", 2);
	memcpy(p + (bare ? 2 : 0), spec, n);
	p[n + (bare ? 2 : 0)] = '\0';
	return p;
}

static int name_ok(const char *name)
{
	size_t n = 0;

	for (; name[n]; n++)
		if (!isalnum((unsigned char)name[n]) && name[n] != '-' && name[n] != '_')
			return 0;
	return n && n <= MAX_NAME;
}

static int check_ops(const struct rr_policy_ops *o, const char *path)
{
	const size_t v1_size = offsetof(struct rr_policy_ops, help);

	if (o->abi_version != RR_POLICY_ABI_VERSION)
		return rr_fail(RR_EXIT_USAGE, "plugin '%s': wrong ABI version %u (this build "
			       "speaks %u)", path, o->abi_version, RR_POLICY_ABI_VERSION);
	if (o->size < v1_size)
		return rr_fail(RR_EXIT_USAGE, "plugin '%s': size mismatch: struct rr_policy_ops "
			       "of %u bytes, ABI %u has at least %zu", path, o->size,
			       RR_POLICY_ABI_VERSION, v1_size);
	if (o->size > sizeof(*o))
		return rr_fail(RR_EXIT_USAGE, "plugin '%s': size mismatch: struct rr_policy_ops "
			       "of %u bytes, this build knows %zu (built against a newer "
			       "policy.h)", path, o->size, sizeof(*o));
	if (!o->decide)
		return rr_fail(RR_EXIT_USAGE, "plugin '%s': no decide hook", path);
	if (!o->name || !name_ok(o->name))
		return rr_fail(RR_EXIT_USAGE, "plugin '%s': name must be 1-%d letters, digits, "
			       "'-' or '_'", path, MAX_NAME);
	if (rr_policy_find(o->name))
		return rr_fail(RR_EXIT_USAGE, "plugin '%s': name '%s' is taken by a built-in "
			       "policy", path, o->name);
	return 0;
}

/* dlerror() often starts with the path again: keep the message short. */
static const char *dl_reason(const char *path)
{
	const char *e = dlerror();
	size_t n = strlen(path);

	if (!e)
		return "unknown dlopen error";
	if (!strncmp(e, path, n) && e[n] == ':' && e[n + 1] == ' ')
		return e + n + 2;
	return e;
}

int rr_plugin_load(const char *spec, const struct rr_policy_ops **ops)
{
	const struct rr_policy_ops *(*entry)(void);
	const struct rr_policy_ops *o;
	struct plugin_ref *r;
	char *path = plugin_file(spec);
	struct stat st;
	void *h;
	int ret;

	*ops = NULL;
	if (!path)
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	if (stat(path, &st)) {
		ret = rr_fail(RR_EXIT_USAGE, "plugin '%s': %s", path, strerror(errno));
		goto fail_path;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = rr_fail(RR_EXIT_USAGE, "plugin '%s': not a regular file", path);
		goto fail_path;
	}
	dlerror();
	/* RTLD_NOW: an unresolved symbol fails here, not in the middle of a replay */
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		ret = rr_fail(RR_EXIT_USAGE, "plugin '%s': cannot load: %s", path, dl_reason(path));
		goto fail_path;
	}
	*(void **)&entry = dlsym(h, RR_POLICY_PLUGIN_ENTRY);
	if (!entry) {
		ret = rr_fail(RR_EXIT_USAGE, "plugin '%s': no entry point %s() (docs/plugins.md)",
			      path, RR_POLICY_PLUGIN_ENTRY);
		goto fail_dl;
	}
	o = entry();
	if (!o) {
		ret = rr_fail(RR_EXIT_USAGE, "plugin '%s': %s() returned no ops", path,
			      RR_POLICY_PLUGIN_ENTRY);
		goto fail_dl;
	}
	ret = check_ops(o, path);
	if (ret)
		goto fail_dl;
	pthread_mutex_lock(&refs_lock);
	for (r = refs; r && r->ops != o; r = r->next)
		;
	if (r) {
		/* loaded already: dlopen returned the same object, counted once */
		r->count++;
		pthread_mutex_unlock(&refs_lock);
		dlclose(h);
		free(path);
		*ops = o;
		return 0;
	}
	r = calloc(1, sizeof(*r));
	if (r) {
		r->ops = o;
		r->handle = h;
		r->path = path;
		r->count = 1;
		r->next = refs;
		refs = r;
	}
	pthread_mutex_unlock(&refs_lock);
	if (!r) {
		ret = rr_fail(RR_EXIT_FAILURE, "out of memory");
		goto fail_dl;
	}
	*ops = o;
	return 0;
fail_dl:
	dlclose(h);
fail_path:
	free(path);
	return ret;
}

void rr_plugin_put(const struct rr_policy_ops *ops)
{
	struct plugin_ref *r = NULL;

	pthread_mutex_lock(&refs_lock);
	for (struct plugin_ref **pp = &refs; *pp; pp = &(*pp)->next) {
		if ((*pp)->ops == ops) {
			if (--(*pp)->count == 0) {
				r = *pp;
				*pp = r->next;
			}
			break;
		}
	}
	pthread_mutex_unlock(&refs_lock);
	if (!r)
		return;
	dlclose(r->handle);
	free(r->path);
	free(r);
}

const char *rr_plugin_path(const struct rr_policy_ops *ops)
{
	const char *path = NULL;

	pthread_mutex_lock(&refs_lock);
	for (const struct plugin_ref *r = refs; r && !path; r = r->next)
		if (r->ops == ops)
			path = r->path;
	pthread_mutex_unlock(&refs_lock);
	/* valid while the caller holds a reference to @ops */
	return path;
}

void rr_plugin_settings_free(char **s, uint32_t n)
{
	for (uint32_t i = 0; s && i < n; i++)
		free(s[i]);
	free(s);
}

static int add_setting(char **v, uint32_t *n, const char *s, size_t len)
{
	v[*n] = strndup(s, len);
	if (!v[*n])
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	(*n)++;
	return 0;
}

int rr_plugin_settings(const struct rr_policy_ops *ops, const char *spec,
		       const char *const *set, uint32_t nr_set, char ***out, uint32_t *nr_out)
{
	const char *args = spec + path_len(spec), *path = rr_plugin_path(ops);
	size_t nlen = strlen(ops->name), max = nr_set + 1;
	uint32_t n = 0;
	char **v;
	int ret = 0;

	if (!path)
		path = spec;
	if (*args == ':')
		args++;
	for (const char *s = args; *s; s++)
		max += *s == ',';
	v = calloc(max, sizeof(*v));
	if (!v)
		return rr_fail(RR_EXIT_FAILURE, "out of memory");
	while (*args && !ret) {
		const char *end = strchr(args, ',');
		size_t len = end ? (size_t)(end - args) : strlen(args);
		const char *eq = memchr(args, '=', len);

		if (!eq || eq == args)
			ret = rr_fail(RR_EXIT_USAGE, "plugin '%s': ARGS item '%.*s' is not "
				      "KEY=VALUE", path, (int)len, args);
		else
			ret = add_setting(v, &n, args, len);
		args += len + (end != NULL);
	}
	for (uint32_t i = 0; i < nr_set && !ret; i++) {
		const char *s = set[i];

		/* NAME. names the plugin: a --set meant for another policy is caught */
		if (strncmp(s, ops->name, nlen) || s[nlen] != '.' || !strchr(s + nlen + 1, '=') ||
		    s[nlen + 1] == '=')
			ret = rr_fail(RR_EXIT_USAGE, "plugin '%s': --set '%s' must read "
				      "%s.KEY=VALUE", path, s, ops->name);
		else
			ret = add_setting(v, &n, s + nlen + 1, strlen(s + nlen + 1));
	}
	if (ret) {
		rr_plugin_settings_free(v, n);
		return ret;
	}
	*out = v;
	*nr_out = n;
	return 0;
}
