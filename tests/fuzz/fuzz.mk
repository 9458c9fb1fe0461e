# SPDX-License-Identifier: GPL-2.0
# libFuzzer targets (clang), one per input surface:
#   fuzz_load      any bytes through rr_trace_load(): trace.dat pre-check + reader, text
#   fuzz_text      any bytes straight into the ftrace text reader
#   fuzz_counters  rr-counters / rr-meta marker lines (the counter-sample parser)
#   fuzz_options   -P policy names, --set settings, durations, then a replay
#
#   make fuzz                 build them all (in $(O)/fuzz/)
#   make fuzz-ci              run each for FUZZ_SECONDS (default 60) on its seed corpus
#                             (FUZZ_RUNS=N: at most N executions each)
#   make fuzz-run-text FUZZ_SECONDS=600    one target, longer
#
# Seeds: tests/fuzz/corpus/ (load; also replayed by `make check` through
# onefile.c) and tests/fuzz/corpus-<target>/; a run adds what it learns to a
# copy in $(O)/fuzz/corpus-<target>/, never to the repository. A crash file
# goes to $(O)/fuzz/crash-*; copy it into the target's corpus directory to
# make it a regression test (docs/robustness.md).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
# extra libFuzzer flags, e.g. -seed=1 (CI: the same inputs in the same order every run)
FUZZ_FLAGS ?=
# a fixed number of executions per target (libFuzzer -runs): with a fixed
# seed, CI then tries the inputs a local run of the same command tried,
# whatever the machine's speed; FUZZ_SECONDS stays the upper bound
FUZZ_RUNS ?=
FUZZ_TARGETS := load text counters options
FUZZ_BINS := $(FUZZ_TARGETS:%=$(O)/fuzz/fuzz_%)
# FUZZ_EXTRA_CFLAGS: e.g. -fno-sanitize=... to fuzz past a known, reported bug
FUZZ_CFLAGS := -std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	$(FUZZ_EXTRA_CFLAGS) -fno-sanitize-recover=undefined
FUZZ_OBJS := $(LIB_SRCS:%.c=$(O)/fuzz/obj/%.o)
FUZZ_COMMON := tests/fuzz/fuzz_common.c
# gcc replays of each target's corpus for `make check` (no libFuzzer needed)
ONEFILE_BIN := $(O)/fuzz/onefile $(FUZZ_TARGETS:%=$(O)/fuzz/onefile-%)
SECTIONS_BIN := $(O)/fuzz/rr-sections

# keep the instrumented objects between builds
.SECONDARY: $(FUZZ_OBJS)

.PHONY: fuzz fuzz-ci $(FUZZ_TARGETS:%=fuzz-run-%)

$(O)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(PKG_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_COMMON) tests/fuzz/fuzz_common.h $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) -Itests/fuzz $(FUZZ_CFLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) -o $@ \
		$< $(FUZZ_COMMON) $(FUZZ_OBJS) $(LDLIBS)

$(O)/fuzz/onefile-%: tests/fuzz/onefile.c tests/fuzz/fuzz_%.c $(FUZZ_COMMON) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/fuzz $(ALL_CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/onefile.c \
		tests/fuzz/fuzz_$*.c $(FUZZ_COMMON) $(LIB) $(LDLIBS)

# the historical name, still what tests/run-tests.sh replays tests/fuzz/corpus/ with
$(O)/fuzz/onefile: $(O)/fuzz/onefile-load
	cp $< $@

$(SECTIONS_BIN): tests/fuzz/sections.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# the corruption matrix (tests/cli/t0900-corruption.sh) reads section maps
check: $(SECTIONS_BIN)

fuzz: $(FUZZ_BINS)

fuzz-corpus-dir = $(if $(filter load,$(1)),tests/fuzz/corpus,tests/fuzz/corpus-$(1))

$(FUZZ_TARGETS:%=fuzz-run-%): fuzz-run-%: $(O)/fuzz/fuzz_%
	@mkdir -p $(O)/fuzz/corpus-$*
	cp -n $(call fuzz-corpus-dir,$*)/* $(O)/fuzz/corpus-$*/ 2>/dev/null || true
	tests/fuzz/run-target.sh $(O)/fuzz/fuzz_$* $(O)/fuzz/corpus-$* $(O)/fuzz/fuzz-$*.log \
		$(FUZZ_SECONDS) $(FUZZ_FLAGS) $(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS))

# CI: every target for FUZZ_SECONDS; fails on the first crash, leak or timeout.
# Then the loader once more with two reading threads: inputs this small are
# otherwise read by one (parsers/tracedat_plan.c), and large user files are not.
fuzz-ci: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do $(MAKE) --no-print-directory fuzz-run-$$t || exit 1; done
	RR_READ_THREADS=2 $(MAKE) --no-print-directory fuzz-run-load

-include $(FUZZ_OBJS:.o=.d)
