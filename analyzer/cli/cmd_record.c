// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim-replay record: a replay-grade trace.dat from a private tracing
 * instance: the modelled events, rr-meta and rr-counters lines from the
 * sampler, loss checked from the ring-buffer statistics, then extracted by
 * trace-cmd and read back with our own reader to prove it decodes. The
 * instance is removed on every path out, Ctrl-C included.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "recorder/recorder.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/trace.h"

struct record_opts {
	const char *path;
	double duration_s;		/* 0: until the command ends or Ctrl-C */
	unsigned long buffer_kb;
	unsigned period_ms;
	const char *instance;
	int ground_truth;
	int sched;			/* --sched: also sched_wakeup, sched_switch */
	char **argv;			/* command after --, or NULL */
};

/* What happened, for the summary and the exit code. */
struct record_result {
	struct rr_rec_loss loss;
	struct rr_sampler_stats sampler;
	struct rr_sysinfo si;
	uint64_t wall_ns;
	int interrupted;
	int have_status;
	int status;			/* workload wait status */
	uint64_t file_size;
	uint64_t records, samples, trace_lost, trace_loss_marks;
	json_t *missing;
	int sched_events;		/* sched:* events recorded (--sched) */
};

static void record_usage(FILE *f)
{
	fprintf(f, "usage: reclaim-replay record -o FILE.dat [options] [--duration S | -- COMMAND ARGS...]\n\n"
		"Records the events the model decodes, plus per-node counter samples every\n"
		"--period-ms, through a private tracing instance, into a standard trace.dat.\n"
		"Without --duration or COMMAND it records until Ctrl-C. Needs root and tracefs.\n\n"
		"  -o, --output FILE     the trace.dat to write (required)\n"
		"  -d, --duration S      record for S seconds (decimals allowed)\n"
		"      --buffer-kb N     ring buffer per cpu in KiB (default 65536)\n"
		"      --period-ms P     counter sample period (default 5, 1..1000)\n"
		"      --instance NAME   tracing instance name (default reclaim-replay-PID;\n"
		"                        must not exist)\n"
		"      --ground-truth    also write FILE.dat.ground-truth.json: /proc/vmstat and\n"
		"                        PSI deltas over the same window\n"
		"      --sched           also record sched:sched_wakeup and sched:sched_switch\n"
		"                        (not modelled; they time each throttled task's wake\n"
		"                        and its return to a CPU: docs/model.md)\n"
		"      --strict          exit 3 when the ring buffer lost events\n"
		"  -j, --json            summary as one JSON document on stdout\n"
		"  -p, --pretty          indented JSON\n"
		"  -q, --quiet           no list of missing events, no summary line\n"
		"  -h, --help            this help\n\n"
		"Exit: 0 recorded, 1 failure or COMMAND failed (the trace is still written),\n"
		"2 usage, 3 events lost under --strict, 6 no root or no tracefs.\n");
}

static int parse_ulong(const char *arg, const char *opt, unsigned long lo, unsigned long hi,
		       unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi)
		return rr_fail(RR_EXIT_USAGE, "record: %s wants a whole number in %lu..%lu, not '%s'",
			       opt, lo, hi, arg);
	*out = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct rr_cli *cli, struct record_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "buffer-kb", required_argument, NULL, 2000 },
		{ "period-ms", required_argument, NULL, 2001 },
		{ "instance", required_argument, NULL, 2002 },
		{ "ground-truth", no_argument, NULL, 2003 },
		{ "sched", no_argument, NULL, 2004 },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "strict", no_argument, NULL, 1002 },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned long v;
	char *end;
	int opt;

	o->buffer_kb = 65536;
	o->period_ms = 5;
	optind = 1;
	/* "+": stop at the first non-option, which starts COMMAND. */
	while ((opt = getopt_long(argc, argv, "+o:d:jpqh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			o->path = optarg;
			break;
		case 'd':
			errno = 0;
			o->duration_s = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->duration_s > 0) ||
			    o->duration_s > 86400 * 7)
				return rr_fail(RR_EXIT_USAGE, "record: --duration wants seconds > 0, "
					       "not '%s'", optarg);
			break;
		case 2000:
			if (parse_ulong(optarg, "--buffer-kb", 64, 64UL << 20, &o->buffer_kb))
				return RR_EXIT_USAGE;
			break;
		case 2001:
			if (parse_ulong(optarg, "--period-ms", 1, 1000, &v))
				return RR_EXIT_USAGE;
			o->period_ms = (unsigned)v;
			break;
		case 2002:
			if (!*optarg || strchr(optarg, '/') || strlen(optarg) > 60 ||
			    optarg[0] == '.')
				return rr_fail(RR_EXIT_USAGE, "record: --instance wants a plain name "
					       "(no '/', at most 60 bytes), not '%s'", optarg);
			o->instance = optarg;
			break;
		case 2003:
			o->ground_truth = 1;
			break;
		case 2004:
			o->sched = 1;
			break;
		case 'h':
			record_usage(stdout);
			return -1;
		default:
			if (!rr_cli_common_option(cli, opt, optarg)) {
				record_usage(stderr);
				return RR_EXIT_USAGE;
			}
		}
	}
	if (optind < argc)
		o->argv = argv + optind;
	if (!o->path) {
		rr_error("record: no output file: give -o FILE.dat");
		record_usage(stderr);
		return RR_EXIT_USAGE;
	}
	if (o->argv && o->duration_s > 0)
		return rr_fail(RR_EXIT_USAGE, "record: give either --duration or a COMMAND, not both");
	return 0;
}

