# edml: make [BOARD=host] [CROSS_COMPILE=prefix-] [CC=...] [CFLAGS=...]
# Targets: all, test, demo, install, clean, help (see `make help`).

BOARD ?= host
BOARDS := $(sort $(notdir $(patsubst %/board.mk,%,$(wildcard boards/*/board.mk))))
ifeq ($(wildcard boards/$(BOARD)/board.mk),)
$(error unknown BOARD '$(BOARD)'; known boards: $(BOARDS))
endif
include boards/$(BOARD)/board.mk

CROSS_COMPILE ?= $(BOARD_CROSS_COMPILE)
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif
NM ?= $(CROSS_COMPILE)nm

BUILD := build/$(BOARD)
PREFIX ?= /usr/local
DESTDIR ?=

CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Werror
LIB_CFLAGS := -std=c11 $(WARN) -Iinclude -Isrc -Iboards/$(BOARD) $(BOARD_CFLAGS) $(CFLAGS)
TOOL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -Iinclude -Itools $(BOARD_CFLAGS) $(CFLAGS)
TOOL_LIBS := -lm

CORE_SRC := $(filter-out src/core/backends_%.c,$(wildcard src/core/*.c))
REF_SRC := $(wildcard src/ref/*.c)
LIB_SRC := $(CORE_SRC) $(REF_SRC) src/core/backends_ref_only.c
LIB_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRC))
LIB := $(BUILD)/libedml.a

TOOLS := $(BUILD)/edml-run

.PHONY: all lib tools test demo install clean help
all: $(LIB) $(TOOLS)
lib: $(LIB)
tools: $(TOOLS)

$(BUILD)/obj/%.o: %.c include/edml.h $(wildcard src/*/*.h) boards/$(BOARD)/caps.h
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/tools/%.o: tools/%.c tools/case.h include/edml.h
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) -c $< -o $@

$(BUILD)/edml-run: $(BUILD)/tools/edml-run.o $(BUILD)/tools/case.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TOOL_LIBS)

clean:
	rm -rf build

help:
	@echo "make [BOARD=<board>] [target]"
	@echo "  all      build $(BUILD)/libedml.a and $(BUILD)/edml-run"
	@echo "boards: $(BOARDS)"
