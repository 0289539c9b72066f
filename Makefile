# edml: DirectML's tensor operators for ARM edge boards, with no heap.
#
#   make [BOARD=<board>] [CROSS_COMPILE=<prefix>] [CC=...] [CFLAGS=...] [target]
#
# `make help` lists targets and boards. Output goes to build/<BOARD>/.

BOARD ?= host
BOARDS := $(sort $(notdir $(patsubst %/board.mk,%,$(wildcard boards/*/board.mk))))
ifeq ($(wildcard boards/$(BOARD)/board.mk),)
$(error unknown BOARD '$(BOARD)'; known boards: $(BOARDS))
endif
include boards/$(BOARD)/board.mk

# Toolchain: the board's prefix unless CROSS_COMPILE, CC or AR are given
# (Yocto and Buildroot set CC/CFLAGS; they are honoured). BOARD_TUNE (the
# board's CPU flags, -mcpu and the like) may be given empty, so that the
# build system's own flags for the machine decide (packaging/).
CROSS_COMPILE ?= $(BOARD_CROSS_COMPILE)
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif
NM ?= $(CROSS_COMPILE)nm

PREFIX ?= /usr/local
# where install puts each kind of file (a distribution's multilib or
# lib64 layout: LIBDIR=$(PREFIX)/lib64); edml.pc and the CMake package name these
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
DESTDIR ?=
CFLAGS ?= -O2 -g
LDFLAGS ?=

# Warnings are errors in edml's own tests (make test and .ci/run set
# WERROR=-Werror); a plain make, make install and the Buildroot and Yocto
# packages build without it, so that a newer compiler's new warning is no
# failed image build.
WERROR ?=
WARN := -Wall -Wextra $(WERROR)
BASE_CFLAGS := -std=c11 $(WARN) -Iinclude $(BOARD_CFLAGS)
TOOL_CFLAGS := $(BASE_CFLAGS) -D_POSIX_C_SOURCE=200809L -Itools -Itest $(CFLAGS)
TOOL_LIBS = -lm $(PORT_LIBS) $(BOARD_LDLIBS)

# The port: linux (EGL/GLES loaded at run time, the GLES backend) or none
# (no GL at all: fully static images).
PORT ?= $(BOARD_PORT)
ifeq ($(wildcard port/$(PORT)/.),)
$(error unknown PORT '$(PORT)'; ports: $(notdir $(wildcard port/*/)))
endif
# The build folder names the board, and the port where it is not the board's,
# so that one configuration's objects never end up in another's archive.
BUILD ?= build/$(BOARD)$(if $(filter-out $(BOARD_PORT),$(PORT)),-port-$(PORT))

# The backends: the reference always; NEON where the board has it (natively
# on Arm, through SIMDe elsewhere: a test vehicle, not a speed claim); GLES
# unless PORT=none. src/backends.c lists them for the core.
WITH_NEON := $(if $(filter 1,$(BOARD_NEON)),1,0)
WITH_GLES := $(if $(filter none,$(PORT)),0,1)
BACKEND_SRC := $(wildcard src/ref/*.c) $(if $(filter 1,$(WITH_NEON)),$(wildcard src/neon/*.c)) \
               $(if $(filter 1,$(WITH_GLES)),$(wildcard src/gles/*.c))
LIB_GEN_OBJ := $(BUILD)/obj/gen/boards.o
ifeq ($(WITH_GLES),1)
LIB_GEN_OBJ += $(BUILD)/obj/gen/shaders.o
PORT_LIBS := -ldl -lpthread
PORT_CFLAGS :=
else
# PORT=none is freestanding: the archive needs nothing from a C library but
# memcpy, memset, memmove and memcmp (test/check-freestanding.sh).
# -ffreestanding implies -fno-builtin, which made every small memcpy and
# memset a call (TopK 15-21% more instructions than the Linux build):
# -fbuiltin gives the firmware build the same code.
PORT_LIBS :=
PORT_CFLAGS := -ffreestanding -fbuiltin $(TOOLCHAIN_FREESTANDING_CFLAGS)
endif
LIB_CFLAGS := $(BASE_CFLAGS) -Wconversion -Wsign-conversion -Isrc -Iport -Iboards/$(BOARD) \
              -DEDMLI_WITH_NEON=$(WITH_NEON) -DEDMLI_WITH_GLES=$(WITH_GLES) $(PORT_CFLAGS) $(CFLAGS)
SHADERS := shaders/common.glsl shaders/output.glsl shaders/topk.glsl shaders/main.glsl $(sort $(wildcard shaders/*.comp))

LIB_SRC := $(wildcard src/core/*.c) $(wildcard src/cpu/*.c) src/backends.c $(BACKEND_SRC) $(wildcard port/$(PORT)/*.c)
LIB_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRC)) $(LIB_GEN_OBJ)
LIB := $(BUILD)/libedml.a
HEADERS := include/edml.h $(wildcard src/*/*.h) shaders/params.h port/edml_port.h boards/$(BOARD)/caps.h

# the .case parser and runner, built into the tools and tests that read case files
CASE_SRC := tools/case.c tools/case_run.c
TOOLS := $(BUILD)/edml-run $(BUILD)/edml-bench $(BUILD)/edml-demo $(if $(filter 1,$(WITH_GLES)),$(BUILD)/gles-prelude $(BUILD)/gpu-compile)
GUARD_GLES := $(if $(filter 1,$(WITH_GLES)),$(BUILD)/guard/libGLESv2.so.2)
TESTS := $(GUARD_GLES) $(BUILD)/test/unit $(BUILD)/test/kernels $(BUILD)/test/misuse $(BUILD)/test/lists $(BUILD)/test/diff $(BUILD)/test/noalloc $(BUILD)/test/faults $(BUILD)/test/threads $(BUILD)/test/gpu $(BUILD)/test/glcontext $(BUILD)/test/hostile $(BUILD)/test/mapped $(BUILD)/test/dropped $(BUILD)/test/placement $(BUILD)/test/placement_cache \
         $(BUILD)/examples/topk $(BUILD)/examples/command_list $(if $(filter 1,$(WITH_GLES)),$(BUILD)/test/kat $(BUILD)/test/cache $(BUILD)/test/watchdog)
WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=strdup,--wrap=aligned_alloc,--wrap=posix_memalign

.PHONY: all lib tools tests test test-quick demo clean help setup
all: $(LIB) $(TOOLS)
lib: $(LIB)
tools: $(TOOLS)
tests: $(TESTS) $(TOOLS)

# Objects are rebuilt when the compiler or flags change, not only the
# sources: a stamp of them, rewritten only when they differ.
FLAGS_STAMP := $(BUILD)/flags.stamp
FLAGS_TEXT = $(subst ','\'',$(CC) | $(LIB_CFLAGS) | $(TOOL_CFLAGS))
$(FLAGS_STAMP): FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '$(FLAGS_TEXT)' | cmp -s - $@ || printf '%s\n' '$(FLAGS_TEXT)' > $@

$(BUILD)/obj/%.o: %.c $(HEADERS) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) -c $< -o $@

