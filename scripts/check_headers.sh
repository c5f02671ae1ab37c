#!/bin/sh
# Compile each public header alone, as C99, C11 and C++11, with warnings as errors. The files go to a
# directory of this run's own (make test runs its tests side by side, and so may other checkouts).
status=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for h in include/sinew/*.h; do
	name=$(basename "$h")
	printf '#include "sinew/%s"\n' "$name" > "$tmp/check.c"
	for std in c99 c11; do
		if ! ${CC:-cc} -std=$std -Wall -Wextra -Wpedantic -Werror -Iinclude -fsyntax-only "$tmp/check.c"; then
			echo "header $name does not compile alone as $std"; status=1
		fi
	done
	if command -v c++ >/dev/null 2>&1; then
		cp "$tmp/check.c" "$tmp/check.cpp"
		if ! c++ -std=c++11 -Wall -Wextra -Werror -Iinclude -fsyntax-only "$tmp/check.cpp"; then
			echo "header $name does not compile as C++"; status=1
		fi
	fi
done
exit $status
