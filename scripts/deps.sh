#!/bin/sh
# Make sure the Debian packages a group of targets needs are installed, and nothing more.
# usage: deps.sh [GROUP...]   (no group means lib)
#   lib       the library and the sinew program: libjansson-dev, libstb-dev
#   test      the cmocka tests (make test): lib + libcmocka-dev, pkgconf (scripts/check_link.sh)
#   viewer    the interactive viewer, build/sinew-view: lib + libsdl2-dev
#   test-viewer   make test-viewer: viewer + xvfb, xauth (a virtual X display for screenshots)
#   fuzz      the fuzzers: lib + clang
#   box2d, chipmunk, sdl2, xvfb   one package each (make bench-peers asks for box2d chipmunk)
# The Makefile runs it only as a prerequisite of the targets that need the group (deps-GROUP),
# so `make clean` and `make -n` never run it. Installs what is missing (apt-get update first)
# when we are root or have `sudo -n`; otherwise says what to install. Quiet when everything is
# present. Exit 0 when the build can go ahead.
need=""
want() { # want FILE PACKAGE: add PACKAGE unless FILE exists (and PACKAGE is not listed yet)
	[ -e "$1" ] && return
	case " $need " in *" $2 "*) ;; *) need="$need $2" ;; esac
}
lib() {
	want /usr/include/stb/stb_ds.h libstb-dev
	want /usr/include/jansson.h libjansson-dev
}
xvfb() {
	want /usr/bin/xvfb-run xvfb
	want /usr/bin/xauth xauth
}
[ $# -eq 0 ] && set -- lib
check() { # sets $need to the packages the groups named on the command line still lack
need=""
for group in "$@"; do
	case "$group" in
	lib) lib ;;
	test) lib; want /usr/include/cmocka.h libcmocka-dev; want /usr/bin/pkg-config pkgconf ;;
	viewer) lib; want /usr/include/SDL2/SDL.h libsdl2-dev ;;
	test-viewer) lib; want /usr/include/SDL2/SDL.h libsdl2-dev; xvfb ;;
	xvfb) xvfb ;;
	fuzz) lib; want /usr/bin/clang clang ;;
	sdl2) want /usr/include/SDL2/SDL.h libsdl2-dev ;;
	box2d) want /usr/include/box2d/box2d.h libbox2d-dev ;;
	chipmunk) want /usr/include/chipmunk/chipmunk.h libchipmunk-dev ;;
	*) echo "deps.sh: unknown group '$group' (lib, test, viewer, test-viewer, fuzz, sdl2, xvfb, box2d, chipmunk)" >&2; exit 2 ;;
	esac
done
}
check "$@"
[ -z "$need" ] && exit 0

if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null 2>&1; then
	echo "sinew: missing packages:$need" >&2
	echo "sinew: install them with: sudo apt-get install$need" >&2
	exit 1
fi
SUDO=""
[ "$(id -u)" != 0 ] && SUDO="sudo -n"
# make runs several deps-GROUP targets at once (make -j), and apt holds a lock of its own: take
# ours, then look again, since the run that held it may have installed what we lack.
if command -v flock >/dev/null 2>&1; then
	exec 9>"${TMPDIR:-/tmp}/sinew-deps.lock"
	flock 9
	check "$@"
	[ -z "$need" ] && exit 0
fi
echo "sinew: installing$need" >&2
if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need; } >/tmp/sinew-deps.log 2>&1; then
	echo "sinew: could not install$need (log: /tmp/sinew-deps.log)" >&2
	echo "sinew: install them with: sudo apt-get install$need" >&2
	exit 1
fi
exit 0
