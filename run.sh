#!/usr/bin/env bash
# Ossa's one entry point: installs what is missing (Debian 12), builds, then views or tests.
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(meson ninja-build pkg-config gcc g++ python3 libxml2-dev libcglm-dev libsdl2-dev
          libsdl2-image-dev libsdl2-ttf-dev fonts-dejavu-core python3-glad libpng-dev
          libcal3d12-dev libgl-dev libegl-dev libgl1-mesa-dri libegl-mesa0 xvfb xauth
          valgrind clang libclang-rt-14-dev libjansson-dev)

# What `./run.sh test` runs beyond the two full test runs (see there).
VALGRIND_SUITES="--suite memcheck"
FUZZ_SECONDS=${OSSA_FUZZ_SECONDS:-20}
# The glTF export test validates with the Khronos glTF-Validator, an npm package installed into
# the build folder; Debian's nodejs and npm are installed only when node or npm is missing.
GLTF_VALIDATOR_VERSION=2.0.0-dev.3.10
# The engine built to WebAssembly (web/build.sh, the wasm-engine test): Debian's emscripten, and
# what builds libxml2 and jansson from their Debian source packages (apt-get source).
WEB_PACKAGES=(emscripten cmake make dpkg-dev)
# `./run.sh web` without the native build's packages: web/build.sh's cross build, the -dev
# packages whose source versions it builds and cglm's headers; python3 serves the site.
WEB_SITE_PACKAGES=(meson ninja-build pkg-config python3 libxml2-dev libjansson-dev libcglm-dev)

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "run.sh: need root (or sudo) to install: ${PACKAGES[*]}" >&2; return 1; fi
}

install_deps() {
    local missing=() wanted=("${PACKAGES[@]}")
    if [ "$cmd" = test ] && { ! command -v node >/dev/null || ! command -v npm >/dev/null; }; then
        wanted+=(nodejs npm)
    fi
    for p in "${wanted[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "run.sh: installing ${missing[*]}"
    # The lock timeout makes apt wait for another apt/dpkg (unattended upgrades) to finish.
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
        --no-install-recommends "${missing[@]}"
}

