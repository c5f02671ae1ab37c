#!/bin/sh
# `make run`: run every scene given with `sinew run` and print one table (scene, bodies, joints,
# steps, ms/step, awake at the end), and draw each scene's last step to out/NAME.png with
# `sinew render`. Exits non-zero if any scene fails; its error is shown in the table and on stderr.
# usage: run_scenes.sh SINEW SCENE...
if [ $# -lt 2 ]; then
	echo "usage: $0 SINEW SCENE..." >&2
	exit 2
fi
sinew=$1; shift
failed=0
outdir=${SINEW_OUT:-out}
mkdir -p "$outdir" || exit 1
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
printf '%-24s %8s %8s %8s %10s %8s\n' scene bodies joints steps ms/step awake
for scene in "$@"; do
	name=$(basename "$scene")
	if ! out=$("$sinew" run "$scene" 2>"$err"); then
		printf '%-24s FAILED: %s\n' "$name" "$(head -n 1 "$err")"
		cat "$err" >&2
		failed=$((failed + 1))
		continue
	fi
	# "NAME: 900 steps, 211 bodies, 0 joints, 1.371 ms/step, 0 awake"
	row=$(printf '%s\n' "$out" | sed -n 's/^.*: \([0-9]*\) steps, \([0-9]*\) bodies, \([0-9]*\) joints, \([0-9.]*\) ms\/step, \([0-9]*\) awake$/\2 \3 \1 \4 \5/p')
	if [ -z "$row" ]; then
		printf '%-24s FAILED: unexpected output: %s\n' "$name" "$out"
		failed=$((failed + 1))
		continue
	fi
	printf '%-24s %8s %8s %8s %10s %8s\n' "$name" $row
	if ! "$sinew" render "$scene" --out "$outdir/${name%.json}.png" 2>"$err"; then
		printf '%-24s FAILED: render: %s\n' "$name" "$(head -n 1 "$err")"
		cat "$err" >&2
		failed=$((failed + 1))
	fi
done
if [ "$failed" -ne 0 ]; then
	echo "$failed scene(s) failed"
	exit 1
fi
