#!/bin/sh
# Run every cmocka test binary, then the golden-hash check of every scene and the install check
# (scripts/check_link.sh; neither with SAN set), then the code examples
# of the docs (scripts/doc_examples.sh: each example one test); print one closing line
# "N passed, N failed" and exit non-zero if anything failed.
#
# The binaries run side by side, TEST_JOBS at a time (default: one per core), the longest first by
# the times of the last run (kept in BUILD/tests/.times), so the longest does not start last. Each
# one's output is kept and printed whole, in the order given, as if they had run one by one.

# run_tests.sh --one BINARY DIR: run one binary, its output, exit status and milliseconds into DIR
if [ "${1:-}" = --one ]; then
	t=$2; dir=$3; name=$(basename "$t")
	start=$(date +%s%N)
	"$t" > "$dir/$name.out" 2>&1
	echo $? > "$dir/$name.rc"
	end=$(date +%s%N)
	echo "$name $(((end - start) / 1000000))" > "$dir/$name.ms"
	exit 0
fi

build=$1; shift
passed=0; failed=0; failed_names=""
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
times=$build/tests/.times

for t in "$@"; do
	ms=$(sed -n "s/^$(basename "$t") //p" "$times" 2>/dev/null)
	echo "${ms:-999999999} $t"
done | sort -s -k1,1nr | cut -d' ' -f2 | xargs -P "$jobs" -I{} sh "$0" --one {} "$tmp"
cat "$tmp"/*.ms > "$times" 2>/dev/null

for t in "$@"; do
	name=$(basename "$t")
	out=$(cat "$tmp/$name.out" 2>/dev/null); rc=$(cat "$tmp/$name.rc" 2>/dev/null || echo 1)
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
	if [ "$rc" -ne 0 ] && [ -z "$f" ]; then failed=$((failed + 1)); fi
	[ "$rc" -ne 0 ] && failed_names="$failed_names $name"
done
# Under the sanitizers (SAN set) the golden check is left to the plain run, which checks the same
# hashes: running joint_grid's 500 steps under ASan alone took five minutes. Every scene still runs
# under the sanitizers in test_reliability's and test_save's round trips.
if [ -n "${SAN:-}" ]; then
	echo "golden: checked by the plain make test, not under the sanitizers"
elif [ -x "$build/sinew" ] && [ -d tests/golden ]; then
	if sh scripts/golden.sh "$build/sinew" check; then passed=$((passed + 1)); else
		failed=$((failed + 1)); failed_names="$failed_names golden"; fi
fi
# The installed libraries and the README's two pkg-config recipes (not under the sanitizers: a
# program linked against sanitized libraries needs their runtime flags too).
if [ -z "${SAN:-}" ] && [ -f "$build/libsinew.a" ]; then
	if sh scripts/check_link.sh "$build"; then passed=$((passed + 1)); else
		failed=$((failed + 1)); failed_names="$failed_names link"; fi
fi
if [ -f "$build/libsinew.a" ]; then
	out=$(sh scripts/doc_examples.sh "$build" 2>&1); rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^doc examples: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(printf '%s\n' "$out" | sed -n 's/^doc examples: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
	if [ $rc -ne 0 ] && [ -z "$f" ]; then failed=$((failed + 1)); fi
	[ $rc -ne 0 ] && failed_names="$failed_names doc_examples"
fi
[ -n "$failed_names" ] && echo "failing:$failed_names"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ -z "$failed_names" ]
