// SPDX-License-Identifier: GPL-2.0
/*
 * Pairing a manifest with its trace (docs/model.md section 6): the size
 * first, since it costs a stat(), then the SHA-256 of the whole file.
 */
#include <inttypes.h>
#include <jansson.h>
#include <strings.h>
#include <sys/stat.h>

#include "reclaim_replay/error.h"
#include "report/sha256.h"
#include "validate_manifest.h"

int rr_validate_manifest_match(const char *manifest, const char *trace)
{
	json_t *doc = json_load_file(manifest, 0, NULL), *jb, *js, *hash = NULL;
	const char *want_sha, *got_sha;
	struct stat st;
	int ret = 0;

	if (!doc)
		return 0;
	jb = json_object_get(doc, "trace_file_bytes");
	js = json_object_get(doc, "trace_file_sha256");
	want_sha = json_string_value(js);
	if (!json_is_integer(jb) && !want_sha) {
		rr_warn("manifest '%s' has no trace_file_bytes or trace_file_sha256: "
			"cannot tell whether it belongs to '%s'", manifest, trace);
		goto out;
	}
	/* a pipe or device has no size to compare, and hashing it would eat it */
	if (stat(trace, &st) || !S_ISREG(st.st_mode)) {
		rr_warn("'%s' is not a regular file: manifest '%s' could not be matched to it",
			trace, manifest);
		goto out;
	}
	if (json_is_integer(jb) && json_integer_value(jb) != (json_int_t)st.st_size) {
		ret = rr_fail(RR_EXIT_BAD_INPUT, "manifest '%s' is not of trace '%s': "
			      "trace_file_bytes %" JSON_INTEGER_FORMAT ", the trace has %jd bytes",
			      manifest, trace, json_integer_value(jb), (intmax_t)st.st_size);
		goto out;
	}
	if (!want_sha) {
		rr_warn("manifest '%s' has no trace_file_sha256: only the size of '%s' was matched",
			manifest, trace);
		goto out;
	}
	hash = rr_json_sha256(trace);
	got_sha = json_string_value(hash);
	if (!got_sha) {
		rr_warn("cannot hash '%s': manifest '%s' could not be matched to it", trace, manifest);
	} else if (strcasecmp(got_sha, want_sha)) {
		ret = rr_fail(RR_EXIT_BAD_INPUT, "manifest '%s' is not of trace '%s': "
			      "trace_file_sha256 %.12s..., the trace's is %.12s...",
			      manifest, trace, want_sha, got_sha);
	}
out:
	json_decref(hash);
	json_decref(doc);
	return ret;
}
