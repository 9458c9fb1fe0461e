// SPDX-License-Identifier: GPL-2.0
/*
 * Replays fuzz inputs without libFuzzer (gcc, any sanitizer): each argument
 * is a file fed once to LLVMFuzzerTestOneInput. Prints TAP.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		long len;

		if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
		    !(buf = malloc((size_t)len + 1)) || fread(buf, 1, (size_t)len, f) != (size_t)len) {
			printf("not ok %d - cannot read %s\n", i, argv[i]);
			if (f)
				fclose(f);
			free(buf);
			continue;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)len);
		free(buf);
		printf("ok %d - %s replayed\n", i, argv[i]);
	}
	printf("1..%d\n", argc - 1);
	return 0;
}
