#!/bin/sh
# Compile each public header alone, as C11 and as C++, with warnings as errors.
status=0
for h in include/sinew/*.h; do
	name=$(basename "$h")
	printf '#include "sinew/%s"\n' "$name" > /tmp/sinew_header_check.c
	if ! ${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude -fsyntax-only /tmp/sinew_header_check.c; then
		echo "header $name does not compile alone"; status=1
	fi
	if command -v c++ >/dev/null 2>&1; then
		cp /tmp/sinew_header_check.c /tmp/sinew_header_check.cpp
		if ! c++ -std=c++11 -Wall -Wextra -Werror -Iinclude -fsyntax-only /tmp/sinew_header_check.cpp; then
			echo "header $name does not compile as C++"; status=1
		fi
	fi
done
exit $status
