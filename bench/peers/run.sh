#!/bin/sh
# make bench-peers: bench/peers/run.sh BUILD REPEAT [SCENES...]
# Installs Box2D 2.4 and Chipmunk 7 if needed (scripts/deps.sh), builds the peers into
# BUILD/peers/, then runs sinew, Box2D and Chipmunk in turn on each scene (sinew first) with R
# runs each, and prints one table (bench/peers/compare.py). A peer whose package is missing is
# skipped with a message. PEER_MAX_SECONDS (default 300) bounds one peer run: a run that goes
# past it stops and reports the steps it took (the table says so).
BUILD=${1:-build}
REPEAT=${2:-3}
shift 2 2>/dev/null
SCENES="$*"
[ -z "$SCENES" ] && SCENES=$(ls scenes/bench/*.json)
MAX_SECONDS=${PEER_MAX_SECONDS:-300}
OUT=$BUILD/peers
mkdir -p "$OUT"

sh scripts/deps.sh box2d chipmunk || echo "bench-peers: could not install every peer package; peers without one are skipped" >&2

PEERS=""
if [ -f /usr/include/box2d/box2d.h ]; then
	if g++ -O2 -std=c++17 -Wall -Wextra -Ibench/peers bench/peers/box2d_peer.cpp -o "$OUT/box2d_peer" -lbox2d -ljansson; then
		PEERS="$PEERS box2d"
	else
		echo "bench-peers: skipping Box2D: box2d_peer did not build" >&2
	fi
else
	echo "bench-peers: skipping Box2D: libbox2d-dev is not installed (sudo apt-get install libbox2d-dev)" >&2
fi
if [ -f /usr/include/chipmunk/chipmunk.h ]; then
	if cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Ibench/peers bench/peers/chipmunk_peer.c -o "$OUT/chipmunk_peer" -lchipmunk -ljansson -lm; then
		PEERS="$PEERS chipmunk"
	else
		echo "bench-peers: skipping Chipmunk: chipmunk_peer did not build" >&2
	fi
else
	echo "bench-peers: skipping Chipmunk: libchipmunk-dev is not installed (sudo apt-get install libchipmunk-dev)" >&2
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
