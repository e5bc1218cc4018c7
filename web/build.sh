#!/usr/bin/env bash
# Builds the engine (engine/, not the viewer nor the tools) to WebAssembly with Debian's
# emscripten, into build-web/ (OSSA_WEB_BUILD):
#   deps/        libxml2 and jansson built for wasm from Debian's source packages, at the
#                versions the native build links (apt-get source; nothing else is downloaded)
#   engine/      the meson cross build of the engine and web/engine_api.c
#   ossa_engine.js, ossa_engine.wasm   the engine module (web/README.md)
#   npm/         web/package.json's packages (three.js for the page, puppeteer-core for its test)
#   site/        the page as static files: web/site/, the engine module and three.js
#   site-size.txt  what the page downloads of the engine (wasm + js, gzip -9)
# Every step is skipped when its output is already there (libxml2 and jansson: built from the
# versions the native build links now; npm: installed from this package.json and lock file).
# Needs emscripten, cmake, make, dpkg-dev and npm (./run.sh installs them) and a deb-src entry
# for apt-get source. OSSA_WEB_SITE=0 builds the engine module only (no npm).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$(realpath -m "${OSSA_WEB_BUILD:-build-web}")
DEPS=$OUT/deps
# Debian's emscripten runs its tools with /usr/bin/node; a newer Node.js from elsewhere on PATH
# does not see Debian's node modules (acorn) without this.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
mkdir -p "$OUT/src"
# One build at a time: the wasm-engine test runs this script in each test build.
exec 9>"$OUT/.lock"
flock 9

step() { # step NAME COMMAND...: runs and times one build step, its output in OUT/NAME.log
    local name=$1 t0=$SECONDS; shift
    echo "web/build.sh: $name"
    if ! "$@" >"$OUT/$name.log" 2>&1; then
        tail -n 40 "$OUT/$name.log" >&2
        echo "web/build.sh: $name failed (log: $OUT/$name.log)" >&2
        return 1
    fi
    echo "web/build.sh: $name took $((SECONDS - t0)) s"
}

# The source package's version, as the native build links it (the -dev package's source).
source_version() { dpkg-query -W -f='${source:Version}' "$1"; }

