#!/bin/sh
# Determinism across builds: builds sinew at -O0 (BUILD=build/o0) and with the contact solver's
# four-lane kernel on its plain-C path instead of SSE2 (BUILD=build/scalar, -U__SSE2__), and checks
# both against the golden hashes the default -O2 build made (tests/golden/), and the default build
# with SINEW_SIMD=sse2 (the four-lane SSE2 kernel where the CPU would run a wider one) and SINEW_SIMD=avx
# (eight lanes at most where the CPU would run the sixteen-lane AVX-512 one).
# and the whole build with clang instead of gcc (BUILD=build/clang).
# Every scene must match: the solver's answer does not depend on the optimisation level or on the
# SIMD path. golden.sh leaves joint_grid to tests/test_joint_loops.c (the default build only), so
# its first 20 steps are hashed here by every build and compared with the default build's hash: the
# loop rows' conjugate-gradient products have their own SSE2/AVX/plain-C paths.
set -e
grid=scenes/joint_grid.json
grid_hash() { env $2 "$1" run "$grid" --steps 20 --hash 2>/dev/null | sed -n 's/^hash: //p'; }
make -j2 build/sinew > /dev/null
grid_ref=$(grid_hash build/sinew)
[ -n "$grid_ref" ] || { echo "determinism: joint_grid: sinew run failed"; exit 1; }
grid_check() { # grid_check SINEW [VAR=VALUE]
	h=$(grid_hash "$1" "$2")
	if [ "$h" != "$grid_ref" ]; then echo "determinism: joint_grid 20 steps: $1 $2 gave '$h', expected $grid_ref"; exit 1; fi
	echo "determinism: ok joint_grid 20 steps ($1 $2)"
}
make -j2 BUILD=build/o0 OPT="-O0 -g" build/o0/sinew > /dev/null
sh scripts/golden.sh build/o0/sinew check
grid_check build/o0/sinew
make -j2 BUILD=build/scalar CFLAGS="-U__SSE2__" build/scalar/sinew > /dev/null
sh scripts/golden.sh build/scalar/sinew check
grid_check build/scalar/sinew
make -j2 BUILD=build/clang CC=clang build/clang/sinew > /dev/null
sh scripts/golden.sh build/clang/sinew check
grid_check build/clang/sinew
SINEW_SIMD=sse2 sh scripts/golden.sh build/sinew check
grid_check build/sinew SINEW_SIMD=sse2
SINEW_SIMD=avx sh scripts/golden.sh build/sinew check
grid_check build/sinew SINEW_SIMD=avx
