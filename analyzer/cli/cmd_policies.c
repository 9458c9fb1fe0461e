// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim-replay policies [--policy PLUGIN.so ...]: the built-in policies
 * and any plugins named, each with its summary, help and --set options.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "reclaim_replay/error.h"
#include "reclaim_replay/replay.h"
#include "replay/plugin.h"
#include "replay/policies.h"

#define MAX_PLUGINS 32
#define WIDTH 100
#define INDENT 6

static void usage(FILE *f)
{
	fprintf(f, "usage: reclaim-replay policies [--policy PLUGIN.so]... [options]\n\n"
		"Lists the built-in throttle policies, then each plugin given with --policy\n"
		"(loaded and checked, not started), with their help and --set options. A\n"
		"plugin's options are set as --set NAME.KEY=VALUE after its --policy, or as\n"
		"--policy PLUGIN.so:KEY=VALUE,... (docs/plugins.md).\n\n"
		"  -P, --policy PATH   a plugin to load and list (repeatable)\n" RR_HELP_COMMON);
}

/* @text wrapped at WIDTH columns, each line indented by @indent. */
static void print_wrapped(FILE *out, const char *text, int indent)
{
	while (*text) {
		size_t room = (size_t)(WIDTH - indent), n = strlen(text);

		if (n > room) {
			n = room;
			while (n && text[n] != ' ')
				n--;
			if (!n)
				n = room;
		}
		fprintf(out, "%*s%.*s\n", indent, "", (int)n, text);
		text += n;
		while (*text == ' ')
			text++;
	}
}

static void print_table(FILE *out, const struct rr_policy_ops *ops)
{
	const char *path = rr_plugin_path(ops);
	const struct rr_policy_option *o = rr_policy_options(ops);

	fprintf(out, "  %-16s %s\n", ops->name, ops->summary ? ops->summary : "");
	if (path)
		fprintf(out, "%*splugin %s\n", INDENT, "", path);
	print_wrapped(out, rr_policy_help(ops), INDENT);
	for (; o->key; o++) {
		/* a plugin's options are spelt as they are given: NAME.KEY */
		fprintf(out, "%*s--set %s%s%s=%s", INDENT, "", path ? ops->name : "",
			path ? "." : "", o->key, o->type ? o->type : "VALUE");
		if (o->def)
			fprintf(out, " (default %s)", o->def);
		fputc('\n', out);
		print_wrapped(out, o->help ? o->help : "", INDENT + 4);
	}
}

static json_t *policy_json(const struct rr_policy_ops *ops)
{
	const char *path = rr_plugin_path(ops);
	json_t *opts = json_array(), *p;

	for (const struct rr_policy_option *o = rr_policy_options(ops); o->key; o++)
		json_array_append_new(opts, json_pack("{s:s,s:s?,s:s?,s:s?}", "key", o->key,
						      "type", o->type, "default", o->def,
						      "help", o->help));
	p = json_pack("{s:s,s:s,s:s,s:s,s:o}", "name", ops->name,
		      "summary", ops->summary ? ops->summary : "",
		      "kind", path ? "plugin" : "builtin", "help", rr_policy_help(ops),
		      "options", opts);
	if (path)
		json_object_set_new(p, "path", json_string(path));
	return p;
}

static void list_builtin(const struct rr_policy_ops *ops, void *data)
{
	struct rr_cli *cli = data;

	if (cli->json)
		json_array_append_new((json_t *)cli->user, policy_json(ops));
	else
		print_table(cli->out, ops);
}

int cmd_policies(int argc, char **argv, struct rr_cli *cli)
{
	static const struct option longopts[] = {
		RR_CLI_COMMON_LONG,
		{ "policy", required_argument, NULL, 'P' },
		{ 0 },
	};
	const struct rr_policy_ops *plugin[MAX_PLUGINS];
	int opt, ret = 0, nr = 0;
	json_t *doc = NULL;

	optind = 1;
	while ((opt = getopt_long(argc, argv, RR_CLI_COMMON_SHORT "P:", longopts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			goto out;
		}
		if (opt == 'P') {
			if (nr == MAX_PLUGINS) {
				ret = rr_fail(RR_EXIT_USAGE, "policies: at most %d plugins",
					      MAX_PLUGINS);
				goto out;
			}
			if (!rr_plugin_is_spec(optarg)) {
				/* a built-in is listed anyway; only a plugin must load */
				if (rr_policy_find(optarg))
					continue;
				ret = rr_fail(RR_EXIT_USAGE, "unknown policy '%s' (a plugin is a "
					      "path: ./%s.so)", optarg, optarg);
				goto out;
			}
			ret = rr_plugin_load(optarg, &plugin[nr]);
			if (ret)
				goto out;
			nr++;
			continue;
		}
		if (!rr_cli_common_option(cli, opt, optarg)) {
			usage(stderr);
			ret = RR_EXIT_USAGE;
			goto out;
		}
	}
	if (optind < argc) {
		ret = rr_fail(RR_EXIT_USAGE, "policies: unexpected argument '%s'", argv[optind]);
		goto out;
	}
	ret = rr_cli_open_output(cli);
	if (ret)
		goto out;
	if (cli->json) {
		doc = rr_json_report_new("policies", NULL, 0, NULL);
		cli->user = json_array();
	}
	rr_policy_list(list_builtin, cli);
	for (int i = 0; i < nr; i++)
		list_builtin(plugin[i], cli);
	if (cli->json) {
		json_object_set_new(doc, "results", (json_t *)cli->user);
		rr_json_print(doc, cli->out, cli->pretty);
		json_decref(doc);
	}
out:
	for (int i = 0; i < nr; i++)
		rr_plugin_put(plugin[i]);
	return ret;
}
