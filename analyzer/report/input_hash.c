// SPDX-License-Identifier: GPL-2.0
/*
 * inputs[].sha256: the digest of the file as read from disk, so a report
 * can be matched to the exact recording it describes (docs/report-schema.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/input_hash.h"
#include "report/sha256.h"

/*
 * One hash started ahead (rr_input_hash_prefetch). The list only grows
 * while inputs are loaded and is freed at exit, after every thread is
 * joined, so a failed load leaves no thread running through exit().
 */
struct hash_job {
	struct hash_job *next;
	char *path;
	pthread_t thread;
	int joined;
	int ok;				/* set by the thread, read after the join */
	char hex[RR_SHA256_HEX_LEN];
};

static pthread_mutex_t jobs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hash_job *jobs;
static atomic_int wanted;
static atomic_int stopping;	/* exit: jobs not yet joined stop at their next read */

/* 0 and the digest in @hex, or -1 when @path cannot be read to its end. */
static int hash_file(const char *path, char hex[RR_SHA256_HEX_LEN])
{
	/*
	 * 1 MiB reads straight into our buffer (no stdio copy): a 200 MiB trace
	 * then costs 200 syscalls (64 KiB reads measured the same). The buffer
	 * is page-aligned because a plain malloc() of this size is an mmap 16
	 * bytes into a page, and the kernel copied into that 40% slower (230 ms
	 * against 160 ms for 203 MiB with SHA-NI).
	 */
	enum { CHUNK = 1 << 20 };
	uint8_t digest[RR_SHA256_LEN];
	struct rr_sha256 c;
	unsigned char *buf;
	ssize_t n;
	int fd;

	/*
	 * The input was already loaded, so a failure here is unusual (the file
	 * changed underneath us); the report says null rather than failing.
	 */
	fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd < 0)
		return -1;
	if (posix_memalign((void **)&buf, 4096, CHUNK)) {
		close(fd);
		return -1;
	}
	rr_sha256_init(&c);
	for (;;) {
		if (atomic_load_explicit(&stopping, memory_order_relaxed)) {
			n = -1;
			break;
		}
		n = read(fd, buf, CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		rr_sha256_update(&c, buf, (size_t)n);
	}
	close(fd);
	free(buf);
	rr_sha256_final(&c, digest);
	if (n < 0)
		return -1;
	rr_sha256_to_hex(digest, hex);
	return 0;
}

static void *hash_thread(void *arg)
{
	struct hash_job *j = arg;

	j->ok = !hash_file(j->path, j->hex);
	return NULL;
}

static void jobs_stop(void)
{
	struct hash_job *j, *next;

	atomic_store(&stopping, 1);
	pthread_mutex_lock(&jobs_lock);
	for (j = jobs; j; j = next) {
		next = j->next;
		if (!j->joined)
			pthread_join(j->thread, NULL);
		free(j->path);
		free(j);
	}
	jobs = NULL;
	pthread_mutex_unlock(&jobs_lock);
}

static void want_once(void)
{
	atexit(jobs_stop);
	atomic_store(&wanted, 1);
}

void rr_input_hash_want(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, want_once);
}

void rr_input_hash_prefetch(const char *path)
{
	struct hash_job *j;
	struct stat st;

	if (!path || !atomic_load(&wanted))
		return;
	/*
	 * Only a non-empty regular file: the thread must never block in
	 * open() on a FIFO or device (exit joins it); anything else fails
	 * in rr_trace_load() and is never reported.
	 */
	if (stat(path, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return;
	pthread_mutex_lock(&jobs_lock);
	for (j = jobs; j; j = j->next)
		if (!strcmp(j->path, path))
			goto out;	/* the same file twice: one hash serves both */
	j = calloc(1, sizeof(*j));
	if (!j || !(j->path = strdup(path))) {
		free(j);
		goto out;	/* rr_json_sha256() will hash it itself */
	}
	if (pthread_create(&j->thread, NULL, hash_thread, j)) {
		free(j->path);
		free(j);
		goto out;
	}
	j->next = jobs;
	jobs = j;
out:
	pthread_mutex_unlock(&jobs_lock);
}

json_t *rr_json_sha256(const char *path)
{
	char hex[RR_SHA256_HEX_LEN];
	struct hash_job *j;
	int ok = 0, found = 0;

	pthread_mutex_lock(&jobs_lock);
	for (j = path ? jobs : NULL; j; j = j->next) {
		if (strcmp(j->path, path))
			continue;
		if (!j->joined) {
			pthread_join(j->thread, NULL);
			j->joined = 1;
		}
		found = 1;
		ok = j->ok;
		memcpy(hex, j->hex, sizeof(hex));
		break;
	}
	pthread_mutex_unlock(&jobs_lock);
	if (!found)
		ok = !hash_file(path, hex);
	return ok ? json_string(hex) : json_null();
}
