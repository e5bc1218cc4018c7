#!/usr/bin/env python3
"""The SSE2 kernel as the WebAssembly build compiles it (build-web/, web/build.sh) uses only
shuffles that V8 turns into one x64 instruction. LLVM cut the kernel's unpacks into half-used
shuffles (unread lanes filled with lane 0) that V8 compiles to two pshufb and an or, about 11
instructions each; skin_sse2.c keeps them whole (KEEP_WHOLE), and the page's kernel ran 1.45x
faster for it (docs/BENCHMARKS.md, 2026-11-29 13:38). This reads every i8x16.shuffle of the
kernel's object (binaryen's wasm-dis) and fails on one of another form, naming its lanes.

The forms V8's x64 instruction selector maps to one instruction, for 32-bit lanes (a: the first
operand, b: the second; V8 swaps the operands when lane 0 comes from b): any lanes of one
operand (pshufd), a blend (lane i from a_i or b_i: pblendw), an unpack (a0 b0 a1 b1,
a2 b2 a3 b3, a0 a1 b0 b1, a2 a3 b2 b3), a concatenation shifted by 1 to 3 lanes (palignr), and
lanes 0-1 from a with lanes 2-3 from b (shufps). Skips (77) when emscripten is not installed.

usage: check_kernel_shuffles.py SOURCE_ROOT"""
import os
import re
import shutil
import subprocess
import sys

from web_build import build_engine

SKIP = 77
root = sys.argv[1]
if not shutil.which("emcc") or not shutil.which("wasm-dis"):
    print("SKIP: emscripten (with binaryen's wasm-dis) is not installed (./run.sh test installs it)")
    sys.exit(SKIP)

web, _ = build_engine(root)
obj = os.path.join(web, "engine", "engine", "src", "skin", "libossa_skin_sse2.a.p",
                   "skin_sse2.c.o")
if not os.path.exists(obj):
    print("FAIL: %s is not there after web/build.sh" % obj)
    sys.exit(1)
r = subprocess.run(["wasm-dis", obj], capture_output=True, text=True)
if r.returncode != 0:
    print("FAIL: wasm-dis %s exited %d\n%s" % (obj, r.returncode, r.stderr[-2000:]))
    sys.exit(1)


def lanes32(mask):
    """The 16 byte indices as 8 lane names (a0..a3, b0..b3), or None when not 32-bit lanes."""
    out = []
    for i in range(0, 16, 4):
        q = mask[i:i + 4]
        if q[0] % 4 or q != list(range(q[0], q[0] + 4)):
            return None
        out.append(q[0] // 4)  # 0..3: a, 4..7: b
    return out


def one_instruction(lanes):
    if all(x < 4 for x in lanes) or all(x >= 4 for x in lanes):
        return True  # one operand
    if lanes[0] >= 4:  # V8 swaps the operands so that lane 0 comes from a
        lanes = [x - 4 if x >= 4 else x + 4 for x in lanes]
    if all(x in (i, i + 4) for i, x in enumerate(lanes)):
        return True  # blend
    if lanes in ([0, 4, 1, 5], [2, 6, 3, 7], [0, 1, 4, 5], [2, 3, 6, 7]):
        return True  # unpack
    if any(lanes == list(range(k, k + 4)) for k in (1, 2, 3)):
        return True  # concatenation shifted
    return lanes[0] < 4 and lanes[1] < 4 and lanes[2] >= 4 and lanes[3] >= 4  # shufps


def name(lanes):
    return " ".join(("a%d" % x) if x < 4 else ("b%d" % (x - 4)) for x in lanes)


masks = [list(map(int, m.group(1).split()))
         for m in re.finditer(r"i8x16\.shuffle((?: \d+){16})", r.stdout)]
bad = {}
for mask in masks:
    lanes = lanes32(mask)
    key = name(lanes) if lanes else "bytes " + " ".join(map(str, mask))
    if lanes is None or not one_instruction(lanes):
        bad[key] = bad.get(key, 0) + 1
if not masks:
    print("FAIL: no i8x16.shuffle in %s: is the kernel still built for wasm SIMD?" % obj)
    sys.exit(1)
if bad:
    print("FAIL: %d of %d shuffles in the wasm SSE2 kernel take several x64 instructions in V8:"
          % (sum(bad.values()), len(masks)))
    for key, count in sorted(bad.items(), key=lambda kv: -kv[1]):
        print("  %4d x %s" % (count, key))
    sys.exit(1)
print("ok: the wasm SSE2 kernel's %d shuffles are each one x64 instruction in V8" % len(masks))
