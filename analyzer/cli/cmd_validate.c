// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim-replay validate TRACE... [--manifest M.json]: identity, fidelity,
 * properties and ground truth, ending with one summary line.
 */
#include <errno.h>
#include <getopt.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/validate.h"
#include "validate_manifest.h"

static void validate_usage(FILE *f)
{
	fprintf(f, "usage: reclaim-replay validate [options] TRACE... [--manifest M.json]...\n\n"
		"Checks the replay model on each recording: `recorded` reproduces stats\n"
		"exactly (identity); `mainline` predicts each recorded throttle within\n"
		"max(1 jiffy, 10%%) (fidelity, per node and reason); `none`, `legacy-broken`\n"
		"and `parametric` keep their properties; with a manifest, the trace's sums\n"
		"against vmstat and PSI. Manifests pair with traces in order; by default\n"
		"TRACE's NAME.manifest.json is used when it exists. A manifest whose\n"
		"trace_file_bytes or trace_file_sha256 differ from its TRACE is refused (exit 4).\n"
		"Exit 5 when identity or a property fails.\n\n"
		"  -m, --manifest FILE ground truth for the next TRACE\n"
		"      --no-manifest   do not look for NAME.manifest.json\n" RR_HELP_COMMON);
}

static char *default_manifest(const char *trace)
{
	const char *dot = strrchr(trace, '.');
	size_t len = dot && !strchr(dot, '/') ? (size_t)(dot - trace) : strlen(trace);
	char *m = malloc(len + sizeof(".manifest.json"));
	FILE *f;

	if (!m)
		return NULL;
	memcpy(m, trace, len);
	strcpy(m + len, ".manifest.json");
	f = fopen(m, "r");
	if (!f) {
		free(m);
		return NULL;
	}
	fclose(f);
	return m;
}

int cmd_validate(int argc, char **argv, struct rr_cli *cli)
{
	static const struct option longopts[] = {
		RR_CLI_COMMON_LONG,
		{ "manifest", required_argument, NULL, 'm' },
		{ "no-manifest", no_argument, NULL, 'N' },
		{ 0 },
	};
	const char *manifests[64];
	int nr_manifests = 0, no_manifest = 0, opt, ret, props_failed = 0;
	uint64_t within = 0, throttles = 0, identity = 0;
	double worst = 0;
	struct rr_inputs ins;
	json_t *doc = NULL, *results = NULL;

	optind = 1;
	while ((opt = getopt_long(argc, argv, RR_CLI_COMMON_SHORT "m:", longopts, NULL)) != -1) {
		if (opt == 'h') {
			validate_usage(stdout);
			return RR_EXIT_OK;
		}
		if (opt == 'm') {
			if (nr_manifests == 64)
				return rr_fail(RR_EXIT_USAGE, "validate: at most 64 manifests");
			manifests[nr_manifests++] = optarg;
			continue;
		}
		if (opt == 'N') {
			no_manifest = 1;
			continue;
		}
		if (!rr_cli_common_option(cli, opt, optarg)) {
			validate_usage(stderr);
			return RR_EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return rr_fail(RR_EXIT_USAGE, "validate: no TRACE given");
	ret = rr_cli_open_output(cli);
	if (ret)
		return ret;
	ret = rr_inputs_load(&ins, argv + optind, argc - optind);
	if (ret)
		goto out;
	if (cli->json) {
		doc = rr_json_report_new("validate", ins.in, ins.nr, &ins.warnings);
		results = json_array();
	}
	for (int i = 0; i < ins.nr && !ret; i++) {
		struct rr_validation v;
		char *found = NULL;
		const char *man = i < nr_manifests ? manifests[i] : NULL;

		if (!man && !no_manifest)
			man = found = default_manifest(ins.in[i].trace->path);
		/* given or found beside the trace: either way it must be this trace's */
		if (man && (ret = rr_validate_manifest_match(man, ins.in[i].trace->path))) {
			free(found);
			break;
		}
		if ((ret = rr_validate(ins.in[i].model, man, &v))) {
			if (ret == -EBADMSG)
				ret = rr_fail(RR_EXIT_BAD_INPUT, "cannot read manifest '%s': %s", man,
					      access(man, R_OK) ? strerror(errno) :
					      "not JSON with a ground_truth.vmstat_delta_selected block");
			else
				ret = rr_fail(RR_EXIT_FAILURE, "'%s': cannot validate: %s",
					      ins.in[i].trace->path, strerror(-ret));
			free(found);
			break;
		}
		within += v.within;
		throttles += v.throttles;
		identity += v.identity_error;
		if (v.worst_total_error > worst)
			worst = v.worst_total_error;
		for (int k = 0; k < RR_NR_PROPERTIES; k++)
			props_failed |= !v.props[k].ok;
		if (cli->json) {
			json_t *r = rr_validation_json(&v, &ins.in[i]);

			json_object_set_new(r, "input", json_integer(i));
			json_object_set_new(r, "manifest", man ? json_string(man) : json_null());
			json_array_append_new(results, r);
		} else {
			rr_validation_print(cli->out, &v, &ins.in[i], cli->color);
		}
		rr_validation_release(&v);
		free(found);
	}
	if (!ret) {
		char line[160];

		snprintf(line, sizeof(line), "fidelity: within-tolerance=%.1f%% total-time-error=%.1f%% "
			 "identity-error=%llu properties=%s",
			 throttles ? 100.0 * (double)within / (double)throttles : 100.0,
			 100.0 * worst, (unsigned long long)identity,
			 props_failed ? "FAILED" : "ok");
		if (cli->json) {
			json_object_set_new(doc, "results", results);
			json_object_set_new(doc, "summary", json_string(line));
			rr_json_print(doc, cli->out, cli->pretty);
		} else {
			rr_warnings_print(cli->out, &ins.warnings);
			fprintf(cli->out, "\n%s\n", line);
		}
		/* a failed check says more than a lossy input, so 5 wins over 3 */
		if (identity || props_failed)
			ret = RR_EXIT_CHECK_FAILED;
		else if (cli->strict && rr_inputs_lossy(&ins))
			ret = rr_fail(RR_EXIT_DATA_LOSS, "the recording lost events (--strict)");
	} else {
		json_decref(results);	/* never attached to @doc */
	}
	json_decref(doc);
out:
	rr_inputs_release(&ins);
	return ret;
}
