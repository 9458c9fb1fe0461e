# SPDX-License-Identifier: GPL-2.0
# rr-gen: trace.dat v6 generator for tests (tests/gen/README.md).
# Included by the top-level Makefile; O, CC and CFLAGS come from there.
# Links only libc, and never with the sanitizers: it is a test tool that
# leaves its memory to exit, not the product under test.

GEN_BIN := $(O)/rr-gen
GEN_SRCS := tests/gen/rr-gen.c tests/gen/rr-gen-format.c tests/gen/rr-gen-writer.c \
	tests/gen/rr-gen-expect.c tests/gen/rr-gen-scn.c tests/gen/rr-gen-run.c \
	tests/gen/rr-gen-scale.c
GEN_HDRS := tests/gen/rr-gen.h tests/gen/formats.h

$(GEN_BIN): $(GEN_SRCS) $(GEN_HDRS)
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WARNINGS) $(CFLAGS) $(EXTRA_CFLAGS) -o $@ $(GEN_SRCS)

.PHONY: gen-check
gen-check: $(GEN_BIN)
	sh tests/gen/check.sh $(GEN_BIN)
