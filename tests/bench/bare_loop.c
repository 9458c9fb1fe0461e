// SPDX-License-Identifier: GPL-2.0
/*
 * The baseline of `make bench`: the least a libtracecmd reader can do, open
 * the file and iterate every record of every cpu and instance in time
 * order, reading only each record's event type. reclaim-replay's ingest is
 * measured against this loop on the same file in the same run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <trace-cmd/trace-cmd.h>

struct counts {
	struct tep_handle *tep;
	unsigned long long records;
	unsigned long long type_sum;
};

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct counts *c = data;

	(void)h;
	(void)cpu;
	c->records++;
	c->type_sum += (unsigned)tep_data_type(c->tep, rec);
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *handles[64];
	struct counts c = { 0 };
	int n = 1, inst;

	if (argc != 2) {
		fprintf(stderr, "usage: bare-loop TRACE.dat\n");
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	handles[0] = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handles[0]) {
		fprintf(stderr, "bare-loop: cannot open '%s'\n", argv[1]);
		return 1;
	}
	inst = tracecmd_buffer_instances(handles[0]);
	for (int i = 0; i < inst && n < 64; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(handles[0], i);

		if (h)
			handles[n++] = h;
	}
	c.tep = tracecmd_get_tep(handles[0]);
	tracecmd_iterate_events_multi(handles, n, on_record, &c);
	printf("%llu records (type checksum %llu)\n", c.records, c.type_sum);
	for (int i = n - 1; i >= 0; i--)
		tracecmd_close(handles[i]);
	return 0;
}
