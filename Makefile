# sinew: build, test, run. `make` builds build/libsinew.a, build/libsinew.so, build/sinew and the
# viewer build/sinew-view. `make test` runs every test; `make test SAN=1` does it under ASan +
# UBSan; `make run` is the quick start; `make test-viewer` checks the viewer's screenshots under a
# virtual display (Xvfb). Only the viewer (tools/view/) sees SDL2: the library never links it.
# Layering (DESIGN.md) is enforced by include paths: collision/ sees only include/
# and itself; solver/ adds collision/; scene/, tools/, rig/, ragdoll/ see include/ only.

CC      ?= cc
PREFIX  ?= /usr/local
BUILD   ?= build
DEPS_OK := $(shell sh scripts/deps.sh >&2 && echo ok)
ifneq ($(DEPS_OK),ok)
$(error scripts/deps.sh could not provide the build dependencies (see the message above))
endif

STB_CFLAGS := -isystem /usr/include/stb
WARN    := -std=c11 -Wall -Wextra -Wpedantic -Wmissing-prototypes -Wshadow -Wswitch
ifdef CI
WARN    += -Werror
endif
OPT     ?= -O2 -g
CFLAGS_BASE := $(WARN) $(OPT) -ffp-contract=off -fPIC -fvisibility=hidden -D_POSIX_C_SOURCE=200809L $(STB_CFLAGS)
LDLIBS  := -ljansson -lm

ifdef SAN
BUILD   := build/san
CFLAGS_BASE += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
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

.PHONY: all lib test run bench install clean golden format test-viewer
all: $(BUILD)/libsinew.a $(BUILD)/libsinew.so $(BUILD)/sinew $(BUILD)/sinew-view
lib: $(BUILD)/libsinew.a $(BUILD)/libsinew.so

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

$(BUILD)/libsinew.so: $(LIB_OBJ)
	$(CC) -shared $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/sinew: $(TOOL_OBJ) $(BUILD)/libsinew.a
	$(CC) $(LDFLAGS) -o $@ $(TOOL_OBJ) $(BUILD)/libsinew.a $(LDLIBS)

$(BUILD)/sinew-view: $(VIEW_OBJ) $(OBJ)/tools/raster.o $(BUILD)/libsinew.a
	$(CC) $(LDFLAGS) -o $@ $(VIEW_OBJ) $(OBJ)/tools/raster.o $(BUILD)/libsinew.a $(SDL_LIBS) $(LDLIBS)

$(BUILD)/tests/%: $(OBJ)/tests/%.o $(TEST_SUPPORT_OBJ) $(BUILD)/libsinew.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(TEST_SUPPORT_OBJ) $(BUILD)/libsinew.a -lcmocka $(LDLIBS)

test: $(TEST_BIN) $(BUILD)/sinew
	@sh scripts/run_tests.sh $(BUILD) $(TEST_BIN)

# Screenshots of scenes taken by sinew-view under xvfb-run and checked (scripts/test_viewer.sh).
test-viewer: $(BUILD)/sinew-view
	@sh scripts/deps.sh xvfb
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

golden: $(BUILD)/sinew
	@sh scripts/golden.sh $(BUILD)/sinew update

install: all
	install -d $(DESTDIR)$(PREFIX)/include/sinew $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 include/sinew/*.h $(DESTDIR)$(PREFIX)/include/sinew/
	install -m 644 $(BUILD)/libsinew.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libsinew.so $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/sinew $(BUILD)/sinew-view $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@PREFIX@|$(PREFIX)|' scripts/sinew.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/sinew.pc

clean:
	rm -rf build out

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
