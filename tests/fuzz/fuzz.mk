# SPDX-License-Identifier: GPL-2.0
# `make fuzz`: the libFuzzer target (clang), run for FUZZ_SECONDS on a corpus
# seeded from the bundled traces and the generator's scenarios.
# `make check` replays tests/fuzz/corpus/ through onefile.c (any compiler).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BIN := $(O)/fuzz/fuzz_load
ONEFILE_BIN := $(O)/fuzz/onefile

$(FUZZ_BIN): tests/fuzz/fuzz_load.c $(LIB_SRCS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined \
		$(PKG_CFLAGS) -o $@ tests/fuzz/fuzz_load.c $(LIB_SRCS) $(LDLIBS)

$(ONEFILE_BIN): tests/fuzz/onefile.c tests/fuzz/fuzz_load.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/onefile.c tests/fuzz/fuzz_load.c \
		$(LIB) $(LDLIBS)

fuzz: $(FUZZ_BIN)
	@mkdir -p $(O)/fuzz/corpus
	cp -n tests/fuzz/corpus/* $(O)/fuzz/corpus/ 2>/dev/null || true
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp $(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -rss_limit_mb=2048 \
		$(O)/fuzz/corpus
