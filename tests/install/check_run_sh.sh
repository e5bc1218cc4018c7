#!/usr/bin/env bash
# run.sh: with no command it prints a clean usage (no script text); an unknown command is a usage
# error; `./run.sh view` builds the viewer and what it links, never the test targets (so a first
# view does not wait for the whole test build); `./run.sh install` needs its PREFIX; `./run.sh
# web` builds the page and serves it on 127.0.0.1 only.
# usage: check_run_sh.sh SOURCE_ROOT BUILD_ROOT
set -uo pipefail
src=$1 build=$2
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

out=$("$src/run.sh" 2>&1); rc=$?
[ $rc -eq 0 ] || fail "./run.sh: exit $rc"
case "$out" in "usage: ./run.sh COMMAND"*) ;; *) fail "./run.sh: no usage: $out" ;; esac
for word in "set -" "#!" "PACKAGES"; do
    case "$out" in *"$word"*) fail "./run.sh usage shows script text '$word'" ;; esac
done
for cmd in view test build install web; do
    grep -q "^  $cmd" <<<"$out" || fail "./run.sh usage does not list $cmd"
done
err=$("$src/run.sh" no-such-command 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && [[ $err == "usage: "* ]] || fail "./run.sh no-such-command: exit $rc, stderr '$err'"
"$src/run.sh" install >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "./run.sh install without PREFIX: exit $rc"

# What `./run.sh view` builds, without building it.
plan=$(OSSA_RUN_DRY=1 "$src/run.sh" view some.cfg 2>&1); rc=$?
[ $rc -eq 0 ] || fail "OSSA_RUN_DRY=1 ./run.sh view: exit $rc: $plan"
grep -q "^+ ninja -C build viewer/ossa-view$" <<<"$plan" || fail "view does not build only viewer/ossa-view: $plan"
grep -q "^+ build/viewer/ossa-view some.cfg$" <<<"$plan" || fail "view does not open the file: $plan"
plan=$(OSSA_RUN_DRY=1 OSSA_WEB_PORT=18437 "$src/run.sh" web 2>&1); rc=$?
[ $rc -eq 0 ] || fail "OSSA_RUN_DRY=1 ./run.sh web: exit $rc: $plan"
grep -q "^+ web/build.sh$" <<<"$plan" || fail "web does not run web/build.sh: $plan"
grep -q "http://127.0.0.1:18437/" <<<"$plan" || fail "web does not print its URL: $plan"
grep -q "^+ python3 -m http.server --bind 127.0.0.1 --directory build-web/site 18437$" <<<"$plan" ||
    fail "web does not serve build-web/site on 127.0.0.1: $plan"
if [ -f "$build/viewer/ossa-view" ]; then
    # The viewer target's inputs: the engine, viewer, shaders and the demo mannequin
    # (tools/demo/), nothing else of tests/ or tools/.
    inputs=$(ninja -C "$build" -t inputs viewer/ossa-view) || fail "ninja -t inputs"
    n=$(grep -c . <<<"$inputs")
    [ "$n" -gt 20 ] || fail "ossa-view has only $n inputs"
    stray=$(grep -E '(^|/)(tests|tools)/' <<<"$inputs" | grep -vE '(^|/)tools/demo/' | head -n 3)
    [ -z "$stray" ] || fail "building ossa-view also builds: $stray"
    echo "ossa-view: $n inputs, none from tests/ or tools/ but the demo"
fi
[ $failures -eq 0 ] && echo "run.sh: ok"
exit $((failures > 0))