# Generated sources also depend on their list of files, rewritten only when
# it changes (a renamed shader or case has an old date).
.PHONY: FORCE
$(BUILD)/gen/%.list: FORCE
	@mkdir -p $(dir $@)
	@echo "$(GEN_LIST_$*)" | cmp -s - $@ || echo "$(GEN_LIST_$*)" > $@

$(BUILD)/gen/shaders.c: $(SHADERS) tools/embed-shaders.sh $(BUILD)/gen/shaders.list
	@mkdir -p $(dir $@)
	sh tools/embed-shaders.sh $(SHADERS) > $@

$(BUILD)/obj/gen/shaders.o: $(BUILD)/gen/shaders.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) -c $< -o $@

# Every board's caps.h, so that one build serves several boards (edml_board_named).
BOARD_CAPS := $(sort $(wildcard boards/*/caps.h))
$(BUILD)/gen/boards.c: $(BOARD_CAPS) tools/gen-boards.sh $(BUILD)/gen/boards.list
	@mkdir -p $(dir $@)
	sh tools/gen-boards.sh $(BOARD_CAPS) > $@

$(BUILD)/obj/gen/boards.o: $(BUILD)/gen/boards.c src/core/board_entry.h src/core/board_undef.h $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) -I. -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/tools/%.o: tools/%.c tools/case.h tools/bench/bench.h include/edml.h src/core/cost_figures.h $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) -Isrc/core -c $< -o $@

$(BUILD)/edml-run: $(BUILD)/tools/edml-run.o $(BUILD)/tools/case.o $(BUILD)/tools/case_run.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TOOL_LIBS)

$(BUILD)/edml-demo: $(BUILD)/tools/edml-demo.o $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TOOL_LIBS)

# The GLSL prelude of a kernel, as the GLES backend writes it (test/check-shaders.sh).
$(BUILD)/gles-prelude: tools/gles-prelude.c $(LIB) $(HEADERS)
	$(CC) $(LIB_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(TOOL_LIBS)

# Every program compiled as a device would, one at a time (toolchain/gpu-targets).
$(BUILD)/gpu-compile: tools/gpu-compile.c $(CASE_SRC) tools/case.h $(LIB) $(HEADERS)
	$(CC) $(LIB_CFLAGS) -D_POSIX_C_SOURCE=200809L -Itools $(LDFLAGS) -o $@ $< $(CASE_SRC) $(LIB) $(TOOL_LIBS)

BENCH_OBJ := $(patsubst tools/%.c,$(BUILD)/tools/%.o,$(wildcard tools/bench/*.c))
BENCH_OBJ += $(patsubst tools/%.c,$(BUILD)/tools/%.o,$(CASE_SRC))
$(BUILD)/edml-bench: $(BENCH_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(TOOL_LIBS)

# The GLES backend's known-answer tests and program cache, from inside (its headers).
$(BUILD)/test/kat $(BUILD)/test/cache $(BUILD)/test/watchdog: $(BUILD)/test/%: test/%.c test/testlib.h $(LIB) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) -Itest $(LDFLAGS) -o $@ $< $(LIB) $(TOOL_LIBS)

# The tests, each with the operators' samples (test/ops.h) built in.
TEST_DEPS := test/testlib.h test/ops.h test/placement.h test/misuse.h test/image.h tools/case.h $(CASE_SRC) $(BUILD)/gen/samples.c $(LIB) $(FLAGS_STAMP)
$(BUILD)/test/%: test/%.c $(TEST_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(LDFLAGS) -o $@ $< $(CASE_SRC) $(BUILD)/gen/samples.c $(LIB) $(TOOL_LIBS) -lpthread

# The guarded GLES stand-in (test/guarded-gl.sh): every mapping exactly its
# range, an inaccessible page after it.
$(BUILD)/guard/libGLESv2.so.2: test/guard/guard_gles.c
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) -fPIC -shared -Wl,-soname,libedml-guard-gles.so $(LDFLAGS) -o $@ $< -ldl -lpthread

$(BUILD)/examples/%: examples/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(TOOL_LIBS)

# A fully static program (firmware images often are): GLES is off there, with its reason.
$(BUILD)/examples/%-static: examples/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(LDFLAGS) -static -o $@ $< $(LIB) $(TOOL_LIBS)

$(BUILD)/test/noalloc: test/noalloc.c $(TEST_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(LDFLAGS) $(WRAP) -o $@ $< $(CASE_SRC) $(BUILD)/gen/samples.c $(LIB) $(TOOL_LIBS)

# The on-device test image: every vector built in. `test-image` is static
# (PORT=none: reference and NEON); `test-image-gl` links libc dynamically so
# that it can load the board's EGL/GLES drivers (every backend).
CASES := $(sort $(wildcard test/cases/*.case))
SAMPLES := $(sort $(shell grep -l '^// sample:' $(CASES)))
GEN_LIST_shaders = $(SHADERS)
GEN_LIST_boards = $(BOARD_CAPS)
GEN_LIST_cases = $(CASES)
GEN_LIST_samples = $(SAMPLES)
IMAGE_COMMON := test/image.c test/diff.c test/unit.c test/misuse.c test/lists.c $(CASE_SRC) $(BUILD)/gen/cases.c
IMAGE_SRC := $(IMAGE_COMMON) test/image_hosted.c
.PHONY: test-image test-image-gl
ifeq ($(PORT),none)
test-image: $(BUILD)/edml-test
else
test-image:
	@$(MAKE) --no-print-directory BOARD=$(BOARD) PORT=none BUILD=$(BUILD)/static $(BUILD)/static/edml-test
	cp $(BUILD)/static/edml-test $(BUILD)/edml-test
endif
test-image-gl: $(BUILD)/edml-test-gl

$(BUILD)/gen/samples.c: $(SAMPLES) test/embed-cases.sh $(BUILD)/gen/samples.list
	@mkdir -p $(dir $@)
	sh test/embed-cases.sh $(SAMPLES) > $@

$(BUILD)/gen/cases.c: $(CASES) test/embed-cases.sh $(BUILD)/gen/cases.list
	@mkdir -p $(dir $@)
	sh test/embed-cases.sh $(CASES) > $@

$(BUILD)/edml-test: $(IMAGE_SRC) test/image.h test/testlib.h test/ops.h test/misuse.h tools/case.h $(LIB)
	$(CC) $(TOOL_CFLAGS) -DEDML_TEST_IMAGE $(LDFLAGS) -static -o $@ $(IMAGE_SRC) $(LIB) $(TOOL_LIBS)

$(BUILD)/edml-test-gl: $(IMAGE_SRC) test/image.h test/testlib.h test/ops.h test/misuse.h tools/case.h $(LIB)
	$(CC) $(TOOL_CFLAGS) -DEDML_TEST_IMAGE $(LDFLAGS) -o $@ $(IMAGE_SRC) $(LIB) $(TOOL_LIBS)

# Bare metal, AArch64: BAREMETAL_BOARD's library with PORT=none, linked with
# examples/baremetal's start-up code and linker script and with picolibc
# (output and exit through semihosting); run under qemu-system-aarch64 -M
# virt (toolchain/run-baremetal). `baremetal` builds the example and the test
# image (every vector, the differential test, the unit and misuse tests);
# `test-baremetal` runs both.
BAREMETAL_BOARD ?= rpi4
BM := build/baremetal$(if $(filter-out rpi4,$(BAREMETAL_BOARD)),-$(BAREMETAL_BOARD))
BM_SRC := examples/baremetal/start.S examples/baremetal/startup.c
BM_FLAGS = --specs=picolibc.specs $(BOARD_CFLAGS) $(CFLAGS)
BM_LDFLAGS = -nostartfiles -static -T examples/baremetal/link.ld -Wl,--gc-sections $(LDFLAGS) --oslib=semihost
BM_DEPS := $(BM_SRC) examples/baremetal/baremetal.h examples/baremetal/link.ld
.PHONY: baremetal test-baremetal
baremetal:
	@sh toolchain/setup-host baremetal
	@$(MAKE) --no-print-directory BOARD=$(BAREMETAL_BOARD) PORT=none BUILD=$(BM) $(BM)/example.elf $(BM)/edml-test.elf
test-baremetal: baremetal
	@sh test/check-baremetal.sh $(BM)

$(BM)/obj/startup.o: examples/baremetal/startup.c examples/baremetal/baremetal.h
	@mkdir -p $(dir $@)
	$(CC) $(BM_FLAGS) -std=c11 $(WARN) -mstrict-align -c -o $@ $<
$(BM)/obj/start.o: examples/baremetal/start.S
	@mkdir -p $(dir $@)
	$(CC) $(BM_FLAGS) -c -o $@ $<
$(BM)/example.elf: examples/baremetal/main.c $(BM)/obj/start.o $(BM)/obj/startup.o $(BM_DEPS) $(LIB)
	$(CC) $(BM_FLAGS) -std=c11 $(WARN) -Iinclude $(BM_LDFLAGS) -o $@ $< $(BM)/obj/start.o $(BM)/obj/startup.o $(LIB)
$(BM)/edml-test.elf: $(IMAGE_COMMON) test/baremetal.c test/image.h test/testlib.h test/ops.h test/misuse.h tools/case.h $(BM)/obj/start.o $(BM)/obj/startup.o $(BM_DEPS) $(LIB)
	$(CC) $(BM_FLAGS) -std=c11 $(WARN) -Iinclude -Itools -Itest -D_POSIX_C_SOURCE=200809L -DEDML_TEST_IMAGE -DTL_HAVE_THREADS=0 $(BM_LDFLAGS) \
	    -o $@ $(IMAGE_COMMON) test/baremetal.c $(BM)/obj/start.o $(BM)/obj/startup.o $(LIB)

# Fuzzing (clang, libFuzzer, ASan, UBSan): `make fuzz` runs each target for
# FUZZ_SECONDS over test/fuzz/<target>/ (new inputs go to build/fuzz/corpus).
FUZZ_SECONDS ?= 600
FUZZ := build/fuzz
FUZZ_FLAGS := -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
# The library as the fuzzers link it (coverage for libFuzzer, ASan, UBSan);
# `make sanitize` builds the tools and tests on the same objects.
SAN_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
SAN_BUILD := $(FUZZ)/lib
SAN_TESTS := $(SAN_BUILD)/test/unit $(SAN_BUILD)/test/kernels $(SAN_BUILD)/test/misuse $(SAN_BUILD)/test/lists $(SAN_BUILD)/test/diff $(SAN_BUILD)/test/threads $(SAN_BUILD)/test/placement $(SAN_BUILD)/test/placement_cache
.PHONY: fuzz fuzz-build fuzz-lib sanitize
fuzz-build: fuzz-lib
	@$(MAKE) --no-print-directory $(FUZZ)/fuzz_ops $(FUZZ)/fuzz_case $(FUZZ)/fuzz_api
fuzz-lib:
	@$(MAKE) --no-print-directory BOARD=host CC=clang BUILD=$(SAN_BUILD) CFLAGS="$(SAN_CFLAGS)" lib
sanitize:
	@$(MAKE) --no-print-directory BOARD=host CC=clang BUILD=$(SAN_BUILD) CFLAGS="$(SAN_CFLAGS)" \
	    LDFLAGS="-fsanitize=address,undefined" all $(SAN_TESTS)
$(FUZZ)/fuzz_ops: test/fuzz_ops.c $(FUZZ)/lib/libedml.a
	clang -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -Iinclude $(FUZZ_FLAGS) -o $@ $< $(FUZZ)/lib/libedml.a -lm -ldl
$(FUZZ)/fuzz_api: test/fuzz_api.c $(FUZZ)/lib/libedml.a
	clang -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -Iinclude $(FUZZ_FLAGS) -o $@ $< $(FUZZ)/lib/libedml.a -lm -ldl -lpthread
$(FUZZ)/fuzz_case: test/fuzz_case.c $(CASE_SRC) $(FUZZ)/lib/libedml.a
	clang -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) -Iinclude -Itools $(FUZZ_FLAGS) -o $@ test/fuzz_case.c $(CASE_SRC) $(FUZZ)/lib/libedml.a -lm -ldl
fuzz: setup fuzz-build
	@for t in ops case api; do mkdir -p $(FUZZ)/corpus/$$t; \
	  echo "fuzz_$$t for $(FUZZ_SECONDS) s"; \
	  $(FUZZ)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=30 -artifact_prefix=$(FUZZ)/ -print_final_stats=1 $(FUZZ)/corpus/$$t test/fuzz/$$t || exit 1; done

# Soak: random create/execute/destroy cycles per backend; the arena must give
# back every byte and its high-water mark stay that of the largest cycle.
SOAK_CYCLES ?= 100000
.PHONY: soak
soak: tests
	@for b in ref neon gles; do $(BUILD)/test/diff --soak --backend $$b --iters $(SOAK_CYCLES) --seed 21 || exit 1; done

# Installs what the build and tests need on a Debian machine, when missing
# (make demo: only what the demo needs).
setup:
	@sh toolchain/setup-host test

test: setup
	@sh test/run-all.sh

# The host's suite alone (no sanitizers, fuzzers, ARM images, boards or bare
# metal): a few minutes, for the edit-build-test loop; make test before a commit.
test-quick: setup
	@EDML_TEST_QUICK=1 sh test/run-all.sh

demo:
	@sh toolchain/setup-host demo
	@echo "building edml and its tools (build/host/) ..."
	@mkdir -p build && $(MAKE) -s --no-print-directory BOARD=host all >build/demo-build.log 2>&1 || { cat build/demo-build.log; exit 1; }
	@sh tools/demo.sh

# The boards' GPU compilers without the boards (toolchain/gpu-targets): Mesa
# built once from Debian's source with its no-op DRM shims, every program
# compiled as a device would; the tables in docs/gpu-compilers.md.
.PHONY: gpu-targets
gpu-targets:
	@sh toolchain/gpu-targets

.PHONY: bench bench-insns
bench-insns: setup
	@BOARD=$(if $(filter host,$(BOARD)),rpi4,$(BOARD)) INSN_JSON=$(INSN_JSON) sh tools/bench-insns.sh

bench: setup
	@$(MAKE) --no-print-directory BOARD=$(BOARD) all
	toolchain/run $(BOARD) $(BUILD)/edml-bench --json $(BUILD)/bench.json $(BENCH_ARGS)

# The board report: edml-bench --report, two programs to copy to the board:
# edml-board-report-gl (dynamically linked: the GPU too) and
# edml-board-report (static: any board, the CPU alone).
REPORT_DIR := $(BUILD)/board-report
.PHONY: board-report
board-report: $(REPORT_DIR)/edml-board-report-gl $(REPORT_DIR)/edml-board-report
	@echo "$(REPORT_DIR)/: copy edml-board-report-gl (and edml-board-report) to the $(BOARD) board, then there:"
	@echo "  ./edml-board-report-gl --report report.json      (./edml-board-report where the board has no GL)"
	@echo "bring back the three files it writes:"
	@echo "  report.json            the report; its tables here: python3 tools/perf_table.py report report.json"
	@echo "  report.json.model      AUTO's cost model, for every operator of any shape: ship it read-only, give it"
	@echo "                         to edml_device_desc.cost_model (the caps.h block in report.json: the same lines)"
	@echo "  report.json.placement  measured placement's decisions for the 16 workloads only (EDML_PLACEMENT_SAVED)"
	@echo "(--help of either program says the same)"

$(REPORT_DIR)/edml-board-report-gl: $(BUILD)/edml-bench
	@mkdir -p $(REPORT_DIR) && cp $< $@

# (the same objects linked statically: dlopen then fails, and GLES is off
# with its reason, as the linker's warning about dlopen says)
$(REPORT_DIR)/edml-board-report: $(BENCH_OBJ) $(LIB)
	@mkdir -p $(REPORT_DIR)
	$(CC) $(CFLAGS) $(LDFLAGS) -static -o $@ $^ $(TOOL_LIBS)

# The version, from edml.h; what the port needs at link time, for edml.pc
# (Libs.private) and edml::edml (INTERFACE_LINK_LIBRARIES).
# version_of: the version an edml.h states, the header printed by a command
version_of = $(shell $(1) | sed -n 's/^\#define EDML_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' | paste -sd.)
VERSION := $(call version_of,cat include/edml.h)
VERSION_MAJOR := $(firstword $(subst ., ,$(VERSION)))
LINK_LIBS := $(strip $(PORT_LIBS) $(BOARD_LDLIBS))
CMAKE_DIR := $(DESTDIR)$(LIBDIR)/cmake/edml
# the include directory as the CMake package finds it from its own folder
CMAKE_INCLUDE_REL = $(shell realpath -m --relative-to=$(LIBDIR)/cmake/edml $(INCLUDEDIR))

# The library, its header, edml.pc, the CMake package and the licence.
.PHONY: install install-tools
install: $(LIB)
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(CMAKE_DIR) $(DESTDIR)$(PREFIX)/share/doc/edml
	install -m 644 include/edml.h $(DESTDIR)$(INCLUDEDIR)/edml.h
	install -m 644 LICENSE $(DESTDIR)$(PREFIX)/share/doc/edml/LICENSE
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libedml.a
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@LIBS@|$(LINK_LIBS)|' -e 's|@VERSION@|$(VERSION)|' edml.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/edml.pc
	sed -e 's|@LINK_LIBS@|$(subst $(eval) ,;,$(LINK_LIBS))|' -e 's|@PORT@|$(PORT)|' \
	    -e 's|@INCLUDE_REL@|$(CMAKE_INCLUDE_REL)|' \
	    -e 's|@BOARD_DESCRIPTION@|$(BOARD_DESCRIPTION)|' cmake/edmlConfig.cmake.in > $(CMAKE_DIR)/edmlConfig.cmake
	p=$$(echo | $(CC) $(BOARD_CFLAGS) $(CFLAGS) -dM -E -x c - | sed -n 's/^#define __SIZEOF_POINTER__ //p'); \
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|' -e "s|@SIZEOF_VOID_P@|$$p|" \
	    cmake/edmlConfigVersion.cmake.in > $(CMAKE_DIR)/edmlConfigVersion.cmake

# The tools on the target: edml-run (test vectors), edml-bench (the
# workloads and the board report) and edml-demo, into BINDIR.
install-tools: $(BUILD)/edml-run $(BUILD)/edml-bench $(BUILD)/edml-demo
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $^ $(DESTDIR)$(BINDIR)/

# A release to pin: edml-<version>.tar.gz of a commit (DIST_COMMIT, default
# the one checked out; the release is the commit meta-edml's recipe pins)
# by git archive (tracked files only, no build/), reproducible (gzip -n,
# the commit's time), its sha256 beside it for Buildroot's edml.hash.
DIST_COMMIT ?= HEAD
DIST_VERSION = $(call version_of,git show $(DIST_COMMIT):include/edml.h 2>/dev/null)
DIST = build/edml-$(DIST_VERSION).tar.gz
.PHONY: dist
dist:
	@mkdir -p build
	git archive --format=tar --prefix=edml-$(DIST_VERSION)/ $(DIST_COMMIT) | gzip -n -9 > $(DIST)
	cd build && sha256sum edml-$(DIST_VERSION).tar.gz > edml-$(DIST_VERSION).tar.gz.sha256
	@echo "$(DIST): $$(cut -d' ' -f1 $(DIST).sha256) (sha256), the tree of $$(git rev-parse $(DIST_COMMIT))"

clean:
	rm -rf build

help:
	@echo "make [BOARD=<board>] [PORT=linux|none] [CROSS_COMPILE=<prefix>] [VARIABLE=value...] [target]"
	@echo "targets:"
	@echo "  all           the library and the tools in $(BUILD)/ (the default)"
	@echo "  test          every test, installing what it lacks; ends with N passed, N failed"
	@echo "  test-quick    the host's suite alone (builds, unit, misuse, GLES, vectors, differential): minutes"
	@echo "  demo          a detector's post-processing on every backend, then the DirectML pages' examples"
	@echo "  bench         edml-bench: every workload on every backend, JSON in $(BUILD)/bench.json"
	@echo "  bench-insns   instructions per element under qemu-aarch64 (rpi4), reference against NEON"
	@echo "  board-report  $(BUILD)/board-report/: the board report's programs, to run on the board (docs/performance.md)"
	@echo "  test-image    one static program with every test vector built in, to copy to a board"
	@echo "  test-image-gl the same, dynamically linked, with the GLES backend"
	@echo "  baremetal     AArch64 without an OS ($(BAREMETAL_BOARD)'s library, PORT=none): examples/baremetal and the test image"
	@echo "  test-baremetal  both under qemu-system-aarch64 -M virt (toolchain/run-baremetal); part of make test"
	@echo "  install       edml.h, libedml.a, edml.pc and cmake/edml under DESTDIR/INCLUDEDIR and DESTDIR/LIBDIR ($(DESTDIR)$(LIBDIR))"
	@echo "  install-tools edml-run, edml-bench and edml-demo under DESTDIR/BINDIR ($(DESTDIR)$(BINDIR))"
	@echo "  dist          build/edml-<version>.tar.gz of DIST_COMMIT (default HEAD; git archive) and its sha256"
	@echo "  gpu-targets   every GLES program compiled by the boards' GPU compilers (Mesa's shims): docs/gpu-compilers.md"
	@echo "  fuzz          the libFuzzer targets, FUZZ_SECONDS each (default 600)"
	@echo "  sanitize      the library, tools and tests built by clang with ASan and UBSan (in $(SAN_BUILD))"
	@echo "  soak          SOAK_CYCLES create/execute/destroy cycles per backend (default 100000)"
	@echo "  setup         installs missing Debian packages (toolchain/setup-host)"
	@echo "  clean         removes build/"
	@echo "  help          this list, the variables and the boards"
	@echo "variables: BOARD (default host), PORT (the board's: linux or none), CROSS_COMPILE, CC, AR, CFLAGS, LDFLAGS,"
	@echo "           BUILD (default build/<board>, build/<board>-port-<port> for another port), PREFIX, DESTDIR,"
	@echo "           LIBDIR, INCLUDEDIR, BINDIR (default PREFIX/lib, /include, /bin), WERROR (-Werror in make test),"
	@echo "           BOARD_TUNE (the board's -mcpu flags; empty: the build system's own, as Buildroot and Yocto give them),"
	@echo "           BAREMETAL_BOARD (the AArch64 board make baremetal links, default rpi4)"
	@echo "boards: $(BOARDS)"
