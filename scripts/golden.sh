#!/bin/sh
# Golden hashes: `golden.sh SINEW check` compares `sinew run SCENE --hash` for every scene in
# scenes/ with tests/golden/NAME.hash; `golden.sh SINEW update` rewrites them (make golden).
# Goldens change only on purpose: say why in the commit. The scenes run one per core
# (GOLDEN_JOBS, default nproc): joint_grid alone takes most of a minute.
sinew=$1; mode=$2
if [ "$mode" = one ]; then # golden.sh SINEW one check|update SCENE: one scene, one line of output
	mode=$3; scene=$4; name=$(basename "$scene" .json); file=tests/golden/$name.hash
	# joint_grid's hash is checked by tests/test_joint_loops.c at the end of the 500 steps it runs
	# anyway (the slowest scene here, it ran twice); `make golden` still writes it
	case "$mode:$name" in check:joint_grid) echo "golden: ok $name (tests/test_joint_loops.c)"; exit 0;; esac
	hash=$("$sinew" run "$scene" --hash 2>/dev/null | sed -n 's/^hash: //p')
	if [ -z "$hash" ]; then echo "golden: $name: sinew run failed"
	elif [ "$mode" = update ]; then echo "$hash" > "$file"; echo "golden: $name $hash"
	elif [ ! -f "$file" ]; then echo "golden: $name: no tests/golden/$name.hash (run make golden)"
	elif [ "$(cat "$file")" != "$hash" ]; then echo "golden: $name: hash $hash, expected $(cat "$file")"
	else echo "golden: ok $name"; fi
	exit 0
fi
jobs=${GOLDEN_JOBS:-$(nproc 2>/dev/null || echo 1)}
out=$(ls scenes/*.json | xargs -P "$jobs" -n 1 sh "$0" "$sinew" one "$mode" | sort)
checked=$(printf '%s\n' "$out" | grep -c '^golden: ok ')
bad=$(printf '%s\n' "$out" | grep -v '^golden: ok ' | grep -c .)
if [ "$mode" = update ]; then printf '%s\n' "$out"; [ "$(printf '%s\n' "$out" | grep -c 'failed$')" -eq 0 ]; exit; fi
[ "$bad" -gt 0 ] && { printf '%s\n' "$out" | grep -v '^golden: ok '; exit 1; }
echo "golden: $checked scenes match"
