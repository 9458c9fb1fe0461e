// SPDX-License-Identifier: GPL-2.0
/*
 * rr-sections FILE: the trace.dat section map of the pre-check
 * (parsers/precheck.c), one "OFFSET SIZE WHAT" line a section, for the
 * corruption matrix (tests/cli/t0900-corruption.sh) to cut and damage files
 * at real boundaries. A header line "# vN endian=E long=L page=P comp=C size=S".
 * Exit 0, or 4 with the pre-check's message when the structure is unsound.
 */
#include <inttypes.h>
#include <stdio.h>

#include "precheck.h"

int main(int argc, char **argv)
{
	struct rr_section_map map;
	char err[256];
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: rr-sections TRACE.dat\n");
		return 2;
	}
	ret = rr_precheck_tracedat(argv[1], &map, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "rr-sections: '%s': corrupt trace.dat: %s\n", argv[1], err);
		rr_section_map_release(&map);
		return 4;
	}
	printf("# v%d endian=%s long=%d page=%u comp=%s size=%" PRIu64 "\n", map.version,
	       map.big_endian ? "big" : "little", map.long_size, map.page_size, map.compression,
	       map.file_size);
	for (size_t i = 0; i < map.nr; i++)
		printf("%" PRIu64 " %" PRIu64 " %s\n", map.sec[i].offset, map.sec[i].size,
		       map.sec[i].what);
	rr_section_map_release(&map);
	return 0;
}