static int workload_failed(const struct record_result *r)
{
	if (!r->have_status)
		return 0;
	/* Killed by the interrupt we forwarded: the user ended it, not a failure. */
	if (r->interrupted && WIFSIGNALED(r->status))
		return 0;
	return !WIFEXITED(r->status) || WEXITSTATUS(r->status) != 0;
}

/* Run the workload or wait; the window between trace on and trace off. */
static int run_window(const struct record_opts *o, struct record_result *r)
{
	uint64_t t0 = rr_rec_now_ns();
	pid_t pid;
	int err;

	if (o->argv) {
		err = rr_rec_spawn(o->argv, &pid);
		if (err)
			return rr_fail(RR_EXIT_FAILURE, "record: cannot run '%s': %s", o->argv[0],
				       strerror(-err));
		r->status = rr_rec_wait(pid);
		r->have_status = r->status >= 0;
	} else if (o->duration_s > 0) {
		rr_rec_sleep_ns((uint64_t)(o->duration_s * 1e9));
	} else {
		rr_rec_sleep_ns(UINT64_MAX / 2);
	}
	r->interrupted = rr_rec_stop;
	r->wall_ns = rr_rec_now_ns() - t0;
	return 0;
}

/* Read the file back with our own reader: it must hold the events and samples. */
static int verify(const char *path, struct record_result *r)
{
	struct rr_trace *t = NULL;
	struct stat st;
	int ret;

	if (!stat(path, &st))
		r->file_size = (uint64_t)st.st_size;
	ret = rr_trace_load(path, &t);
	if (ret)
		return rr_fail(ret, "record: wrote '%s' but cannot read it back", path);
	r->records = t->records_read;
	r->samples = t->nr_samples;
	for (int i = 0; i < t->nr_cpus; i++) {
		if (t->lost_per_cpu)
			r->trace_lost += t->lost_per_cpu[i];
		if (t->loss_marks_per_cpu)
			r->trace_loss_marks += t->loss_marks_per_cpu[i];
	}
	if (!r->samples)
		rr_warn("'%s' holds no counter samples: the replay will lack isolated/dirty "
			"counters", path);
	rr_trace_free(t);
	return 0;
}

static int lossy(const struct record_result *r)
{
	return rr_rec_lost(&r->loss) > 0 || r->trace_loss_marks > 0 || r->sampler.write_errors;
}

static void report_loss(const struct record_opts *o, const struct record_result *r)
{
	if (!lossy(r))
		return;
	rr_warn("LOSSY RECORDING: the ring buffer lost events (overrun %llu, commit overrun %llu, "
		"dropped %llu; %llu counter samples not written); episodes and throttles near the "
		"gaps are incomplete. Re-record with a bigger --buffer-kb (now %lu KiB per cpu) or "
		"a shorter window",
		(unsigned long long)r->loss.overrun, (unsigned long long)r->loss.commit_overrun,
		(unsigned long long)r->loss.dropped, (unsigned long long)r->sampler.write_errors,
		o->buffer_kb);
}