# apt-get source PKG=VERSION into OUT/src (once); prints the unpacked folder.
fetch_source() { # fetch_source SOURCE DEVPKG
    local src=$1 ver upstream dir
    ver=$(source_version "$2")
    upstream=${ver#*:}
    upstream=${upstream%-*}
    dir=$OUT/src/$src-$upstream
    if [ ! -d "$dir" ]; then
        local t0=$SECONDS
        (cd "$OUT/src" && apt-get source -qq "$src=$ver") >"$OUT/src/$src.log" 2>&1 || {
            cat "$OUT/src/$src.log" >&2
            echo "web/build.sh: apt-get source $src=$ver failed (no deb-src entry?)" >&2
            return 1
        }
        echo "web/build.sh: apt-get source $src=$ver took $((SECONDS - t0)) s" >&2
    fi
    echo "$dir"
}

build_libxml2() {
    local dir=$1
    # Only the parser the Cal3D XML loaders use: no threads (no SharedArrayBuffer in the page),
    # no compression, network, iconv or Python. --build/--host keep configure from running
    # wasm as a native program (2.9.14's config.sub knows no emscripten system: linux-gnu);
    # without maintainer mode, Makefile.am files Debian's patches touched do not call automake.
    (cd "$dir" && emconfigure ./configure --build=x86_64-pc-linux-gnu \
        --host=wasm32-unknown-linux-gnu --prefix="$DEPS" --disable-shared --enable-static \
        --disable-maintainer-mode \
        --without-threads --without-python --without-zlib --without-lzma --without-iconv \
        --without-icu --without-http --without-ftp --without-modules --without-catalog \
        --without-debug --without-docbook --without-legacy --without-readline \
        --without-history CFLAGS=-O2 &&
        emmake make -j2 libxml2.la && emmake make install-libLTLIBRARIES \
        install-pkgconfigDATA && cd include && emmake make install)
}

build_jansson() {
    local dir=$1
    emcmake cmake -S "$dir" -B "$OUT/src/jansson-build" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_INSTALL_PREFIX="$DEPS" -DJANSSON_BUILD_SHARED_LIBS=OFF -DJANSSON_EXAMPLES=OFF \
        -DJANSSON_WITHOUT_TESTS=ON -DJANSSON_BUILD_DOCS=OFF &&
        cmake --build "$OUT/src/jansson-build" -j 2 && cmake --install "$OUT/src/jansson-build"
}

# Built when missing or built from another version than the native build links now (a Debian
# update): each library's version stamp in deps/.
built() { [ "$(cat "$DEPS/.$1-version" 2>/dev/null)" = "$(source_version "$2")" ]; }

deps() {
    local xml="" jansson="" pids=() pid rc=0
    mkdir -p "$DEPS"
    if ! built libxml2 libxml2-dev; then xml=$(fetch_source libxml2 libxml2-dev) || return 1; fi
    if ! built jansson libjansson-dev; then
        jansson=$(fetch_source jansson libjansson-dev) || return 1
    fi
    # Side by side: libxml2's configure runs one check at a time, leaving a core to jansson.
    if [ -n "$xml" ]; then step libxml2 build_libxml2 "$xml" & pids+=($!); fi
    if [ -n "$jansson" ]; then step jansson build_jansson "$jansson" & pids+=($!); fi
    for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
    [ $rc -eq 0 ] || return 1
    [ -z "$xml" ] || source_version libxml2-dev >"$DEPS/.libxml2-version"
    [ -z "$jansson" ] || source_version libjansson-dev >"$DEPS/.jansson-version"
    # cglm is header-only for the engine: its headers, without the host's /usr/include.
    mkdir -p "$DEPS/include" "$DEPS/lib/pkgconfig"
    ln -sfn /usr/include/cglm "$DEPS/include/cglm"
    printf 'Name: cglm\nDescription: cglm headers\nVersion: %s\nCflags: -I%s\nLibs:\n' \
        "$(pkg-config --modversion cglm)" "$DEPS/include" >"$DEPS/lib/pkgconfig/cglm.pc"
}

engine() {
    local dir=$OUT/engine
    # The dependencies' pkg-config folder, which a cross build reads from its cross file only.
    # (rewritten only when it changes: meson reconfigures on a newer cross file)
    printf "[properties]\npkg_config_libdir = '%s'\n" "$DEPS/lib/pkgconfig" >"$OUT/deps.ini.new"
    if cmp -s "$OUT/deps.ini.new" "$OUT/deps.ini"; then rm "$OUT/deps.ini.new"
    else mv "$OUT/deps.ini.new" "$OUT/deps.ini"; fi
    if [ ! -f "$dir/build.ninja" ]; then
        rm -rf "$dir" # what a failed setup left
        step engine-setup meson setup "$dir" --cross-file web/cross-emscripten.ini \
            --cross-file "$OUT/deps.ini" --buildtype=release
    fi
    step engine ninja -C "$dir" web/ossa_engine.js
    # Copied only when changed, and by rename: tests run side by side, each calling this script,
    # and one reading the engine while another's copy rewrote it in place read an empty wasm.
    local f
    for f in ossa_engine.wasm ossa_engine.js; do
        if ! cmp -s "$dir/web/$f" "$OUT/$f"; then
            cp "$dir/web/$f" "$OUT/.$f.new"
            mv -f "$OUT/.$f.new" "$OUT/$f"
        fi
    done
}

# web/package.json's packages into OUT/npm, installed again only when package.json or its lock
# file changes (their checksum, stamped after a complete install).
npm_packages() {
    local dir=$OUT/npm stamp
    stamp=$(cat web/package.json web/package-lock.json | sha256sum)
    if [ -d "$dir/node_modules" ] && [ "$(cat "$dir/.stamp" 2>/dev/null)" = "$stamp" ]; then
        return 0
    fi
    if ! command -v npm >/dev/null; then
        echo "web/build.sh: npm is not installed (./run.sh web installs it): the engine module" \
            "is built, the site is not" >&2
        return 1
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    cp web/package.json web/package-lock.json "$dir/"
    step npm npm install --no-audit --no-fund --prefix "$dir" || {
        echo "web/build.sh: npm could not install web/package.json's packages (is its registry" \
            "reachable?): the engine module is built, the site is not" >&2
        return 1
    }
    echo "$stamp" >"$dir/.stamp"
}

# OUT/site assembled afresh: web/site/ but its notes, the engine module, and three.js with the
# orbit controls (the page's import map names them). It replaces the old one only when some
# file differs, so that a page served from it (./run.sh web, the web-page test) is not cut off
# by a rebuild that changes nothing.
site() {
    local dir=$OUT/site new=$OUT/site.new three=$OUT/npm/node_modules/three
    rm -rf "$new"
    mkdir -p "$new/three/addons/controls"
    (cd web/site && find . -type f ! -name '*.md' -exec cp --parents {} "$new/" \;)
    cp "$OUT/ossa_engine.js" "$OUT/ossa_engine.wasm" "$new/"
    cp "$three/build/three.module.js" "$three/LICENSE" "$new/three/"
    cp "$three/examples/jsm/controls/OrbitControls.js" "$new/three/addons/controls/"
    if diff -rq "$new" "$dir" >/dev/null 2>&1; then
        rm -rf "$new"
    else
        rm -rf "$dir"
        mv "$new" "$dir"
    fi
    echo "web/build.sh: site in $dir ($(find "$dir" -type f | wc -l) files)"
}

# What a visit downloads of the engine, compressed as a static host would serve it.
site_size() {
    local f raw gz total=0 gztotal=0
    {
        echo "# file bytes gzip-9-bytes"
        for f in ossa_engine.wasm ossa_engine.js; do
            raw=$(stat -c %s "$OUT/site/$f")
            gz=$(gzip -9 -c "$OUT/site/$f" | wc -c)
            total=$((total + raw)) gztotal=$((gztotal + gz))
            echo "$f $raw $gz"
        done
        echo "total $total $gztotal"
    } >"$OUT/site-size.txt"
    echo "web/build.sh: engine download $gztotal bytes gzip -9 ($total bytes raw," \
        "$OUT/site-size.txt)"
}

deps
engine
if [ "${OSSA_WEB_SITE:-1}" != 0 ]; then
    npm_packages
    site
    site_size
fi
