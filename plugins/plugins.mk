# SPDX-License-Identifier: GPL-2.0
# Policy plugins (docs/plugins.md): $(O)/plugins/NAME.so from plugins/NAME.c,
# and the test-only broken plugins of tests/plugins/ for t0700-plugins.sh.
# They see include/ only, as a plugin built out of tree would.

PLUGIN_CFLAGS := -std=gnu11 $(WARNINGS) $(CFLAGS) $(EXTRA_CFLAGS) -fPIC -Iinclude
ifeq ($(WERROR),1)
PLUGIN_CFLAGS += -Werror
endif
ifeq ($(SANITIZE),1)
PLUGIN_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer
endif

PLUGIN_SOS := $(patsubst %.c,$(O)/%.so,$(wildcard plugins/*.c))
TEST_PLUGIN_SOS := $(patsubst %.c,$(O)/%.so,$(wildcard tests/plugins/*.c))

.PHONY: plugins
plugins: $(PLUGIN_SOS) $(TEST_PLUGIN_SOS)
all: plugins
check: plugins

$(O)/plugins/%.so: plugins/%.c include/reclaim_replay/policy.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -shared -o $@ $< -lm

$(O)/tests/plugins/%.so: tests/plugins/%.c include/reclaim_replay/policy.h
	@mkdir -p $(dir $@)
	$(CC) $(PLUGIN_CFLAGS) -shared -o $@ $<
