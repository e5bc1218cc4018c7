#!/usr/bin/env python3
"""The engine built to WebAssembly (web/build.sh) against the native build: cally from
../shared/assets loaded by the wasm module under Node.js (tests/web/engine_sample.js), posed
and skinned by its instance (the SSE2 kernel on wasm SIMD, which it must report), matches
`ossa sample` (the reference pose, scalar skinning) within 1e-5 of the model's size in
positions and 1e-5 in normals, at rest and at clip times; truncated files fail with the same
message (file, byte offset) as the native CLI gives. Builds build-web/ first (cached: a no-op
once built). Skips (77) only when the assets are absent or emscripten is not installed.

usage: check_wasm_engine.py OSSA_CLI SOURCE_ROOT ENGINE_SAMPLE_JS"""
import math
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
POS_TOL = 1e-5   # of the bounding box diagonal
NRM_TOL = 1e-5   # unit normals

ossa, root, driver = sys.argv[1:4]
assets = os.environ.get("OSSA_ASSETS", os.path.join(root, "..", "shared", "assets"))
cfg = os.path.join(assets, "cal3d", "cally", "cally.cfg")
if not os.path.exists(cfg):
    print("SKIP: %s is absent" % cfg)
    sys.exit(SKIP)
if not shutil.which("emcc"):
    print("SKIP: emscripten is not installed (./run.sh test installs it)")
    sys.exit(SKIP)
node = shutil.which("node")
if not node:
    print("FAIL: emscripten is installed but node is not")
    sys.exit(1)

web = os.path.join(root, "build-web")
r = subprocess.run([os.path.join(root, "web", "build.sh")], capture_output=True, text=True)
sys.stdout.write(r.stdout)
if r.returncode != 0:
    print("FAIL: web/build.sh exited %d\n%s" % (r.returncode, r.stderr[-4000:]))
    sys.exit(1)
engine_js = os.path.join(web, "ossa_engine.js")
failures = []


def rows(text):
    out = {}
    lines = text.splitlines()
    assert lines[0] == "mesh,submesh,vertex,px,py,pz,nx,ny,nz", lines[0]
    for line in lines[1:]:
        f = line.split(",")
        out[tuple(int(x) for x in f[:3])] = [float(x) for x in f[3:]]
    return out


def compare(clip, time):
    native_args = [ossa, "sample", cfg] + (["--clip", str(clip), "--time", repr(time)]
                                           if clip >= 0 else [])
    native = subprocess.run(native_args, capture_output=True, text=True)
    if native.returncode != 0:
        failures.append("%s: %s" % (" ".join(native_args), native.stderr))
        return
    wasm = subprocess.run([node, driver, engine_js, str(clip), repr(time), cfg],
                          capture_output=True, text=True)
    if wasm.returncode != 0:
        failures.append("wasm clip %d time %g: %s" % (clip, time, wasm.stderr))
        return
    kernel, _, table = wasm.stdout.partition("\n")
    if kernel != "kernel sse2":
        failures.append("wasm clip %d: skinned with '%s', not the SSE2 kernel" % (clip, kernel))
    want, got = rows(native.stdout), rows(table)
    if set(want) != set(got):
        failures.append("clip %d: %d vertices native, %d wasm" % (clip, len(want), len(got)))
        return
    lo = [min(v[k] for v in want.values()) for k in range(3)]
    hi = [max(v[k] for v in want.values()) for k in range(3)]
    size = math.dist(lo, hi)
    worst_p = max(abs(got[k][i] - want[k][i]) for k in want for i in range(3))
    worst_n = max(abs(got[k][i] - want[k][i]) for k in want for i in range(3, 6))
    print("clip %d time %g: %d vertices, size %.4g, worst position %.3g (%.2g of size), "
          "worst normal %.3g, %s" % (clip, time, len(want), size, worst_p, worst_p / size,
                                     worst_n, kernel))
    if not size > 0 or worst_p > POS_TOL * size or worst_n > NRM_TOL:
        failures.append("clip %d time %g: position off by %.3g (limit %.3g), normal by %.3g "
                        "(limit %g)" % (clip, time, worst_p, POS_TOL * size, worst_n, NRM_TOL))


def truncated(name, keep):
    """The first `keep` bytes of a cally file: the wasm load fails as `ossa info` does."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name)
        with open(os.path.join(assets, "cal3d", "cally", name), "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(data[:keep])
        native = subprocess.run([ossa, "info", path], capture_output=True, text=True)
        wasm = subprocess.run([node, driver, engine_js, "-1", "0", path], capture_output=True,
                              text=True)
    want = native.stderr.strip().removeprefix("ossa: ")
    got = wasm.stderr.strip()
    print("truncated %s (%d of %d bytes): %s" % (name, keep, len(data), got))
    if native.returncode == 0 or wasm.returncode != 1:
        failures.append("truncated %s: native rc %d, wasm rc %d" % (name, native.returncode,
                                                                    wasm.returncode))
    elif got != want or not got.startswith(path + ": byte "):
        failures.append("truncated %s: wasm says '%s', native '%s'" % (name, got, want))


compare(-1, 0.0)
for t in (0.0, 0.37, 1.9):
    compare(0, t)
truncated("cally.csf", 300)
truncated("cally_walk.caf", 1000)
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