static double sampler_cpu_pct(const struct record_result *r)
{
	return r->sampler.wall_ns ? 100.0 * (double)r->sampler.cpu_ns / (double)r->sampler.wall_ns
				  : 0.0;
}

static void print_summary(struct rr_cli *cli, const struct record_opts *o,
			  const struct record_result *r)
{
	double secs = (double)r->wall_ns / 1e9;

	if (cli->json) {
		json_t *doc = json_object();

		json_object_set_new(doc, "schema_version", json_integer(1));
		json_object_set_new(doc, "tool", json_pack("{s:s,s:s}", "name", "reclaim-replay",
							   "version", RR_VERSION));
		json_object_set_new(doc, "command", json_string("record"));
		json_object_set_new(doc, "output", json_string(o->path));
		json_object_set_new(doc, "clean", json_boolean(!lossy(r)));
		json_object_set_new(doc, "interrupted", json_boolean(r->interrupted));
		json_object_set_new(doc, "duration_s", json_real(secs));
		json_object_set_new(doc, "size_bytes", json_integer((json_int_t)r->file_size));
		json_object_set_new(doc, "bytes_per_s",
				    json_real(secs > 0 ? (double)r->file_size / secs : 0));
		json_object_set_new(doc, "records", json_integer((json_int_t)r->records));
		json_object_set_new(doc, "counter_samples", json_integer((json_int_t)r->samples));
		json_object_set_new(doc, "ring_buffer_bytes_per_s",
				    json_real(secs > 0 ? (double)r->loss.bytes / secs : 0));
		json_object_set_new(doc, "ring_buffer", json_pack("{s:I,s:I,s:I,s:I,s:I,s:I}",
			"buffer_kb_per_cpu", (json_int_t)o->buffer_kb,
			"bytes", (json_int_t)r->loss.bytes,
			"entries", (json_int_t)r->loss.entries,
			"overrun", (json_int_t)r->loss.overrun,
			"commit_overrun", (json_int_t)r->loss.commit_overrun,
			"dropped_events", (json_int_t)r->loss.dropped));
		json_object_set_new(doc, "sampler", json_pack("{s:I,s:I,s:I,s:I,s:f,s:I}",
			"period_us", (json_int_t)o->period_ms * 1000,
			"lines", (json_int_t)r->sampler.samples,
			"write_errors", (json_int_t)r->sampler.write_errors,
			"late_periods", (json_int_t)r->sampler.late,
			"cpu_percent", sampler_cpu_pct(r),
			"cpu_ns", (json_int_t)r->sampler.cpu_ns));
		json_object_set_new(doc, "meta", json_pack("{s:i,s:s,s:i,s:i,s:s}",
			"hz", r->si.hz, "hz_source", r->si.hz_source, "page_size", r->si.page_size,
			"nodes", r->si.nr_nodes, "kernel", r->si.kernel));
		json_object_set_new(doc, "missing_events", json_incref(r->missing));
		json_object_set_new(doc, "sched_events", json_integer(r->sched_events));
		if (r->have_status)
			json_object_set_new(doc, "command_status", json_integer(
				WIFEXITED(r->status) ? WEXITSTATUS(r->status)
						     : 128 + WTERMSIG(r->status)));
		rr_json_print(doc, cli->out, cli->pretty);
		json_decref(doc);
		return;
	}
	if (cli->quiet)
		return;
	fprintf(cli->out, "recorded %.2f s%s into '%s': %.1f MB file, %.0f KB/s of events, "
		"%llu records, %llu counter samples; sampler %.3f%% of a CPU at %u ms; %s\n",
		secs, r->interrupted ? " (interrupted)" : "", o->path, (double)r->file_size / 1e6,
		secs > 0 ? (double)r->loss.bytes / 1e3 / secs : 0.0,
		(unsigned long long)r->records, (unsigned long long)r->samples,
		sampler_cpu_pct(r), o->period_ms,
		lossy(r) ? "LOSSY: events were lost (see the warning)" : "clean: no events lost");
}

