# sinew: build, test, run. `make` builds build/libsinew.a, build/libsinew.so, build/sinew and the
# viewer build/sinew-view. `make test` runs every test; `make test SAN=1` does it under ASan +
# UBSan; `make run` is the quick start; `make test-viewer` checks the viewer's screenshots under a
# virtual display (Xvfb). Only the viewer (tools/view/) sees SDL2: the library never links it.
# Layering (docs/architecture.md) is enforced by include paths: collision/ sees only include/
# and itself; solver/ adds collision/; scene/, tools/, rig/, ragdoll/ see include/ only.

.DEFAULT_GOAL := all
CC      ?= cc
PREFIX  ?= /usr/local
BUILD   ?= build

# Parallel by default: one job per core unless the command line says otherwise (make -jN).
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif

# Packages are checked per group of targets, only for the targets being built: a target that
# needs group G lists `| deps-G` as an order-only prerequisite (scripts/deps.sh says what each
# group holds: lib, test, viewer, test-viewer, fuzz, box2d, chipmunk). `make clean` and `make -n` check nothing.
DEPS_GROUPS := lib test viewer test-viewer fuzz box2d chipmunk
.PHONY: $(DEPS_GROUPS:%=deps-%)
$(DEPS_GROUPS:%=deps-%): deps-%:
	@sh scripts/deps.sh $*

STB_CFLAGS := -isystem /usr/include/stb
WARN    := -std=c11 -Wall -Wextra -Wpedantic -Wmissing-prototypes -Wshadow -Wswitch
ifdef CI
WARN    += -Werror
endif
OPT     ?= -O2 -g
# -fno-math-errno: sqrtf becomes the sqrtss instruction (the same correctly rounded result; only
# errno is not set, which nothing reads). With errno, gcc called libm's sqrtf from the narrowphase
# (update_one: 2.2 calls per contact on tumbler) and spilled every xmm register around each call.
CFLAGS_BASE := $(WARN) $(OPT) -ffp-contract=off -fno-math-errno -fPIC -fvisibility=hidden -D_POSIX_C_SOURCE=200809L $(STB_CFLAGS)
LDLIBS  := -ljansson -lm

ifdef SAN
BUILD   := build/san
CFLAGS_BASE += -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined,float-cast-overflow
endif

# `make fuzz` builds the library again with clang for libFuzzer (coverage hooks, ASan + UBSan).
ifdef FUZZ
BUILD   := build/fuzz
CC      := clang
CFLAGS_BASE += -fsanitize=fuzzer-no-link,address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all
endif

OBJ := $(BUILD)/obj

