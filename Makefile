# SPDX-License-Identifier: GPL-2.0
# reclaim-replay: replay reclaim traces under throttle policies.
#
#   make              build build/reclaim-replay
#   make check        unit, cli and trace tests (tests/run-tests.sh)
#   make demo         stats on a bundled real trace
#   make bench        speed and memory against baselines measured in the same run
#   make fuzz         the libFuzzer targets (clang); make fuzz-ci runs each FUZZ_SECONDS
#   make install      PREFIX=/usr/local DESTDIR=
#   make SANITIZE=1   ASan + UBSan build (in build-san/ unless O= is given)
#   make WERROR=1     warnings are errors

VERSION := 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := libtracecmd libtraceevent libtracefs jansson

ifeq ($(SANITIZE),1)
O ?= build-san
else
O ?= build
endif

PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)

WARNINGS := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-unused-parameter
CFLAGS ?= -O2 -g
CPPFLAGS += -D_GNU_SOURCE -DRR_VERSION='"$(VERSION)"' -Iinclude -Iparsers -Ianalyzer
ALL_CFLAGS := -std=gnu11 $(WARNINGS) $(CFLAGS) $(PKG_CFLAGS) $(EXTRA_CFLAGS) -MMD -MP
LDLIBS += $(PKG_LIBS) -lm -lpthread -ldl
ifeq ($(WERROR),1)
ALL_CFLAGS += -Werror
endif
ifeq ($(SANITIZE),1)
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

LIB_SRCS := $(wildcard parsers/*.c) $(wildcard analyzer/*.c) $(wildcard analyzer/report/*.c) \
	$(wildcard analyzer/recorder/*.c) $(wildcard analyzer/replay/*.c) \
	$(wildcard analyzer/policies/*.c) $(wildcard analyzer/sweep/*.c)
CLI_SRCS := $(wildcard analyzer/cli/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(O)/%.o)
BIN := $(O)/reclaim-replay
LIB := $(O)/libreclaimreplay.a

UNIT_SRCS := $(wildcard tests/unit/*_test.c)
UNIT_BINS := $(UNIT_SRCS:%.c=$(O)/%)

.DELETE_ON_ERROR:
.PHONY: all check demo demo-run bench install clean deps unit fuzz

all: $(BIN)

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(CLI_OBJS) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(LDLIBS)

$(O)/tests/unit/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/unit $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(LDLIBS)

-include tests/gen/gen.mk
-include tests/bench/bench.mk
-include tests/fuzz/fuzz.mk
-include plugins/plugins.mk

unit: $(UNIT_BINS)

check: $(BIN) $(UNIT_BINS) $(GEN_BIN) $(ONEFILE_BIN) $(INGEST_DIGEST)
	O=$(O) RR_BIN=$(abspath $(BIN)) ./tests/run-tests.sh

# The first command of the README: install what is missing, build, and run
# the main job on bundled real traces.
demo:
	./scripts/install-deps.sh
	$(MAKE) demo-run

demo-run: $(BIN)
	$(BIN) stats traces/counters-writer.dat
	$(BIN) replay traces/isolated-noswap-a.dat -P none -P legacy-broken -P mainline
	$(BIN) validate traces/counters-writer.dat traces/isolated-noswap-a.dat

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/reclaim-replay
	install -m 0644 docs/reclaim-replay.1 $(DESTDIR)$(PREFIX)/share/man/man1/reclaim-replay.1
	install -d $(DESTDIR)$(PREFIX)/include/reclaim_replay $(DESTDIR)$(PREFIX)/share/pkgconfig
	install -m 0644 include/reclaim_replay/policy.h $(DESTDIR)$(PREFIX)/include/reclaim_replay/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' plugins/reclaim-replay.pc.in \
		>$(DESTDIR)$(PREFIX)/share/pkgconfig/reclaim-replay.pc

deps:
	./scripts/install-deps.sh

clean:
	rm -rf build build-san $(O)

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d)
