# meshcast — plain Makefile with pkg-config.
#
#   make            build ./meshcast (release, -O2)
#   make run        install missing packages, build, start meshcast on its default view
#   make check      install missing packages, build everything under ASan+UBSan, run every test
#   make bench      build optimised and run the benchmarks (wall time, peak memory)
#   make fuzz       build the libFuzzer targets (tests/fuzz/) with clang and run each for
#                   FUZZ_SECONDS (600) on its seed corpus; `make check` runs each for a few
#                   seconds, or says it skipped them when clang's libFuzzer is missing
#   make install    PREFIX=/usr/local DESTDIR= (also bash and zsh completion)
#   make deps       install the Debian packages meshcast needs (apt-get, only when missing)

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
SHAREDIR ?= $(PREFIX)/share/meshcast
MANDIR  ?= $(PREFIX)/share/man
# shell completion (completions/: both call `meshcast complete`, the one source)
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
DESTDIR ?=

CC      ?= cc
PKGS    := ncursesw termkey lua5.4
# (the feature-test macros pkg-config adds would clash with ours under -Werror)
PKG_CFLAGS = $(filter-out -D_XOPEN_SOURCE% -D_DEFAULT_SOURCE,$(shell pkg-config --cflags $(PKGS) 2>/dev/null))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -pthread

WARN    := -std=c11 -Wall -Wextra -Werror
DEFS    := -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=700 -D_XOPEN_SOURCE_EXTENDED \
           -DMESHCAST_SHAREDIR=\"$(SHAREDIR)\"