COLLISION_SRC := $(wildcard collision/*.c)
SOLVER_SRC    := $(wildcard solver/*.c solver/joints/*.c)
SCENE_SRC     := $(wildcard scene/*.c)
RIG_SRC       := $(wildcard rig/*.c ragdoll/*.c)
LIB_SRC       := $(COLLISION_SRC) $(SOLVER_SRC) $(SCENE_SRC) $(RIG_SRC)
LIB_OBJ       := $(LIB_SRC:%.c=$(OBJ)/%.o)
TOOL_SRC      := $(wildcard tools/*.c)
TOOL_OBJ      := $(TOOL_SRC:%.c=$(OBJ)/%.o)
TEST_SRC      := $(wildcard tests/test_*.c)
TEST_BIN      := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_SUPPORT  := $(filter-out $(TEST_SRC),$(wildcard tests/*.c))
TEST_SUPPORT_OBJ := $(TEST_SUPPORT:%.c=$(OBJ)/%.o)
TEST_OBJ      := $(TEST_SRC:%.c=$(OBJ)/%.o) $(TEST_SUPPORT_OBJ)

# The shared library's version follows include/sinew/base.h; its SONAME carries the major only.
version_part = $(shell sed -n 's/^\#define SINEW_VERSION_$(1) \([0-9]*\).*/\1/p' include/sinew/base.h)
SO_MAJOR      := $(call version_part,MAJOR)
SO_VERSION    := $(SO_MAJOR).$(call version_part,MINOR).$(call version_part,PATCH)
SONAME        := libsinew.so.$(SO_MAJOR)

INC_collision := -Iinclude -Icollision
INC_solver    := -Iinclude -Icollision -Isolver
INC_scene     := -Iinclude -Iscene
INC_rig       := -Iinclude
INC_ragdoll   := -Iinclude
INC_tools     := -Iinclude
INC_tests     := -Iinclude -Icollision -Itests
SDL_CFLAGS    := $(patsubst -I%,-isystem %,$(shell sdl2-config --cflags 2>/dev/null || echo -I/usr/include/SDL2))
SDL_LIBS      := $(shell sdl2-config --libs 2>/dev/null || echo -lSDL2)
INC_view      := -Iinclude -Itools $(SDL_CFLAGS)
VIEW_SRC      := $(wildcard tools/view/*.c)
VIEW_OBJ      := $(VIEW_SRC:%.c=$(OBJ)/%.o)

.PHONY: all lib test run bench install clean golden format test-viewer install-lib
all: lib $(BUILD)/sinew $(BUILD)/sinew-view
lib: $(BUILD)/libsinew.a $(BUILD)/libsinew.so $(BUILD)/$(SONAME)

# Objects are kept (never deleted as intermediates), so a second `make test` compiles and links
# nothing.
.SECONDARY:
$(LIB_OBJ) $(TOOL_OBJ): | deps-lib
$(TEST_OBJ): | deps-test
$(VIEW_OBJ): | deps-viewer

# The include path of a file is chosen by its top-level directory.
layer = $(firstword $(subst /, ,$(1)))

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(INC_$(call layer,$<)) -MMD -MP -c $< -o $@

# The viewer's files see SDL2's headers (the more specific rule wins over the one above).
$(OBJ)/tools/view/%.o: tools/view/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(INC_view) -MMD -MP -c $< -o $@

$(BUILD)/libsinew.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/libsinew.so.$(SO_VERSION): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,$(SONAME) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/$(SONAME) $(BUILD)/libsinew.so: $(BUILD)/libsinew.so.$(SO_VERSION)
	ln -sf libsinew.so.$(SO_VERSION) $@

$(BUILD)/sinew: $(TOOL_OBJ) $(BUILD)/libsinew.a
	$(CC) $(LDFLAGS) -o $@ $(TOOL_OBJ) $(BUILD)/libsinew.a $(LDLIBS)

$(BUILD)/sinew-view: $(VIEW_OBJ) $(OBJ)/tools/raster.o $(BUILD)/libsinew.a
	$(CC) $(LDFLAGS) -o $@ $(VIEW_OBJ) $(OBJ)/tools/raster.o $(BUILD)/libsinew.a $(SDL_LIBS) $(LDLIBS)

$(BUILD)/tests/%: $(OBJ)/tests/%.o $(TEST_SUPPORT_OBJ) $(BUILD)/libsinew.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(TEST_SUPPORT_OBJ) $(BUILD)/libsinew.a -lcmocka $(LDLIBS)

test: $(TEST_BIN) $(BUILD)/sinew lib
	@CC="$(CC)" LDFLAGS="$(LDFLAGS)" SAN="$(SAN)" sh scripts/run_tests.sh $(BUILD) $(TEST_BIN)

# Screenshots of scenes taken by sinew-view under xvfb-run and checked (scripts/test_viewer.sh).
test-viewer: $(BUILD)/sinew-view | deps-test-viewer
	@sh scripts/test_viewer.sh $(BUILD)

run: all
	@sh scripts/run_scenes.sh $(BUILD)/sinew scenes/*.json

# Benchmarks (docs/benchmarks.md). `make bench` times every scene of scenes/bench/ and writes
# bench/results.json; `make bench-peers` runs the same scene files in sinew, Box2D 2.4 and
# Chipmunk 7 in turn (BENCH_SCENES=... picks scenes, BENCH_REPEAT=R the runs per engine), and
# Box2D v3 too with BOX2D_V3=DIR, a Box2D v3 checkout (bench/peers/README.md).
.PHONY: bench-peers
BENCH_REPEAT ?= 3
bench: $(BUILD)/sinew
	$(BUILD)/sinew bench --repeat $(BENCH_REPEAT) --json bench/results.json

bench-peers: $(BUILD)/sinew
	@BOX2D_V3="$(BOX2D_V3)" sh bench/peers/run.sh $(BUILD) $(BENCH_REPEAT) $(BENCH_SCENES)

# Fuzzing (docs/reliability.md): tests/fuzz/ holds two libFuzzer harnesses, the scene loader
# (fuzz_scene) and sequences of API calls (fuzz_api), their regression corpus and the scene
# format's dictionary. `make fuzz` runs each for FUZZ_SECONDS under ASan + UBSan (scripts/fuzz.sh);
# new inputs go to build/fuzz/corpus/, crashes to build/fuzz/crashes/.
# Determinism across builds (issue 14): the golden hashes again from -O0, from the contact kernel's
# plain-C lanes, from clang, and from the SSE2 and AVX paths where the CPU has wider ones
# (scripts/determinism.sh); CI runs it after `make test`. clang comes with the fuzz group's packages.
.PHONY: determinism
determinism: | deps-fuzz
	sh scripts/determinism.sh

.PHONY: fuzz fuzz-build
FUZZ_SECONDS ?= 60
FUZZ_HARNESSES := fuzz_scene fuzz_api
fuzz: fuzz-build
	@sh scripts/fuzz.sh build/fuzz $(FUZZ_SECONDS) $(FUZZ_HARNESSES)

fuzz-build: | deps-fuzz
	@$(MAKE) --no-print-directory FUZZ=1 $(FUZZ_HARNESSES:%=build/fuzz/%)

ifdef FUZZ
$(BUILD)/fuzz_%: $(OBJ)/tests/fuzz/fuzz_%.o $(BUILD)/libsinew.a
	$(CC) -fsanitize=fuzzer,address,undefined,float-cast-overflow $(LDFLAGS) -o $@ $< $(BUILD)/libsinew.a $(LDLIBS)
endif

# Soak (docs/reliability.md; not in CI): stickman_rain and rain again and again for SOAK_MINUTES
# each (default 10) of wall time: finite state, counts back to the start, resident memory flat.
.PHONY: soak
SOAK_MINUTES ?= 10
soak: $(BUILD)/soak
	$(BUILD)/soak --minutes $(SOAK_MINUTES) scenes/bench/stickman_rain.json scenes/bench/rain.json

$(BUILD)/soak: $(OBJ)/tests/soak/soak.o $(BUILD)/libsinew.a
	$(CC) $(LDFLAGS) -o $@ $< $(BUILD)/libsinew.a $(LDLIBS)

golden: $(BUILD)/sinew
	@sh scripts/golden.sh $(BUILD)/sinew update

# sinew.pc links libsinew.so; sinew-static.pc names libsinew.a itself, so that a static link
# cannot pick the shared library up by accident. install-lib is what a program that embeds sinew
# builds against (headers, both libraries, the pkg-config files); scripts/check_link.sh installs
# it into a temporary directory during make test and links a program both ways.
install: install-lib all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BUILD)/sinew $(BUILD)/sinew-view $(DESTDIR)$(PREFIX)/bin/

install-lib: lib
	install -d $(DESTDIR)$(PREFIX)/include/sinew $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/sinew/*.h $(DESTDIR)$(PREFIX)/include/sinew/
	install -m 644 $(BUILD)/libsinew.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libsinew.so.$(SO_VERSION) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libsinew.so.$(SO_VERSION) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf libsinew.so.$(SO_VERSION) $(DESTDIR)$(PREFIX)/lib/libsinew.so
	for pc in sinew sinew-static; do \
		sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(SO_VERSION)|' scripts/$$pc.pc.in \
			> $(DESTDIR)$(PREFIX)/lib/pkgconfig/$$pc.pc || exit 1; \
	done

clean:
	rm -rf build out

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
