#!/bin/sh
# Make sure the Debian packages the build needs are installed. Installs them (apt-get update
# first) when their headers are missing and we are root; otherwise says what to install.
# Quiet when everything is present. Exit 0 when the build can go ahead.
need=""
[ -f /usr/include/cmocka.h ] || need="$need libcmocka-dev"
[ -f /usr/include/stb/stb_ds.h ] || need="$need libstb-dev"
[ -f /usr/include/jansson.h ] || need="$need libjansson-dev"
[ -f /usr/include/SDL2/SDL.h ] || need="$need libsdl2-dev" # the viewer, build/sinew-view
for extra in "$@"; do
	case "$extra" in
	box2d) [ -f /usr/include/box2d/box2d.h ] || need="$need libbox2d-dev" ;;
	chipmunk) [ -f /usr/include/chipmunk/chipmunk.h ] || need="$need libchipmunk-dev" ;;
	sdl2) [ -f /usr/include/SDL2/SDL.h ] || need="$need libsdl2-dev" ;;
	xvfb) # make test-viewer: a virtual X display for the screenshots
		command -v xvfb-run >/dev/null 2>&1 || need="$need xvfb"
		command -v xauth >/dev/null 2>&1 || need="$need xauth" ;;
	esac
done
[ -z "$need" ] && exit 0

if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null 2>&1; then
	echo "sinew: missing packages:$need" >&2
	echo "sinew: install them with: sudo apt-get install$need" >&2
	exit 1
fi
SUDO=""
[ "$(id -u)" != 0 ] && SUDO="sudo -n"
echo "sinew: installing$need" >&2
if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need; } >/tmp/sinew-deps.log 2>&1; then
	echo "sinew: could not install$need (log: /tmp/sinew-deps.log)" >&2
	echo "sinew: install them with: sudo apt-get install$need" >&2
	exit 1
fi
exit 0
