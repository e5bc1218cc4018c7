#!/usr/bin/env bash
# `meson install` into a temporary root puts ossa, ossa-view (when built), libossa, its headers
# and ossa.pc in place, and a program outside the project builds against them with nothing but
# `pkg-config --cflags --libs ossa`, runs without LD_LIBRARY_PATH (ossa.pc's rpath), and agrees
# with `ossa sample` on the demo.
# usage: check_install.sh BUILD_ROOT SOURCE_ROOT CC SANITIZE VIEWER_BUILT
set -euo pipefail
build=$1 src=$2 cc=$3 sanitize=$4 viewer=$5
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
meson install -C "$build" --destdir "$root" --no-rebuild --quiet >"$root/install.log" 2>&1 ||
    { cat "$root/install.log"; exit 1; }

prefix=$(meson introspect "$build" --buildoptions |
         python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"))')
fail() { echo "FAIL: $*"; exit 1; }
[ -x "$root$prefix/bin/ossa" ] || fail "ossa not installed in $prefix/bin"
if [ "$viewer" = true ]; then
    [ -x "$root$prefix/bin/ossa-view" ] || fail "ossa-view not installed"
fi
pc=$(find "$root" -name ossa.pc | head -n1)
[ -n "$pc" ] || fail "no ossa.pc installed"
for h in ossa.h model.h load.h reference.h; do
    [ -f "$root$prefix/include/ossa/$h" ] || fail "header ossa/$h not installed"
done

# The staged root stands for the prefix given to ./run.sh install: with prefix set to it, the
# -I, -L and rpath of ossa.pc name the staged files.
export PKG_CONFIG_PATH=$(dirname "$pc")
flags=$(pkg-config --define-variable=prefix="$root$prefix" --cflags --libs ossa) ||
    fail "pkg-config --cflags --libs ossa"
case "$flags" in *-rpath*) ;; *) fail "ossa.pc's Libs has no rpath: $flags" ;; esac
echo "pkg-config --cflags --libs ossa: $flags"
extra=()
if [ "$sanitize" != none ]; then extra=(-fsanitize="$sanitize"); fi
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Wextra -Werror "${extra[@]}" -o "$root/consumer" "$src/tests/install/consumer.c" $flags ||
    fail "the consumer program does not build against the installed Ossa"
# Run as a user would: no LD_LIBRARY_PATH; the rpath finds libossa.
got=$(env -u LD_LIBRARY_PATH ASAN_OPTIONS=detect_leaks=1 "$root/consumer" "$src/assets/cal3d/mannequin.cfg") ||
    fail "the consumer program failed (does it find libossa.so.0?)"
echo "consumer: $got"
want=$("$root$prefix/bin/ossa" sample "$src/assets/cal3d/mannequin.cfg" --clip 0 --time 0.25 |
       sed -n 2p | awk -F, '{printf "vertex0 %.4f %.4f %.4f", $4, $5, $6}')
case "$got" in
    *"$want") echo "agrees with ossa sample: $want" ;;
    *) fail "consumer says '$got', ossa sample '$want'" ;;
esac
echo "install: ok"
