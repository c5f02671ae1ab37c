#!/bin/sh
# Run each libFuzzer harness for SECONDS (make fuzz; docs/reliability.md).
# usage: fuzz.sh BUILD SECONDS HARNESS...
# Each harness starts from its regression corpus (tests/fuzz/corpus/NAME/: every input that ever
# crashed stays there) and, for the scene loader, every scene of scenes/; new inputs go to
# BUILD/corpus/NAME/ and crashes to BUILD/crashes/. Prints each run's last status line (executions,
# coverage) and exits non-zero if any harness found a crash, a hang or a sanitizer report.
set -u
build=$1; seconds=$2; shift 2
status=0
for h in "$@"; do
	name=${h#fuzz_}
	mkdir -p "$build/corpus/$name" "$build/crashes"
	seeds="tests/fuzz/corpus/$name"
	dict=""
	if [ "$name" = scene ]; then
		# the scenes of scenes/ (not scenes/bench/: too slow for 30 steps under the sanitizers;
		# libFuzzer reads a directory recursively, so they are copied)
		mkdir -p "$build/seeds/scene"
		cp scenes/*.json "$build/seeds/scene/"
		seeds="$seeds $build/seeds/scene"
		dict="-dict=tests/fuzz/scene.dict"
	fi
	log="$build/$h.log"
	echo "fuzz: $h for ${seconds}s (log $log)"
	# -timeout: a single input that takes more than FUZZ_TIMEOUT s of wall time (default 20) is a
	# hang (on a machine so loaded that a seed scene's 30 steps take that long, raise it);
	# -rss_limit_mb: 2 GB is a leak or an amplification the loader should have refused.
	"$build/$h" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb=2048 -max_len=65536 \
		-print_final_stats=1 -artifact_prefix="$build/crashes/$name-" $dict \
		"$build/corpus/$name" $seeds >"$log" 2>&1
	rc=$?
	grep -E '^#[0-9]+[[:space:]]+(DONE|pulse)' "$log" | tail -n 1
	grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$log"
	if [ $rc -ne 0 ]; then
		echo "fuzz: $h FAILED (exit $rc); the report:"
		grep -E -A30 'ERROR: |runtime error|fuzz_(api|scene): |Test unit written' "$log" | head -n 60
		status=1
	fi
done
exit $status