OPT     ?= -O2 -g
SAN     := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# Layers: engine <- algos <- script <- tui, cli.  The engine and the algorithms
# compile without the curses, termkey or Lua include paths.
ENGINE_SRC := $(sort $(wildcard src/engine/*.c))
ALGOS_SRC  := $(sort $(wildcard src/algos/*.c src/algos/*/*.c))
SCRIPT_SRC := $(sort $(wildcard src/script/*.c))
TUI_SRC    := $(sort $(wildcard src/tui/*.c))
CLI_SRC    := $(sort $(filter-out src/cli/main.c,$(wildcard src/cli/*.c)))
LIB_SRC    := $(ENGINE_SRC) $(ALGOS_SRC) $(SCRIPT_SRC) $(TUI_SRC) $(CLI_SRC)
UNIT_SRC   := $(sort $(wildcard tests/unit/test_*.c))
BENCH_SRC  := $(sort $(wildcard bench/*.c))

# Three build trees: release (build/), sanitized (build-san/), libFuzzer (build-fuzz/, clang).
REL := build
SANB := build-san
FUZZB := build-fuzz
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
              -fno-omit-frame-pointer

MPICC   ?= $(shell command -v mpicc 2>/dev/null)
MPI_SRC := $(sort $(wildcard src/mpi/*.c)) src/engine/schedbin.c
MPI_BIN := $(if $(MPICC),meshcast-mpi)

obj = $(patsubst %.c,$(1)/%.o,$(2))

.PHONY: all run check bench install uninstall deps clean unit shell-tests fuzz fuzz-build
all: meshcast

meshcast: $(REL)/meshcast $(MPI_BIN)
	cp $< $@.tmp && mv -f $@.tmp $@

# meshcast-mpi (src/mpi/, `meshcast exec`'s MPI side): built only when mpicc is found; it
# links the schedule reader alone (src/engine/schedbin.c).  The main binary never links MPI.
meshcast-mpi: $(REL)/meshcast-mpi
	cp $< $@.tmp && mv -f $@.tmp $@
$(REL)/meshcast-mpi: $(MPI_SRC) $(wildcard src/mpi/*.h) src/engine/schedbin.h
	@mkdir -p $(dir $@)
	$(MPICC) $(WARN) $(DEFS) $(OPT) -o $@ $(MPI_SRC)
$(SANB)/meshcast-mpi: $(MPI_SRC) $(wildcard src/mpi/*.h) src/engine/schedbin.h
	@mkdir -p $(dir $@)
	$(MPICC) $(WARN) $(DEFS) -O1 -g -o $@ $(MPI_SRC)

# Layer-specific flags: only script/tui/cli see the library include paths.
$(REL)/src/engine/%.o $(REL)/src/algos/%.o: EXTRA :=
$(SANB)/src/engine/%.o $(SANB)/src/algos/%.o: EXTRA :=
$(REL)/%.o: EXTRA ?= $(PKG_CFLAGS)
$(SANB)/%.o: EXTRA ?= $(PKG_CFLAGS)
$(FUZZB)/src/engine/%.o $(FUZZB)/src/algos/%.o: EXTRA :=
$(FUZZB)/%.o: EXTRA ?= $(PKG_CFLAGS)

$(REL)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(OPT) $(EXTRA) -MMD -MP -c $< -o $@

$(SANB)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(DEFS) $(SAN) $(EXTRA) -MMD -MP -c $< -o $@

$(FUZZB)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(DEFS) $(FUZZ_FLAGS) $(EXTRA) -MMD -MP -c $< -o $@

# The share directory is compiled in (assets.c, lua-sandbox.c): a stamp per build tree holds
# the SHAREDIR it was built for and is rewritten only when that changes, so that
# `make install PREFIX=...` after a plain `make` rebuilds them rather than ship a binary that
# looks for its lessons, scripts and themes under another prefix.
SHAREDIR_OBJ := src/script/assets.c src/script/lua-sandbox.c
.PHONY: FORCE
FORCE:
%/sharedir.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(SHAREDIR)' | cmp -s - $@ 2>/dev/null || echo '$(SHAREDIR)' > $@
$(call obj,$(REL),$(SHAREDIR_OBJ)): $(REL)/sharedir.stamp
$(call obj,$(SANB),$(SHAREDIR_OBJ)): $(SANB)/sharedir.stamp
$(call obj,$(FUZZB),$(SHAREDIR_OBJ)): $(FUZZB)/sharedir.stamp

$(REL)/meshcast: $(call obj,$(REL),$(LIB_SRC) src/cli/main.c)
	$(CC) $(OPT) -o $@ $^ $(PKG_LIBS) -lm

$(SANB)/meshcast: $(call obj,$(SANB),$(LIB_SRC) src/cli/main.c)
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS) -lm

# Every tests/unit/test_X.c is one cmocka program linked with the whole library.
$(SANB)/tests/unit/%: $(SANB)/tests/unit/%.o $(call obj,$(SANB),$(LIB_SRC))
	$(CC) $(SAN) -o $@ $^ $(PKG_LIBS) -lcmocka -lm

# A unit program with a long exhaustive part (it includes tests/unit/full.h) is also built
# release into build/tests/unit/, where the part runs in full (FULL_RUN); `make check` runs both.
$(REL)/tests/unit/%: $(REL)/tests/unit/%.o $(call obj,$(REL),$(LIB_SRC))
	$(CC) $(OPT) -o $@ $^ $(PKG_LIBS) -lcmocka -lm

$(REL)/bench/%: $(REL)/bench/%.o $(call obj,$(REL),$(LIB_SRC))
	$(CC) $(OPT) -o $@ $^ $(PKG_LIBS) -lm

# Every tests/fuzz/fuzz_X.c is one libFuzzer program linked with the whole library.
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(patsubst tests/fuzz/%.c,$(FUZZB)/%,$(FUZZ_SRC))
$(FUZZB)/fuzz_%: $(FUZZB)/tests/fuzz/fuzz_%.o $(call obj,$(FUZZB),$(LIB_SRC))
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS) -lm

UNIT_BIN  := $(patsubst tests/unit/%.c,$(SANB)/tests/unit/%,$(UNIT_SRC))
FULL_SRC  := $(shell grep -l '^\#include "full.h"' $(UNIT_SRC) 2>/dev/null)
FULL_BIN  := $(patsubst tests/unit/%.c,$(REL)/tests/unit/%,$(FULL_SRC))
BENCH_BIN := $(patsubst bench/%.c,$(REL)/bench/%,$(BENCH_SRC))

deps:
	@sh tools/deps.sh

run: deps
	@$(MAKE) --no-print-directory meshcast
	./meshcast

# Unit tests, then the shell suites (CLI goldens, Lua, TUI in tmux), all on the sanitized
# binary.  Each runner prints its closing summary line.
check: deps
	@$(MAKE) --no-print-directory -j2 $(SANB)/meshcast $(UNIT_BIN) $(FULL_BIN) meshcast $(if $(MPICC),$(SANB)/meshcast-mpi)
	@sh tests/run-unit.sh $(UNIT_BIN) $(FULL_BIN)
	@MESHCAST=$(CURDIR)/$(SANB)/meshcast sh tests/run-shell.sh
	@sh tests/fuzz/run.sh --check

unit: $(UNIT_BIN) $(FULL_BIN)
	@sh tests/run-unit.sh $(UNIT_BIN) $(FULL_BIN)

bench: deps
	@$(MAKE) --no-print-directory $(REL)/meshcast $(BENCH_BIN) $(if $(MPICC),$(REL)/meshcast-mpi)
	@MESHCAST=$(CURDIR)/$(REL)/meshcast sh bench/run.sh $(BENCH_BIN)

fuzz-build: $(FUZZ_BIN)

fuzz:
	@sh tools/deps.sh fuzz
	@$(MAKE) --no-print-directory fuzz-build
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

install: meshcast
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SHAREDIR)/scripts $(DESTDIR)$(SHAREDIR)/lessons \
	        $(DESTDIR)$(SHAREDIR)/assets $(DESTDIR)$(SHAREDIR)/assets/profiles
	install -m 755 meshcast $(DESTDIR)$(BINDIR)/meshcast
	if [ -f meshcast-mpi ]; then install -m 755 meshcast-mpi $(DESTDIR)$(BINDIR)/meshcast-mpi; fi
	for f in scripts/*.lua; do [ -e "$$f" ] && install -m 644 "$$f" $(DESTDIR)$(SHAREDIR)/scripts/; done; true
	for f in lessons/*.lua lessons/course; do [ -e "$$f" ] && install -m 644 "$$f" $(DESTDIR)$(SHAREDIR)/lessons/; done; true
	for f in assets/*; do [ -f "$$f" ] && install -m 644 "$$f" $(DESTDIR)$(SHAREDIR)/assets/; done; true
	for f in assets/profiles/*.profile; do [ -f "$$f" ] && install -m 644 "$$f" $(DESTDIR)$(SHAREDIR)/assets/profiles/; done; true
	if [ -f man/meshcast.1 ]; then install -d $(DESTDIR)$(MANDIR)/man1 && \
	    install -m 644 man/meshcast.1 $(DESTDIR)$(MANDIR)/man1/; fi
	if [ -f completions/meshcast.bash ]; then install -d $(DESTDIR)$(BASHCOMPDIR) && \
	    install -m 644 completions/meshcast.bash $(DESTDIR)$(BASHCOMPDIR)/meshcast; fi
	if [ -f completions/_meshcast ]; then install -d $(DESTDIR)$(ZSHCOMPDIR) && \
	    install -m 644 completions/_meshcast $(DESTDIR)$(ZSHCOMPDIR)/_meshcast; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/meshcast $(DESTDIR)$(BINDIR)/meshcast-mpi
	rm -f $(DESTDIR)$(BASHCOMPDIR)/meshcast $(DESTDIR)$(ZSHCOMPDIR)/_meshcast
	rm -rf $(DESTDIR)$(SHAREDIR)

clean:
	rm -rf $(REL) $(SANB) $(FUZZB) build-fuzz.log meshcast meshcast-mpi

-include $(shell find $(REL) $(SANB) $(FUZZB) -name '*.d' 2>/dev/null)
