// SPDX-License-Identifier: GPL-2.0
/*
 * Facts about the running kernel that a replay needs and a trace does not
 * carry: HZ (throttle timeouts are jiffies), page size, the online NUMA
 * nodes and each node's pfn span (so pfn-only events such as compaction's
 * get a node). They go into the recording as rr-meta lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "recorder.h"
#include "reclaim_replay/error.h"

extern char **environ;

static int hz_from_config_text(FILE *f)
{
	char line[256];
	int hz = 0;

	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "CONFIG_HZ=", 10))
			hz = atoi(line + 10);
	return hz;
}

/* /proc/config.gz through gzip -dc: no zlib dependency for one number. */
static int hz_from_config_gz(void)
{
	char *argv[] = { "gzip", "-dc", "/proc/config.gz", NULL };
	posix_spawn_file_actions_t fa;
	int fds[2], status, hz = 0;
	pid_t pid;
	FILE *f;

	if (access("/proc/config.gz", R_OK) || pipe2(fds, O_CLOEXEC))
		return 0;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "gzip", &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		close(fds[0]);
		close(fds[1]);
		return 0;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (f) {
		hz = hz_from_config_text(f);
		fclose(f);
	} else {
		close(fds[0]);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return hz;
}

static long long read_jiffies(void)
{
	FILE *f = fopen("/proc/timer_list", "r");
	char line[256];
	long long j = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "jiffies: ", 9)) {
			j = atoll(line + 9);
			break;
		}
	fclose(f);
	return j;
}

/*
 * The jiffies trick: count jiffies over 200 ms of monotonic time and round
 * to the nearest HZ a kernel can be built with.
 */
static int hz_measured(void)
{
	static const int choices[] = { 100, 250, 300, 1000 };
	struct timespec ts = { 0, 200 * 1000 * 1000 };
	long long j0, j1;
	uint64_t t0, t1;
	double rate;
	int best = 0;

	j0 = read_jiffies();
	t0 = rr_rec_now_ns();
	if (j0 < 0)
		return 0;
	while (nanosleep(&ts, &ts) && errno == EINTR && !rr_rec_stop)
		;
	j1 = read_jiffies();
	t1 = rr_rec_now_ns();
	if (j1 <= j0 || t1 <= t0)
		return 0;
	rate = (double)(j1 - j0) * 1e9 / (double)(t1 - t0);
	for (int i = 0; i < 4; i++)
		if (!best || abs(choices[i] - (int)rate) < abs(best - (int)rate))
			best = choices[i];
	/* More than 10% off every choice: a tickless idle or odd config. */
	return abs(best - (int)rate) * 10 <= best ? best : 0;
}

static void read_hz(struct rr_sysinfo *si)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/boot/config-%s", si->kernel);
	f = fopen(path, "r");
	if (f) {
		si->hz = hz_from_config_text(f);
		fclose(f);
	}
	if (!si->hz)
		si->hz = hz_from_config_gz();
	if (si->hz) {
		si->hz_source = "config";
		return;
	}
	si->hz = hz_measured();
	if (si->hz) {
		si->hz_source = "measured";
		return;
	}
	si->hz = 250;
	si->hz_source = "default";
	rr_warn("cannot find CONFIG_HZ (no /boot/config-%s, no /proc/config.gz, no "
		"/proc/timer_list): assuming HZ=250; throttle timeouts in the replay may be off",
		si->kernel);
}

/* "0", "0-1", "0,2-3" */
static void read_online_nodes(struct rr_sysinfo *si)
{
	FILE *f = fopen("/sys/devices/system/node/online", "r");
	char buf[256], *p;

	si->nr_nodes = 0;
	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		/* No NUMA support: the whole machine is node 0. */
		si->node_online[0] = 1;
		si->nr_nodes = 1;
		return;
	}
	fclose(f);
	p = buf;
	while (*p && *p != '\n') {
		long a = strtol(p, &p, 10), b = a;

		if (*p == '-')
			b = strtol(p + 1, &p, 10);
		for (long n = a; n <= b && n < RR_MAX_NODES; n++) {
			if (n < 0)
				continue;
			si->node_online[n] = 1;
			if (n + 1 > si->nr_nodes)
				si->nr_nodes = (int)n + 1;
		}
		if (*p == ',')
			p++;
		else
			break;
	}
	if (!si->nr_nodes) {
		si->node_online[0] = 1;
		si->nr_nodes = 1;
	}
}

/* Per node: [min zone start_pfn, max zone start_pfn + spanned) over zones. */
static void read_ranges(struct rr_sysinfo *si)
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	unsigned long long spanned = 0, start;
	char line[256];
	int node = -1;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *p = line;
		int n;

		if (sscanf(line, "Node %d, zone", &n) == 1) {
			node = n;
			spanned = 0;
			continue;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, "spanned ", 8)) {
			spanned = strtoull(p + 8, NULL, 10);
		} else if (!strncmp(p, "start_pfn:", 10) && node >= 0 && node < RR_MAX_NODES &&
			   spanned) {
			struct rr_node_range *r = &si->ranges[node];

			start = strtoull(p + 10, NULL, 10);
			if (!si->have_range[node] || start < r->start_pfn)
				r->start_pfn = start;
			if (!si->have_range[node] || start + spanned > r->end_pfn)
				r->end_pfn = start + spanned;
			r->nid = node;
			si->have_range[node] = 1;
		}
	}
	fclose(f);
}

int rr_sysinfo_read(struct rr_sysinfo *si)
{
	struct utsname u;

	memset(si, 0, sizeof(*si));
	if (!uname(&u))
		snprintf(si->kernel, sizeof(si->kernel), "%.63s", u.release);
	si->page_size = (int)sysconf(_SC_PAGESIZE);
	read_online_nodes(si);
	read_ranges(si);
	read_hz(si);
	return 0;
}
