#!/bin/sh
# Run every cmocka test binary, then the golden-hash check of every scene (not with SAN set), then the code examples
# of the docs (scripts/doc_examples.sh: each example one test); print one closing line
# "N passed, N failed" and exit non-zero if anything failed.
build=$1; shift
passed=0; failed=0; failed_names=""
for t in "$@"; do
	name=$(basename "$t")
	out=$("$t" 2>&1); rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
	if [ $rc -ne 0 ] && [ -z "$f" ]; then failed=$((failed + 1)); fi
	[ $rc -ne 0 ] && failed_names="$failed_names $name"
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
