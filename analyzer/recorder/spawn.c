// SPDX-License-Identifier: GPL-2.0
/*
 * Child processes of the recorder: the workload, and trace-cmd extract,
 * which writes the standard trace.dat (the one writer every trace tool
 * reads) from our instance's buffer. Waits poll the stop flag so Ctrl-C
 * always reaches the cleanup.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "recorder.h"
#include "reclaim_replay/error.h"

extern char **environ;

uint64_t rr_rec_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void rr_rec_sleep_ns(uint64_t ns)
{
	uint64_t end = rr_rec_now_ns() + ns;

	while (!rr_rec_stop) {
		uint64_t now = rr_rec_now_ns(), left;
		struct timespec ts;

		if (now >= end)
			break;
		left = end - now;
		ts.tv_sec = (time_t)(left / 1000000000u);
		ts.tv_nsec = (long)(left % 1000000000u);
		nanosleep(&ts, NULL);	/* EINTR on a stop signal: loop checks */
	}
}

static int spawn_with(char *const argv[], posix_spawn_file_actions_t *fa, pid_t *pid)
{
	posix_spawnattr_t attr;
	sigset_t def, none;
	int err;

	posix_spawnattr_init(&attr);
	/* The child gets default dispositions and an empty mask: our handlers
	 * and the sampler's blocked set are ours, not the workload's. */
	sigemptyset(&def);
	sigaddset(&def, SIGINT);
	sigaddset(&def, SIGTERM);
	sigaddset(&def, SIGHUP);
	sigaddset(&def, SIGPIPE);
	sigemptyset(&none);
	posix_spawnattr_setsigdefault(&attr, &def);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	err = posix_spawnp(pid, argv[0], fa, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	return -err;
}

int rr_rec_spawn(char *const argv[], pid_t *pid)
{
	return spawn_with(argv, NULL, pid);
}

int rr_rec_wait(pid_t pid)
{
	uint64_t deadline = 0;
	int status, forwarded = 0;

	for (;;) {
		pid_t r = waitpid(pid, &status, forwarded ? WNOHANG : 0);

		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		if (rr_rec_stop && !forwarded) {
			/* Pass the user's interrupt on; the recording ends when
			 * the workload does. */
			kill(pid, rr_rec_signal ? rr_rec_signal : SIGTERM);
			forwarded = 1;
			deadline = rr_rec_now_ns() + 5000000000ull;
			continue;
		}
		if (forwarded) {
			struct timespec ts = { 0, 20 * 1000 * 1000 };

			if (rr_rec_now_ns() > deadline) {
				rr_warn("the command ignored the interrupt for 5 s: killing it");
				kill(pid, SIGKILL);
				deadline = UINT64_MAX;
			}
			nanosleep(&ts, NULL);
		}
	}
}

/* Print the last lines of a child's captured output, each as a warning. */
static void replay_log(FILE *log)
{
	char line[512];
	int n = 0;

	rewind(log);
	while (fgets(line, sizeof(line), log) && n++ < 20) {
		line[strcspn(line, "\n")] = 0;
		if (line[0])
			rr_warn("trace-cmd: %s", line);
	}
}

int rr_rec_extract(struct rr_rec_session *s, const char *path)
{
	char *argv[] = { "trace-cmd", "extract", "-B", s->name, "-o", (char *)path, NULL };
	posix_spawn_file_actions_t fa;
	FILE *log = tmpfile();
	int status = 0, err;
	struct stat st;
	pid_t pid;

	if (!log)
		return rr_fail(RR_EXIT_FAILURE, "cannot create a temporary file: %s",
			       strerror(errno));
	/* A stale file of the same name must not pass for our output. */
	if (unlink(path) && errno != ENOENT) {
		err = errno;
		fclose(log);
		return rr_fail(RR_EXIT_FAILURE, "cannot replace '%s': %s", path, strerror(err));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fileno(log), STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fileno(log), STDERR_FILENO);
	err = spawn_with(argv, &fa, &pid);
	posix_spawn_file_actions_destroy(&fa);
	if (err == -ENOENT) {
		fclose(log);
		return rr_fail(RR_EXIT_FAILURE, "cannot write '%s': trace-cmd is not installed "
			       "(apt install trace-cmd)", path);
	}
	if (err) {
		fclose(log);
		return rr_fail(RR_EXIT_FAILURE, "cannot write '%s': cannot run trace-cmd: %s", path,
			       strerror(-err));
	}
	/* Not interruptible: a half-written file helps nobody, and it is quick. */
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	if (status != 0 || stat(path, &st) || st.st_size == 0) {
		replay_log(log);
		fclose(log);
		return rr_fail(RR_EXIT_FAILURE, "cannot write '%s': trace-cmd extract -B %s failed "
			       "(%s)", path, s->name,
			       WIFEXITED(status) ? "see its messages above" : "killed");
	}
	fclose(log);
	return 0;
}
