# SPDX-License-Identifier: GPL-2.0
# `make bench`: ratios against baselines measured in the same run
# (tests/bench/bench.sh, docs/performance.md).
BARE_LOOP := $(O)/bare-loop
REPLAY_BENCH := $(O)/replay-bench

$(BARE_LOOP): tests/bench/bare_loop.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

# Digests of everything a load makes observable: the ingest identity check
# and t0320 (parallel reading equals the one-thread reader) compare them.
INGEST_DIGEST := $(O)/ingest-identity
$(INGEST_DIGEST): tests/bench/ingest_identity.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

$(REPLAY_BENCH): tests/bench/replay_bench.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

bench: $(BIN) $(BARE_LOOP) $(REPLAY_BENCH) $(GEN_BIN)
	O=$(O) RR_BIN=$(abspath $(BIN)) RR_GEN=$(abspath $(GEN_BIN)) \
		BARE_LOOP=$(abspath $(BARE_LOOP)) REPLAY_BENCH=$(abspath $(REPLAY_BENCH)) \
		./tests/bench/bench.sh
	O=$(O) RR_BIN=$(abspath $(BIN)) ./tests/bench/sweep_bench.sh
