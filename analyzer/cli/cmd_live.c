// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim-replay live: rolling per-node reclaim figures from a private
 * tracing instance, redrawn in place on a terminal or one JSON object per
 * line otherwise, until Ctrl-C; the instance is removed on the way out.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "recorder/recorder.h"
#include "reclaim_replay/error.h"

static void live_usage(FILE *f)
{
	fprintf(f, "usage: reclaim-replay live [--interval 1s] [--json] [options]\n\n"
		"Streams the recorder's events from a private tracing instance and prints,\n"
		"every interval and per NUMA node: reclaim stall (direct, memcg, soft-limit and\n"
		"node reclaim begin/end pairs, counted in the interval the episode ends),\n"
		"episodes, throttles per reason (count / ms delayed), pages scanned and\n"
		"reclaimed and their ratio. Needs root and tracefs; Ctrl-C stops.\n\n"
		"  -i, --interval T      200ms, 1s, 2.5 (seconds); at least 50ms (default 1s)\n"
		"  -j, --json            one JSON object per line\n"
		"      --buffer-kb N     ring buffer per cpu in KiB (default 8192)\n"
		"      --instance NAME   tracing instance name (default reclaim-replay-live-PID)\n"
		"  -h, --help            this help\n\n"
		"Exit: 0 stopped by Ctrl-C, 1 failure, 2 usage, 6 no root or no tracefs.\n");
}

/* "200ms", "1s", "1.5" (seconds) -> ns; 0 on error. */
static uint64_t parse_interval(const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || !(v > 0))
		return 0;
	if (!strcmp(end, "ms"))
		v /= 1e3;
	else if (strcmp(end, "s") && *end)
		return 0;
	if (v < 0.05 || v > 3600)
		return 0;
	return (uint64_t)(v * 1e9);
}

int cmd_live(int argc, char **argv, struct rr_cli *cli)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "buffer-kb", required_argument, NULL, 2000 },
		{ "instance", required_argument, NULL, 2002 },
		RR_CLI_COMMON_LONG,
		{ 0 }
	};
	struct rr_live_opts o = { .interval_ns = 1000000000ull, .buffer_kb = 8192 };
	unsigned long v;
	char *end;
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "i:" RR_CLI_COMMON_SHORT, longopts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			o.interval_ns = parse_interval(optarg);
			if (!o.interval_ns)
				return rr_fail(RR_EXIT_USAGE, "live: --interval wants 50ms..3600s "
					       "(e.g. 200ms, 1s), not '%s'", optarg);
			break;
		case 2000:
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 64 || v > (64UL << 20))
				return rr_fail(RR_EXIT_USAGE, "live: --buffer-kb wants 64.. KiB, "
					       "not '%s'", optarg);
			o.buffer_kb = v;
			break;
		case 2002:
			if (!*optarg || strchr(optarg, '/') || strlen(optarg) > 60 ||
			    optarg[0] == '.')
				return rr_fail(RR_EXIT_USAGE, "live: --instance wants a plain name, "
					       "not '%s'", optarg);
			o.instance = optarg;
			break;
		case 'h':
			live_usage(stdout);
			return RR_EXIT_OK;
		default:
			if (!rr_cli_common_option(cli, opt, optarg)) {
				live_usage(stderr);
				return RR_EXIT_USAGE;
			}
		}
	}
	if (optind < argc) {
		rr_error("live: unexpected argument '%s'", argv[optind]);
		live_usage(stderr);
		return RR_EXIT_USAGE;
	}
	ret = rr_cli_open_output(cli);
	if (ret)
		return ret;
	ret = rr_rec_check_tracing("live");
	if (ret)
		return ret;
	rr_rec_signals_install();
	o.json = cli->json;
	o.out = cli->out;
	/* Redraw in place only on a terminal; a file or pipe gets every frame. */
	o.redraw = !o.json && isatty(fileno(cli->out));
	return rr_live_run(&o);
}
