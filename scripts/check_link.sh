#!/bin/sh
# What README.md's `make install` promises a program that embeds sinew, checked on a real install
# (make install-lib) into a temporary directory:
# - libsinew.so.X.Y.Z carries the SONAME libsinew.so.X (X the major version of base.h);
# - a program linked with `pkg-config --libs sinew` needs libsinew.so.X and runs against it;
# - a program linked with `pkg-config --static --libs sinew-static` needs no libsinew at all.
# usage: check_link.sh BUILD   prints "link: passed" or what is wrong, and exits non-zero on a fault
build=$1
cc=${CC:-cc}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "link: FAILED: $*"; exit 1; }
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p'; }

major=$(sed -n 's/^#define SINEW_VERSION_MAJOR \([0-9]*\).*/\1/p' include/sinew/base.h)
[ -n "$major" ] || fail "no SINEW_VERSION_MAJOR in include/sinew/base.h"
${MAKE:-make} -s --no-print-directory install-lib BUILD="$build" PREFIX="$tmp/prefix" \
	> "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "make install-lib"; }
lib=$tmp/prefix/lib
real=$(readlink "$lib/libsinew.so") || fail "$lib/libsinew.so is not a link"
soname=$(readelf -d "$lib/$real" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
[ "$soname" = "libsinew.so.$major" ] || fail "$real has SONAME '$soname', want libsinew.so.$major"
[ "$(readlink "$lib/$soname")" = "$real" ] || fail "$lib/$soname does not link to $real"

cat > "$tmp/prog.c" <<'PROG'
#include <sinew/sinew.h>
#include <stdio.h>
int main(void)
{
	sinew_world_def wd = sinew_default_world_def();
	sinew_world_id world = sinew_create_world(&wd);
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_DYNAMIC_BODY;
	sinew_body_id ball = sinew_create_body(world, &bd);
	for (int i = 0; i < 60; i++)
		sinew_world_step(world, 1.0f / 60.0f, 4);
	sinew_vec2 p = sinew_body_get_position(ball);
	printf("%.1f\n", (double)p.y);
	sinew_destroy_world(world);
	return 0;
}
PROG
export PKG_CONFIG_PATH="$lib/pkgconfig"
# One second of free fall from rest: y = -g/2 (g = 10 by default) within the integrator's error.
check_run() { # check_run PROGRAM [ENV]: runs it and checks what it prints
	out=$(env $2 "$1") || fail "$1 did not run: $out"
	case "$out" in -4.9|-5.0|-5.1) ;; *) fail "$1 printed '$out', want about -5.0" ;; esac
}
# shellcheck disable=SC2046
$cc -o "$tmp/shared" "$tmp/prog.c" $(pkg-config --cflags --libs sinew) 2> "$tmp/cc.log" ||
	{ cat "$tmp/cc.log"; fail "linking with pkg-config sinew"; }
needed "$tmp/shared" | grep -qx "libsinew.so.$major" || fail "the shared build does not need libsinew.so.$major"
check_run "$tmp/shared" "LD_LIBRARY_PATH=$lib"
# shellcheck disable=SC2046
$cc -o "$tmp/static" "$tmp/prog.c" $(pkg-config --static --cflags --libs sinew-static) 2> "$tmp/cc.log" ||
	{ cat "$tmp/cc.log"; fail "linking with pkg-config --static sinew-static"; }
needed "$tmp/static" | grep -q libsinew && fail "the static build still needs $(needed "$tmp/static" | grep libsinew)"
check_run "$tmp/static" ""
echo "link: passed"
