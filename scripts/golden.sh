#!/bin/sh
# Golden hashes: `golden.sh SINEW check` compares `sinew run SCENE --hash` for every scene in
# scenes/ with tests/golden/NAME.hash; `golden.sh SINEW update` rewrites them (make golden).
# Goldens change only on purpose: say why in the commit.
sinew=$1; mode=$2; status=0; checked=0
for scene in scenes/*.json; do
	[ -f "$scene" ] || continue
	name=$(basename "$scene" .json)
	hash=$("$sinew" run "$scene" --hash 2>/dev/null | sed -n 's/^hash: //p')
	if [ -z "$hash" ]; then echo "golden: $name: sinew run failed"; status=1; continue; fi
	file=tests/golden/$name.hash
	if [ "$mode" = update ]; then echo "$hash" > "$file"; echo "golden: $name $hash"; continue; fi
	checked=$((checked + 1))
	if [ ! -f "$file" ]; then echo "golden: $name: no tests/golden/$name.hash (run make golden)"; status=1
	elif [ "$(cat "$file")" != "$hash" ]; then echo "golden: $name: hash $hash, expected $(cat "$file")"; status=1; fi
done
[ "$mode" = check ] && [ $status -eq 0 ] && echo "golden: $checked scenes match"
exit $status
