#!/bin/sh
# Check the code examples of README.md and docs/*.md against the library, so that a doc cannot
# say what the code does not do. `make test` runs it; each example counts as one test.
#
#   ```c with a main()   compiled as C11 with warnings as errors, linked with BUILD/libsinew.a and
#                        run; its standard output must equal the next unlabelled ``` block (the
#                        doc's "it prints"), when one follows before the next C example.
#   ```c fragment        compiled (-fsyntax-only) inside a function, with the names the docs'
#                        fragments use declared by the prelude below. Lines that start with `#`
#                        and everything before a line `...` are at file scope.
#   ```json scene        a whole scene file (it has "sinew_scene") must pass `sinew check`.
#   ```sh with `$ ./build/sinew ...` lines: each command is run and its output compared with the
#                        lines under it, with "N ms/step" read as any time (times are the machine's).
# Other blocks (shell recipes, JSON fragments, diagrams) are not checked.
#
# usage: doc_examples.sh BUILD [FILE.md...]   (CC, CFLAGS and LDFLAGS from the environment)
# Prints one line per failure and closes with "doc examples: N passed, N failed".
build=${1:-build}; shift 2>/dev/null
[ $# -eq 0 ] && set -- README.md docs/*.md
cc=${CC:-cc}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0

fail() { # fail WHERE WHAT [FILE]: report one failing example
	failed=$((failed + 1))
	echo "doc example $1: $2"
	[ -n "$3" ] && sed 's/^/    /' "$3" | head -n 40
}

# Split every file into blocks: $tmp/N.body, and one line "N LANG LINE FILE OUTPUT_OF" per
# block in $tmp/list, where OUTPUT_OF is the C program block an unlabelled block shows the
# output of (0 for none).
n=0
for md in "$@"; do
	n=$(awk -v dir="$tmp" -v md="$md" -v n="$n" '
		/^```/ {
			if (!inside) {
				inside = 1; n++; lang = substr($0, 4); start = FNR
				out = dir "/" n ".body"; printf "" > out
				of = 0
				if (lang == "" && last_main > 0) of = last_main
				next
			}
			inside = 0; close(out)
			if (lang == "c") last_main = is_main ? n : 0
			if (lang == "" && of > 0) last_main = 0
			printf "%d %s %d %s %d\n", n, (lang == "" ? "-" : lang), start, md, of >> (dir "/list")
			is_main = 0
			next
		}
		inside { print > out; if (lang == "c" && $0 ~ /int main\(/) is_main = 1 }
		END { print n }' "$md") || exit 1
done
[ -f "$tmp/list" ] || { echo "doc examples: 0 passed, 0 failed"; exit 0; }

# What the fragments may use without declaring it: a world, bodies and the callbacks the guide
# names. Compile-only, so nothing here needs a value.
cat > "$tmp/prelude.h" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include "sinew/sinew.h"
#include "sinew/draw.h"
#include "sinew/scene.h"
#include "sinew/rig.h"
#include "sinew/ragdoll.h"
extern sinew_world_id world;
extern sinew_body_id player, paddle, upper_arm, forearm, ground, body;
extern sinew_body_id ragdoll_bodies[10], rig_bodies[10];
extern int ragdoll_body_count;
extern uint32_t next_group;
extern float x, y, angle, dt, speed;
void run_the_next_action(void);
extern sinew_vec2 hip;
extern sinew_rig *rig;
extern bool hit, get_up;
extern int my_canvas;
extern void *my_context;
extern __typeof__(((sinew_debug_draw *)0)->draw_solid_polygon) my_solid_polygon;
extern __typeof__(((sinew_debug_draw *)0)->draw_solid_circle) my_solid_circle;
extern __typeof__(((sinew_debug_draw *)0)->draw_solid_capsule) my_solid_capsule;
extern __typeof__(((sinew_debug_draw *)0)->draw_segment) my_segment;
extern __typeof__(((sinew_debug_draw *)0)->draw_point) my_point;
extern __typeof__(((sinew_allocator *)0)->alloc) my_alloc;
extern __typeof__(((sinew_allocator *)0)->realloc) my_realloc;
extern __typeof__(((sinew_allocator *)0)->free) my_free;
EOF

check_program() { # N WHERE EXPECTED_BLOCK
	if ! $cc -std=c11 -Wall -Wextra -Werror $CFLAGS -Iinclude "$tmp/$1.c" "$build/libsinew.a" $LDFLAGS \
		-ljansson -lm -o "$tmp/$1.bin" > "$tmp/$1.log" 2>&1; then
		fail "$2" "does not compile" "$tmp/$1.log"; return
	fi
	if ! "$tmp/$1.bin" > "$tmp/$1.out" 2> "$tmp/$1.log"; then
		fail "$2" "exits with an error" "$tmp/$1.log"; return
	fi
	if [ -n "$3" ] && ! diff -u "$3" "$tmp/$1.out" > "$tmp/$1.diff"; then
		fail "$2" "prints something else than the doc shows (- doc, + printed)" "$tmp/$1.diff"; return
	fi
	passed=$((passed + 1))
}

check_fragment() { # N WHERE
	awk -v prelude="$tmp/prelude.h" '
		BEGIN { print "#include \"" prelude "\"" }
		{ lines[NR] = $0; if ($0 ~ /^\.\.\.$/) split_at = NR }
		END {
			for (i = 1; i <= NR; i++) if (i < split_at || (lines[i] ~ /^#/ && !split_at)) print lines[i]
			print "void doc_example(void);"
			print "void doc_example(void)"
			print "{"
			for (i = split_at + 1; i <= NR; i++) if (split_at || lines[i] !~ /^#/) print lines[i]
			print "}"
		}' "$tmp/$1.body" > "$tmp/$1.c"
	if ! $cc -std=gnu11 -Wall -Wno-unused-variable -Wno-unused-but-set-variable -Wno-unused-parameter -Werror -Iinclude -fsyntax-only \
		"$tmp/$1.c" > "$tmp/$1.log" 2>&1; then
		fail "$2" "does not compile" "$tmp/$1.log"; return
	fi
	passed=$((passed + 1))
}

check_scene() { # N WHERE
	cp "$tmp/$1.body" "$tmp/$1.json"
	if ! "$build/sinew" check "$tmp/$1.json" > "$tmp/$1.log" 2>&1; then
		fail "$2" "sinew check refuses it" "$tmp/$1.log"; return
	fi
	passed=$((passed + 1))
}

check_session() { # N WHERE: "$ ./build/sinew ..." lines and the output under each
	awk -v dir="$tmp/$1" '
		/^\$ / { k++; cmd = substr($0, 3); print cmd > (dir "." k ".cmd"); printf "" > (dir "." k ".want"); next }
		k { print > (dir "." k ".want") }' "$tmp/$1.body"
	for cmd in "$tmp/$1".*.cmd; do
		[ -f "$cmd" ] || continue
		want=${cmd%.cmd}.want
		line=$(sed "s|^\./build/|$build/|" "$cmd")
		case "$line" in "$build"/sinew\ *) ;; *) continue ;; esac
		sh -c "$line" > "${cmd%.cmd}.got" 2>&1
		times='s/[0-9][0-9.]* ms\/step/T ms\/step/'
		if ! sed "$times" "$want" > "$want.t" || ! sed "$times" "${cmd%.cmd}.got" > "${cmd%.cmd}.got.t" ||
			! diff -u "$want.t" "${cmd%.cmd}.got.t" > "$tmp/$1.diff"; then
			fail "$2" "\`$(cat "$cmd")\` prints something else (- doc, + printed)" "$tmp/$1.diff"; return
		fi
	done
	passed=$((passed + 1))
}

while read -r idx lang line md of; do
	where="$md:$line"
	case "$lang" in
	c)
		if grep -q 'int main(' "$tmp/$idx.body"; then
			cp "$tmp/$idx.body" "$tmp/$idx.c"
			expected=$(awk -v i="$idx" '$5 == i { print $1 }' "$tmp/list")
			check_program "$idx" "$where" "${expected:+$tmp/$expected.body}"
		else
			check_fragment "$idx" "$where"
		fi ;;
	json) grep -q '"sinew_scene"' "$tmp/$idx.body" && check_scene "$idx" "$where" ;;
	sh) grep -q '^\$ \./build/sinew ' "$tmp/$idx.body" && check_session "$idx" "$where" ;;
	esac
done < "$tmp/list"
echo "doc examples: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
