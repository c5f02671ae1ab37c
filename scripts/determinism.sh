#!/bin/sh
# Determinism across builds: builds sinew at -O0 (BUILD=build/o0) and with the contact solver's
# four-lane kernel on its plain-C path instead of SSE2 (BUILD=build/scalar, -U__SSE2__), and checks
# both against the golden hashes the default -O2 build made (tests/golden/), and the default build
# with SINEW_SIMD=sse2 (the four-lane SSE2 kernel where the CPU would run a wider one) and SINEW_SIMD=avx
# (eight lanes at most where the CPU would run the sixteen-lane AVX-512 one).
# and the whole build with clang instead of gcc (BUILD=build/clang).
# Every scene must match: the solver's answer does not depend on the optimisation level or on the
# SIMD path.
set -e
make -j2 BUILD=build/o0 OPT="-O0 -g" build/o0/sinew > /dev/null
sh scripts/golden.sh build/o0/sinew check
make -j2 BUILD=build/scalar CFLAGS="-U__SSE2__" build/scalar/sinew > /dev/null
sh scripts/golden.sh build/scalar/sinew check
make -j2 BUILD=build/clang CC=clang build/clang/sinew > /dev/null
sh scripts/golden.sh build/clang/sinew check
make -j2 build/sinew > /dev/null
SINEW_SIMD=sse2 sh scripts/golden.sh build/sinew check
SINEW_SIMD=avx sh scripts/golden.sh build/sinew check
