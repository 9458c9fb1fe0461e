// SPDX-License-Identifier: GPL-2.0
/* Options every command shares, and checked output (a truncated report must not exit 0). */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/memlimit.h"
#include "report/input_hash.h"

int rr_cli_common_option(struct rr_cli *cli, int opt, const char *arg)
{
	switch (opt) {
	case 'p':
		cli->pretty = 1;
		/* pretty implies JSON, as in bpftool */
		__attribute__((fallthrough));
	case 'j':
		cli->json = 1;
		/* the report's inputs[].sha256 is then hashed while loading */
		rr_input_hash_want();
		return 1;
	case 'o':
		cli->output = arg;
		return 1;
	case 'q':
		cli->quiet = 1;
		return 1;
	case 1000:
		cli->color = 0;
		return 1;
	case 1001:
		cli->color = 1;
		return 1;
	case 1002:
		cli->strict = 1;
		return 1;
	case 1003: {
		uint64_t bytes;

		/* 0 makes the caller print the usage and exit 2 */
		if (rr_parse_size(arg, &bytes)) {
			rr_error("bad --max-memory '%s' (a size such as 512M or 2G, at least 1M)",
				 arg);
			return 0;
		}
		rr_mem_set_limit(bytes);
		return 1;
	}
	default:
		return 0;
	}
}

int rr_cli_open_output(struct rr_cli *cli)
{
	if (!cli->output || !strcmp(cli->output, "-")) {
		cli->out = stdout;
		return 0;
	}
	cli->out = fopen(cli->output, "w");
	if (!cli->out) {
		cli->out = stdout;
		return rr_fail(RR_EXIT_FAILURE, "cannot write '%s': %s", cli->output,
			       strerror(errno));
	}
	cli->color = 0;
	return 0;
}

int rr_cli_finish_output(struct rr_cli *cli, int code)
{
	FILE *f = cli->out ? cli->out : stdout;
	const char *name = cli->output ? cli->output : "standard output";

	if (fflush(f) || ferror(f)) {
		rr_error("cannot write '%s': %s", name, strerror(errno ? errno : EIO));
		return RR_EXIT_FAILURE;
	}
	if (f != stdout && fclose(f)) {
		rr_error("cannot write '%s': %s", name, strerror(errno));
		return RR_EXIT_FAILURE;
	}
	cli->out = NULL;
	return code;
}

void rr_cli_json_error(struct rr_cli *cli, const char *msg)
{
	json_t *doc;

	if (!cli->json)
		return;
	doc = json_pack("{s:s}", "error", msg);
	rr_json_print(doc, cli->out ? cli->out : stdout, cli->pretty);
	json_decref(doc);
}
