#!/usr/bin/env python3
"""The browser page (web/site/, built into build-web/site/ by web/build.sh) in Debian's chromium,
headless, driven by puppeteer-core from web/package.json (tests/web/page_test.mjs says what is
checked). This wrapper builds the site (cached: a no-op once built), serves it on a free port of
127.0.0.1, measures native SSE2 skinning for the figures the page test prints, and runs the
page test under Node.js. Skips (77) only when the assets are absent, emscripten is not
installed or chromium is not (./run.sh test installs both).

usage: check_page.py OSSA_CLI SOURCE_ROOT PAGE_TEST_MJS OUT_DIR"""
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading

from web_build import build_folder

SKIP = 77
CHROMIUM = "/usr/bin/chromium"
BENCH_VERTICES = 10000

ossa, root, page_test, out_dir = sys.argv[1:5]
assets = os.environ.get("OSSA_ASSETS", os.path.join(root, "..", "shared", "assets"))
cally = os.path.join(assets, "cal3d", "cally")
if not os.path.exists(os.path.join(cally, "cally.cfg")):
    print("SKIP: %s is absent" % os.path.join(cally, "cally.cfg"))
    sys.exit(SKIP)
if not shutil.which("emcc"):
    print("SKIP: emscripten is not installed (./run.sh test installs it)")
    sys.exit(SKIP)
if not os.access(CHROMIUM, os.X_OK):
    print("SKIP: Debian's chromium is not installed (./run.sh test installs it)")
    sys.exit(SKIP)
node = shutil.which("node")
if not node:
    print("FAIL: emscripten and chromium are installed but node is not")
    sys.exit(1)

web = build_folder(root)
r = subprocess.run([os.path.join(root, "web", "build.sh")], capture_output=True, text=True,
                   env=dict(os.environ, OSSA_WEB_BUILD=web))
sys.stdout.write(r.stdout)
if r.returncode != 0:
    print("FAIL: web/build.sh exited %d\n%s" % (r.returncode, r.stderr[-4000:]))
    sys.exit(1)
site = os.path.join(web, "site")
for need in ("index.html", "ossa_engine.wasm", "three/three.module.js"):
    if not os.path.isfile(os.path.join(site, need)):
        print("FAIL: web/build.sh left no %s in %s" % (need, site))
        sys.exit(1)


def site_size():
    """build-web/site-size.txt: 'FILE BYTES GZIP_BYTES' lines and a total."""
    out = {}
    with open(os.path.join(web, "site-size.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, raw, gz = line.split()
            out[name] = {"bytes": int(raw), "gzip9": int(gz)}
    return out


def native_sse2():
    """Native SSE2 skinning on one thread, millions of vertices a second (ossa bench --json),
    measured before the browser starts so that neither slows the other on a small machine."""
    r = subprocess.run([ossa, "bench", "--vertices", str(BENCH_VERTICES), "--threads", "1",
                        "--runs", "5", "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL: ossa bench exited %d: %s" % (r.returncode, r.stderr[-2000:]))
        return None
    for e in json.loads(r.stdout)["skinning"]:
        if e["kernel"] == "sse2" and e["threads"] == 1:
            return e["vertices_per_second"] / 1e6
    print("FAIL: ossa bench --json has no single-thread sse2 skinning entry")
    return None


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


failed = False
sizes = site_size()
native = native_sse2()
failed |= native is None
print("native sse2 skinning, 1 thread, %d vertices: %s Mv/s" % (
    BENCH_VERTICES, "%.1f" % native if native else "?"))

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                         functools.partial(Quiet, directory=site))
threading.Thread(target=server.serve_forever, daemon=True).start()
url = "http://127.0.0.1:%d/" % server.server_address[1]
largest = max((os.path.join(assets, "cal3d", d) for d in os.listdir(os.path.join(assets, "cal3d"))
               if os.path.isdir(os.path.join(assets, "cal3d", d))),
              key=lambda d: sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d)
                                if os.path.isfile(os.path.join(d, f))))
os.makedirs(out_dir, exist_ok=True)
print("serving %s on %s; chromium %s" % (site, url, subprocess.run(
    [CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip()))

env = dict(os.environ, OSSA_PAGE_URL=url, OSSA_CHROMIUM=CHROMIUM, OSSA_CLI=ossa,
           OSSA_NPM=os.path.join(web, "npm"), OSSA_CALLY=cally, OSSA_LARGEST=largest,
           OSSA_PAGE_OUT=out_dir, OSSA_BENCH_VERTICES=str(BENCH_VERTICES))
page = subprocess.Popen([node, page_test], env=env, stdout=subprocess.PIPE, text=True)
measured = None
for line in page.stdout:
    if line.startswith("PAGE-MEASURED "):
        measured = json.loads(line.split(" ", 1)[1])
    else:
        sys.stdout.write(line)
        sys.stdout.flush()
rc = page.wait()
server.shutdown()
if rc != 0:
    print("FAIL: the page test exited %d" % rc)
    failed = True

if measured is not None:
    figures = dict(measured)
    figures["native_sse2_mvps"] = round(native, 2) if native else None
    page_sse2 = (measured.get("bench") or {}).get("sse2")
    if native and page_sse2:
        figures["native_over_wasm_sse2"] = round(native / page_sse2, 2)
    figures["site_gzip9_bytes"] = {k: v["gzip9"] for k, v in sizes.items()}
    print("PAGE-FIGURES " + json.dumps(figures, sort_keys=True))
sys.exit(1 if failed else 0)
