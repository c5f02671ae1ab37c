#!/bin/sh
# make bench-peers: bench/peers/run.sh BUILD REPEAT [SCENES...]
# Installs Box2D 2.4 and Chipmunk 7 if needed (scripts/deps.sh), builds the peers into
# BUILD/peers/, then runs sinew, Box2D and Chipmunk in turn on each scene (sinew first) with R
# runs each, and prints one table (bench/peers/compare.py). A peer whose package is missing is
# skipped with a message. PEER_MAX_SECONDS (default 300) bounds one peer run: a run that goes
# past it stops and reports the steps it took (the table says so).
# Box2D v3: with BOX2D_V3=DIR (a Box2D v3 checkout) the library is built from DIR in Release
# (BOX2D_SAMPLES=OFF, no unit tests) into BOX2D_V3_BUILD (default BUILD/peers/box2d_v3) and
# box2d_v3_peer.c against it; without DIR that column is left out with a message. BENCH_PEERS
# picks peers (default: all of box2d chipmunk box2d_v3 that can be built). BOX2D_V3_AVX2=ON builds
# Box2D v3 with its AVX2 contact solver (default OFF: SSE2); the table's notes say which.
BUILD=${1:-build}
REPEAT=${2:-3}
shift 2 2>/dev/null
SCENES="$*"
[ -z "$SCENES" ] && SCENES=$(ls scenes/bench/*.json)
MAX_SECONDS=${PEER_MAX_SECONDS:-300}
OUT=$BUILD/peers
mkdir -p "$OUT"

WANT=${BENCH_PEERS:-box2d chipmunk box2d_v3}
wants() { case " $WANT " in *" $1 "*) return 0 ;; esac; return 1; }
if wants box2d || wants chipmunk; then
	sh scripts/deps.sh box2d chipmunk || echo "bench-peers: could not install every peer package; peers without one are skipped" >&2
fi

PEERS=""
if ! wants box2d; then
	:
elif [ -f /usr/include/box2d/box2d.h ]; then
	if g++ -O2 -std=c++17 -Wall -Wextra -Ibench/peers bench/peers/box2d_peer.cpp -o "$OUT/box2d_peer" -lbox2d -ljansson; then
		PEERS="$PEERS box2d"
	else
		echo "bench-peers: skipping Box2D: box2d_peer did not build" >&2
	fi
else
	echo "bench-peers: skipping Box2D: libbox2d-dev is not installed (sudo apt-get install libbox2d-dev)" >&2
fi
if ! wants chipmunk; then
	:
elif [ -f /usr/include/chipmunk/chipmunk.h ]; then
	if cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Ibench/peers bench/peers/chipmunk_peer.c -o "$OUT/chipmunk_peer" -lchipmunk -ljansson -lm; then
		PEERS="$PEERS chipmunk"
	else
		echo "bench-peers: skipping Chipmunk: chipmunk_peer did not build" >&2
	fi
else
	echo "bench-peers: skipping Chipmunk: libchipmunk-dev is not installed (sudo apt-get install libchipmunk-dev)" >&2
fi
if ! wants box2d_v3; then
	:
elif [ -z "$BOX2D_V3" ]; then
	echo "bench-peers: no Box2D v3 column: give a Box2D v3 checkout with BOX2D_V3=DIR (make bench-peers BOX2D_V3=DIR)" >&2
elif [ ! -f "$BOX2D_V3/include/box2d/box2d.h" ] || [ ! -f "$BOX2D_V3/CMakeLists.txt" ]; then
	echo "bench-peers: no Box2D v3 column: $BOX2D_V3 is not a Box2D v3 checkout (no include/box2d/box2d.h)" >&2
else
	V3_BUILD=${BOX2D_V3_BUILD:-$OUT/box2d_v3}
	case "${BOX2D_V3_AVX2:-OFF}" in ON|on|1) V3_AVX2=ON V3_SIMD=AVX2 ;; *) V3_AVX2=OFF V3_SIMD=SSE2 ;; esac
	if cmake -S "$BOX2D_V3" -B "$V3_BUILD" -DCMAKE_BUILD_TYPE=Release -DBOX2D_SAMPLES=OFF -DBOX2D_UNIT_TESTS=OFF \
		-DBOX2D_BENCHMARKS=OFF -DBOX2D_AVX2=$V3_AVX2 > "$OUT/box2d_v3_cmake.log" 2>&1 &&
		cmake --build "$V3_BUILD" --target box2d -j 2 >> "$OUT/box2d_v3_cmake.log" 2>&1 &&
		cc -O2 -std=c17 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -DPEER_SIMD="\"$V3_SIMD\"" -Ibench/peers \
			-I"$BOX2D_V3/include" bench/peers/box2d_v3_peer.c -o "$OUT/box2d_v3_peer" "$V3_BUILD/src/libbox2d.a" -ljansson -lm; then
		PEERS="$PEERS box2d_v3"
	else
		echo "bench-peers: skipping Box2D v3: the library or box2d_v3_peer did not build (see $OUT/box2d_v3_cmake.log)" >&2
	fi
fi

RESULTS=$OUT/results.jsonl
: > "$RESULTS"
status=0
for scene in $SCENES; do
	name=$(basename "$scene" .json)
	echo "bench-peers: $name: sinew" >&2
	if "$BUILD/sinew" bench "$scene" --repeat "$REPEAT" --json "$OUT/sinew_$name.json" > /dev/null; then
		echo "@$OUT/sinew_$name.json" >> "$RESULTS"
	else
		echo "bench-peers: $name: sinew bench failed" >&2
		status=1
	fi
	for peer in $PEERS; do
		echo "bench-peers: $name: $peer" >&2
		# Chipmunk prints a banner on stdout: keep the JSON line only.
		if ! "$OUT/${peer}_peer" "$scene" --repeat "$REPEAT" --max-seconds "$MAX_SECONDS" > "$OUT/${peer}_$name.out"; then
			echo "bench-peers: $name: $peer failed" >&2
			status=1
		fi
		grep '^{' "$OUT/${peer}_$name.out" >> "$RESULTS"
	done
done
python3 bench/peers/compare.py "$RESULTS" | tee "$OUT/table.md"
exit $status
