#!/bin/sh
# make test-viewer: screenshots taken by sinew-view under a virtual display (xvfb-run), checked by
# `sinew-view --check` (no display needed for that): not blank; the figures' (or named bodies')
# pixels are where the trace written with the screenshot says they are; the shot after the ragdoll
# differs from the one before; a body dragged with the mouse (--drag: the target joint) ends up
# under the cursor; the power keys (P twice, [ four times, ] once, 4) leave the harness's figure
# braced at influence 0.7 with its left arm a partial ragdoll, read back through the API
# (--rig-state), and the figure drawn where the trace says. The harness scene when
# scenes/harness.json exists (standing, then ragdolled with R), else the stickman of
# rig_props.json at two steps (or the rig-free ragdolls50.json); a joint scene; the target
# joints' scene. Shots go to $SINEW_VIEW_OUT (default build/viewer-test). Ends with one line
# "test-viewer: N passed, N failed".
build=$1
view=$build/sinew-view
out=${SINEW_VIEW_OUT:-build/viewer-test}
mkdir -p "$out"
size=960x540
# Under SAN=1: SDL's D-Bus library keeps a buffer to the end, which is not the viewer's leak.
case "$out" in /*) supp=$out/lsan.supp ;; *) supp=$PWD/$out/lsan.supp ;; esac
printf 'leak:libdbus-1.so\n' > "$supp"
export LSAN_OPTIONS="suppressions=$supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

if [ -f scenes/harness.json ]; then
	# standing at step 100; R pressed at step 100 and the shot at 145, before the script's own
	# ragdoll op at 150
	figure=scenes/harness.json; before=100; after=145; ragdoll="--ragdoll-at 100"; expect="@rigs"
	stand="--expect-state animated"; limp="--expect-state ragdoll"
elif [ -f scenes/rig_props.json ]; then
	figure=scenes/rig_props.json; before=1; after=90; ragdoll=""; expect="@rigs"; limp=""; stand=""
else
	figure=scenes/ragdolls50.json; before=1; after=90; ragdoll=""; expect="h0_torso h0_head h49_torso"; limp=""; stand=""
fi
joints=scenes/revolute.json
# The power keys, on the harness's stickman at step 60 (standing, so a limb may go physical).
power=""
power_keys="pp[[[[]4"
power_expect="stickman power braced influence 0.70 limbs left_arm"
if [ -f scenes/harness.json ]; then
	power="&& '$view' scenes/harness.json --screenshot '$out/power.png' --steps 60 --size $size --trace '$out/power.json' --press '$power_keys' --rig-state '$out/power.txt'"
fi

# One display for every shot (starting Xvfb is the slow part).
if ! xvfb-run -a sh -c "
	'$view' '$figure' --screenshot '$out/figure_before.png' --steps $before --size $size --trace '$out/figure_before.json' &&
	'$view' '$figure' --screenshot '$out/figure_after.png' --steps $after --size $size --trace '$out/figure_after.json' $ragdoll &&
	'$view' '$joints' --screenshot '$out/joints.png' --steps 120 --size $size --trace '$out/joints.json' &&
	'$view' scenes/target.json --screenshot '$out/drag.png' --steps 120 --size $size --trace '$out/drag.json' --drag 480,235,300,150 $power
" >"$out/xvfb.log" 2>&1; then
	cat "$out/xvfb.log"
	echo "test-viewer: the screenshots could not be taken"
	echo "test-viewer: 0 passed, 1 failed"
	exit 1
fi

passed=0; failed=0
check() {
	if "$view" --check "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}
expects() {
	for name in $expect; do printf ' --expect %s' "$name"; done
}
# shellcheck disable=SC2046
check "$figure" "$out/figure_before.png" --trace "$out/figure_before.json" $(expects) $stand
# shellcheck disable=SC2046
check "$figure" "$out/figure_after.png" --trace "$out/figure_after.json" $(expects) $limp --differs "$out/figure_before.png"
check "$joints" "$out/joints.png" --trace "$out/joints.json" --expect arm --expect flap --expect crank
# the middle box of target.json (its top at pixel (480, 202) in a 960x540 shot), grabbed by its
# face and pulled up and left: it hangs from the cursor
check scenes/target.json "$out/drag.png" --trace "$out/drag.json" --expect springy_box --expect-at springy_box 300 150 40
if [ -n "$power" ]; then
	check scenes/harness.json "$out/power.png" --trace "$out/power.json" --expect @rigs --expect-state animated
	if [ "$(cat "$out/power.txt")" = "$power_expect" ]; then
		passed=$((passed + 1))
	else
		echo "power keys '$power_keys': $(cat "$out/power.txt"), expected: $power_expect"
		failed=$((failed + 1))
	fi
fi
echo "test-viewer: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
