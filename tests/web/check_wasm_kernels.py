#!/usr/bin/env python3
"""The skin kernels as the WebAssembly build compiles them, against the scalar reference: the test
of every kernel (tests/skin/test_skin_kernels.c and test_skin_exact.c: odd vertex counts, 0..12
influences, exact meshes, morphs, split ranges, runs of lanes, tiny normals, palettes with and
without the stack copy, the frame-lerp kernel) linked with build-web's engine library
(web/build.sh) and run under Node.js, for the SSE2 kernel the page uses and for the scalar one.
Only the test's own files are compiled here; every kernel is the module's. The module has no
threads: the pool's bit checks drop out, and a pool of 2 is checked to be refused as
unsupported. Skips (77) when emscripten or node is not installed.

usage: check_wasm_kernels.py SOURCE_ROOT"""
import os
import shutil
import subprocess
import sys
import tempfile

from web_build import build_engine

SKIP = 77
root = os.path.abspath(sys.argv[1])
node = shutil.which("node")
if not shutil.which("emcc") or not node:
    print("SKIP: emscripten or node is not installed (./run.sh test installs them)")
    sys.exit(SKIP)

web, env = build_engine(root)
libs = [os.path.join(web, "engine", "engine", "libossa.a"),
        os.path.join(web, "engine", "engine", "libossa_runtime.a"),
        os.path.join(web, "engine", "tools", "demo", "libossa_demo.a"),
        os.path.join(web, "deps", "lib", "libxml2.a"),
        os.path.join(web, "deps", "lib", "libjansson.a")]
missing = [lib for lib in libs if not os.path.exists(lib)]
if missing:
    print("FAIL: not there after web/build.sh: %s" % ", ".join(missing))
    sys.exit(1)
sources = [os.path.join(root, "tests", "skin", "test_skin_kernels.c"),
           os.path.join(root, "tests", "skin", "test_skin_exact.c"),
           os.path.join(root, "tests", "common", "test_common.c"),
           os.path.join(root, "tests", "common", "pose_match.c")]
includes = ["engine/include", "engine/src", "tests/common", "tests/skin", "tools/demo"]
failures = 0
with tempfile.TemporaryDirectory() as tmp:
    js = os.path.join(tmp, "test-skin-kernels.js")
    # As the web build compiles (web/cross-emscripten.ini, meson.build): wasm SIMD, no FP
    # contraction. NODERAWFS: the test reads nothing, but its helpers may look for assets;
    # synchronous instantiation: emscripten 3.1.6 would fetch() the .wasm under Node.js 18+.
    cmd = (["emcc", "-O2", "-std=gnu11", "-msimd128", "-ffp-contract=off",
            "-DCGLM_ALL_UNALIGNED"] + ["-I" + os.path.join(root, i) for i in includes] +
           sources + libs + ["-sALLOW_MEMORY_GROWTH=1", "-sNODERAWFS=1",
                             "-sWASM_ASYNC_COMPILATION=0", "-o", js])
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        print("FAIL: emcc exited %d\n%s" % (r.returncode, (r.stdout + r.stderr)[-4000:]))
        sys.exit(1)
    for kernel in ("sse2", "scalar"):
        r = subprocess.run([node, js, kernel], capture_output=True, text=True, cwd=tmp)
        out = (r.stdout + r.stderr).strip()
        print("wasm %s: exit %d\n%s" % (kernel, r.returncode, out[-3000:]))
        if r.returncode != 0:
            failures += 1
sys.exit(1 if failures else 0)