static int record(struct rr_cli *cli, const struct record_opts *o)
{
	struct rr_rec_session s = { 0 };
	struct rr_sampler *sp = NULL;
	struct rr_gt_snapshot *gt_before = NULL, *gt_after = NULL;
	struct record_result r;
	char name[64], gt_path[4096];
	int ret;

	memset(&r, 0, sizeof(r));
	ret = rr_rec_check_tracing("record");
	if (ret)
		return ret;
	rr_rec_signals_install();
	rr_sysinfo_read(&r.si);
	if (o->instance)
		snprintf(name, sizeof(name), "%s", o->instance);
	else
		snprintf(name, sizeof(name), "reclaim-replay-%d", (int)getpid());
	ret = rr_rec_session_open(&s, name, o->buffer_kb, cli->quiet);
	if (ret)
		return ret;
	if (o->sched && (ret = rr_rec_enable_sched(&s, cli->quiet)))
		goto out;
	r.missing = rr_rec_missing_json(&s);
	r.sched_events = s.sched_events;
	if (rr_rec_stop)
		goto out;	/* interrupted during setup: nothing recorded */

	ret = rr_rec_trace_on(&s);
	if (!ret)	/* after trace on: marker writes with tracing off are dropped */
		ret = rr_sampler_start(&s, &r.si, o->period_ms * 1000u, &sp);
	if (ret)
		goto out;
	if (o->ground_truth)
		gt_before = rr_gt_snapshot_take();
	if (!cli->quiet && !o->argv && !(o->duration_s > 0))
		fprintf(stderr, "reclaim-replay: recording into instance '%s' until Ctrl-C\n", name);

	ret = run_window(o, &r);

	if (o->ground_truth)
		gt_after = rr_gt_snapshot_take();
	rr_sampler_stop(sp, &r.sampler);
	sp = NULL;
	if (rr_rec_trace_off(&s) && !ret)
		ret = RR_EXIT_FAILURE;
	if (ret)
		goto out;
	rr_rec_read_loss(&s, &r.loss);

	ret = rr_rec_extract(&s, o->path);
	if (ret)
		goto out;
	/* The buffer is in the file: give the memory back before reading it. */
	rr_rec_session_close(&s);

	if (o->ground_truth) {
		snprintf(gt_path, sizeof(gt_path), "%s.ground-truth.json", o->path);
		if (!gt_before || !gt_after)
			ret = rr_fail(RR_EXIT_FAILURE, "cannot write '%s': /proc/vmstat unreadable",
				      gt_path);
		else
			ret = rr_gt_write(gt_path, gt_before, gt_after);
		if (ret)
			goto out;
	}
	ret = verify(o->path, &r);
	if (ret)
		goto out;
	report_loss(o, &r);
	print_summary(cli, o, &r);
	if (workload_failed(&r)) {
		if (WIFEXITED(r.status))
			ret = rr_fail(RR_EXIT_FAILURE, "record: '%s' exited with status %d (the "
				      "trace was written)", o->argv[0], WEXITSTATUS(r.status));
		else
			ret = rr_fail(RR_EXIT_FAILURE, "record: '%s' was killed by signal %d (the "
				      "trace was written)", o->argv[0], WTERMSIG(r.status));
	} else if (!r.have_status && o->argv) {
		ret = rr_fail(RR_EXIT_FAILURE, "record: lost track of '%s'", o->argv[0]);
	} else if (cli->strict && lossy(&r)) {
		ret = rr_fail(RR_EXIT_DATA_LOSS, "record: '%s' lost events (--strict)", o->path);
	}
out:
	rr_sampler_stop(sp, NULL);
	rr_rec_session_close(&s);
	rr_gt_snapshot_free(gt_before);
	rr_gt_snapshot_free(gt_after);
	json_decref(r.missing);
	if (ret == RR_EXIT_OK && rr_rec_stop && !r.wall_ns)
		ret = rr_fail(RR_EXIT_FAILURE, "record: interrupted before recording started");
	return ret;
}

int cmd_record(int argc, char **argv, struct rr_cli *cli)
{
	struct record_opts o = { 0 };
	int ret;

	ret = parse_args(argc, argv, cli, &o);
	if (ret < 0)
		return RR_EXIT_OK;	/* --help */
	if (ret)
		return ret;
	ret = rr_cli_open_output(cli);
	if (ret)
		return ret;
	return record(cli, &o);
}
