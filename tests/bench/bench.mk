# SPDX-License-Identifier: GPL-2.0
# `make bench`: ratios against baselines measured in the same run.
BARE_LOOP := $(O)/bare-loop

$(BARE_LOOP): tests/bench/bare_loop.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

bench: $(BIN) $(BARE_LOOP) $(GEN_BIN)
	O=$(O) RR_BIN=$(abspath $(BIN)) RR_GEN=$(abspath $(GEN_BIN)) \
		BARE_LOOP=$(abspath $(BARE_LOOP)) ./tests/bench/bench.sh