# apt-get source needs a deb-src entry; a fresh Debian 12 has none. Adds one beside each deb
# entry of the configured mirrors (deb822 .sources or one-line sources.list), then updates.
ensure_deb_src() {
    local d=/etc/apt/sources.list.d
    grep -qsE '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' /etc/apt/sources.list "$d"/*.list \
        "$d"/*.sources && return 0
    echo "run.sh: adding deb-src entries ($d/ossa-deb-src.sources or .list) for apt-get source"
    local f deb822="" oneline
    for f in "$d"/*.sources; do
        [ -f "$f" ] && deb822+=$(sed 's/^Types:[[:space:]]*deb$/Types: deb-src/' "$f")$'\n\n'
    done
    oneline=$(sed -n 's/^deb[[:space:]]/deb-src /p' /etc/apt/sources.list 2>/dev/null || true)
    [ -z "$deb822" ] || as_root tee "$d/ossa-deb-src.sources" >/dev/null <<<"$deb822"
    [ -z "$oneline" ] || as_root tee "$d/ossa-deb-src.list" >/dev/null <<<"$oneline"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
}

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }

apt_install() { # apt_install PACKAGE...: update, then install without recommends
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq &&
        as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install \
            -y -qq --no-install-recommends "$@"
}

# The WebAssembly build's packages and deb-src entry (for `web`: also what the native install
# would have brought, and nodejs/npm when missing; for `test`: Debian's chromium, on its own so
# that the rest installs without it). When they cannot be had the wasm-engine and web-page tests
# skip (no emcc, no chromium) or fail (web/build.sh says why), and the rest of the run goes on.
install_web_deps() {
    local missing=() p wanted=("${WEB_PACKAGES[@]}")
    if [ "$cmd" = web ]; then
        wanted+=("${WEB_SITE_PACKAGES[@]}")
        command -v node >/dev/null && command -v npm >/dev/null || wanted+=(nodejs npm)
    fi
    for p in "${wanted[@]}"; do installed "$p" || missing+=("$p"); done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "run.sh: installing ${missing[*]}"
        apt_install "${missing[@]}" || echo "run.sh: could not install ${missing[*]}"
    fi
    ensure_deb_src || echo "run.sh: could not add a deb-src entry: web/build.sh cannot apt-get source"
    if [ "$cmd" = test ] && ! installed chromium; then
        echo "run.sh: installing chromium (Debian's, for the web-page test)"
        apt_install chromium || echo "run.sh: could not install chromium: the web-page test skips"
    fi
}

# gltf-validator into build/gltf-validator (once); the gltf-validator test skips when npm cannot
# reach its registry.
install_gltf_validator() {
    local dir=$PWD/build/gltf-validator
    export OSSA_GLTF_VALIDATOR=$dir
    [ -f "$dir/node_modules/gltf-validator/package.json" ] && return 0
    command -v npm >/dev/null || return 0
    echo "run.sh: installing gltf-validator@$GLTF_VALIDATOR_VERSION into $dir"
    mkdir -p "$dir"
    npm install --no-audit --no-fund --prefix "$dir" "gltf-validator@$GLTF_VALIDATOR_VERSION" \
        >"$dir.log" 2>&1 || echo "run.sh: npm could not install gltf-validator (see $dir.log)"
}

usage() {
    cat <<'EOF'
usage: ./run.sh COMMAND
  view [FILE...]      install what is missing, build the viewer and what it links (not the
                      tests), open ossa-view on FILE (no FILE: the demo mannequin)
  test                install (and nodejs/npm when missing, emscripten, Debian's chromium, and
                      the Khronos glTF validator from npm into build/gltf-validator), build
                      everything, and the engine to WebAssembly and its page into build-web/
                      (web/build.sh: libxml2 and jansson from Debian's source packages, a
                      deb-src entry added when none exists; three.js and puppeteer-core from
                      npm), run every test (the page in headless chromium among them), then
                      again under ASan+UBSan, a valgrind (memcheck) subset, and every
                      libFuzzer harness for 20 s (OSSA_FUZZ_SECONDS) with clang; ends with
                      "N passed, N failed, N skipped"
  web                 install what the page needs (emscripten, nodejs/npm when missing, a
                      deb-src entry), build the engine to WebAssembly and the page into
                      build-web/site/ (web/build.sh; three.js from npm), and serve it on
                      http://127.0.0.1:8000/ (port: OSSA_WEB_PORT); static files, any host
                      serves them
  build               install and build everything into build/ (build/tools/ossa,
                      build/viewer/ossa-view)
  install PREFIX      build, then install ossa, ossa-view, libossa, its headers and ossa.pc
                      under PREFIX (then: pkg-config --cflags --libs ossa with
                      PKG_CONFIG_PATH=PREFIX/lib/<arch>/pkgconfig)
EOF
}

# OSSA_RUN_DRY=1 prints the build commands instead of running them (tests check what is built).
run() { if [ -n "${OSSA_RUN_DRY:-}" ]; then echo "+ $*"; else "$@"; fi; }

build() { # build DIR [TARGET...] [-- meson options...]
    local dir=$1; shift
    local targets=() opts=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do targets+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    opts=("$@")
    if [ ! -f "$dir/build.ninja" ]; then
        if [ -n "${OSSA_RUN_DRY:-}" ]; then
            echo "+ meson setup $dir ${opts[*]}"
        else
            meson setup "$dir" "${opts[@]}" >"$dir.setup.log" 2>&1 || { cat "$dir.setup.log"; return 1; }
        fi
    fi
    run ninja -C "$dir" "${targets[@]}"
}

# Runs one build's tests; prints meson's report and adds its counts to the totals.
PASSED=0; FAILED=0; SKIPPED=0; FAILED_NAMES=""
run_suite() { # run_suite DIR LABEL [LOG [meson test options...]]
    local dir=$1 label=$2 log=${3:-testlog} rc=0
    shift $(($# < 3 ? $# : 3))
    echo "== tests: $label"
    rm -f "$dir/meson-logs/$log.json"
    meson test -C "$dir" --print-errorlogs --num-processes 2 "$@" || rc=$?
    [ -f "$dir/meson-logs/$log.json" ] || {
        FAILED=$((FAILED + 1)); FAILED_NAMES+="  $label: no test log"$'\n'; return 0; }
    local counts
    counts=$(python3 - "$dir/meson-logs/$log.json" <<'PY'
import json, sys
p = f = s = 0
names = []
for line in open(sys.argv[1]):
    t = json.loads(line)
    r = t.get("result")
    if r in ("OK", "EXPECTEDFAIL"): p += 1
    elif r == "SKIP": s += 1
    else:
        f += 1
        names.append(f"{t.get('name')} ({r})")
print(p, f, s)
for n in names: print(n)
PY
)
    local name
    while IFS= read -r name; do
        FAILED_NAMES+="  $label: $name"$'\n'
    done < <(tail -n +2 <<<"$counts")
    read -r p f s <<<"$(head -n 1 <<<"$counts")"
    PASSED=$((PASSED + p)); FAILED=$((FAILED + f)); SKIPPED=$((SKIPPED + s))
    return 0
}

cmd=${1:-help}
[ $# -gt 0 ] && shift
case "$cmd" in
    build)
        install_deps
        build build
        ;;
    view)
        install_deps
        # Only the viewer and what it links: the first view does not wait for the test build.
        build build viewer/ossa-view
        if [ -n "${OSSA_RUN_DRY:-}" ]; then
            echo "+ build/viewer/ossa-view $*"
            exit 0
        fi
        if [ -x build/viewer/ossa-view ]; then
            exec build/viewer/ossa-view "$@"
        fi
        echo "run.sh: ossa-view was not built (SDL2/GL missing?)" >&2
        exit 1
        ;;
    install)
        [ $# -eq 1 ] || { usage >&2; exit 2; }
        install_deps
        build build
        run meson configure build "--prefix=$(realpath -m "$1")"
        run meson install -C build
        ;;
    web)
        port=${OSSA_WEB_PORT:-8000}
        site=${OSSA_WEB_BUILD:-build-web}/site
        install_web_deps
        # A port in use says so before the build, not after it.
        python3 -c 'import socket, sys; socket.socket().bind(("127.0.0.1", int(sys.argv[1])))' \
            "$port" 2>/dev/null || {
            echo "run.sh: cannot serve on 127.0.0.1:$port (in use?): set OSSA_WEB_PORT" >&2
            exit 1
        }
        run web/build.sh
        echo "run.sh: the page: http://127.0.0.1:$port/ (serving $site/; Ctrl+C stops)"
        if [ -n "${OSSA_RUN_DRY:-}" ]; then
            echo "+ python3 -m http.server --bind 127.0.0.1 --directory $site $port"
            exit 0
        fi
        exec python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port"
        ;;
    test)
        install_deps
        install_web_deps
        build build
        install_gltf_validator
        # The engine in WebAssembly and the page before the suites, so that the wasm-engine and
        # web-page tests (which run web/build.sh too, then a no-op) do not build them while
        # other tests run.
        if command -v emcc >/dev/null; then
            run web/build.sh ||
                echo "run.sh: web/build.sh failed (the wasm-engine and web-page tests say why)"
        fi
        run_suite build "default build (debugoptimized)"
        build build-asan -- -Db_sanitize=address,undefined -Db_lundef=false
        # The web suite checks the WebAssembly module, the same in both runs: once is enough.
        ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} run_suite build-asan "ASan + UBSan build" \
            testlog --no-suite web
        # Memcheck over the GL-free tests that fit CI's time (the whole non-GL suite passes it
        # too: meson test -C build --setup=valgrind).
        run_suite build "valgrind (memcheck) subset" testlog-valgrind --setup=valgrind \
            --no-rebuild $VALGRIND_SUITES
        # libFuzzer (clang, ASan + UBSan): every harness for $FUZZ_SECONDS s from its seeds and
        # the regression inputs.
        CC=clang CXX=clang++ build build-fuzz fuzzers -- -Db_sanitize=address,undefined \
            -Db_lundef=false -Dfuzz_seconds="$FUZZ_SECONDS" -Dviewer=disabled -Dreference=disabled
        run_suite build-fuzz "libFuzzer campaign, $FUZZ_SECONDS s a harness" testlog --no-rebuild \
            --suite fuzz-campaign
        [ -z "$FAILED_NAMES" ] || printf 'failed:\n%s' "$FAILED_NAMES"
        echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
        [ "$FAILED" -eq 0 ]
        ;;
    help|-h|--help)
        usage
        ;;
    *)
        usage >&2
        exit 2
        ;;
esac
