#!/usr/bin/env python3
"""Units: `ossa info` prints the bind pose's height, and `--scale F` / `--units U` on export and
convert scale every length (a 1.8-unit demo given as centimetres is 0.018 m tall).

usage: check_units.py OSSA SOURCE_ROOT
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

failures = 0


def fail(message):
    global failures
    failures += 1
    print("FAIL:", message)


def ossa(exe, *args):
    p = subprocess.run([exe, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def height(exe, model):
    rc, out, err = ossa(exe, "info", "--json", model)
    if rc != 0:
        fail("info %s: %s" % (model, err))
        return None
    return json.loads(out).get("bind_pose", {}).get("height")


def glb_json(path):
    data = open(path, "rb").read()
    length = struct.unpack_from("<I", data, 12)[0]
    return json.loads(data[20:20 + length])


def main():
    exe, root = sys.argv[1], sys.argv[2]
    demo = os.path.join(root, "assets", "cal3d", "mannequin.cfg")
    rc, out, _ = ossa(exe, "info", demo)
    if rc != 0 or "bind pose: height 1.8 along y" not in out:
        fail("info prints no bind pose height: %s" % out)
    base = height(exe, demo)
    with tempfile.TemporaryDirectory(prefix="ossa-units-") as tmp:
        for args, factor in ((["--scale", "2"], 2.0), (["--units", "cm"], 0.01),
                             (["--units", "in", "--scale", "10"], 0.254)):
            out = os.path.join(tmp, "s%g" % factor, "m.cfg")
            rc, _, err = ossa(exe, "convert", demo, "-o", out, *args)
            got = height(exe, out) if rc == 0 else None
            if got is None or base is None or abs(got - base * factor) > 1e-4 * base * factor:
                fail("convert %s: height %s, want %s (%s)" % (args, got, base * factor, err))
        glb = os.path.join(tmp, "cm.glb")
        rc, _, err = ossa(exe, "export", demo, "-o", glb, "--units", "cm")
        plain = os.path.join(tmp, "plain.glb")
        rc2, _, err2 = ossa(exe, "export", demo, "-o", plain)
        if rc or rc2:
            fail("export --units cm: %s %s" % (err, err2))
        else:
            a, b = glb_json(glb), glb_json(plain)
            pa = next(x for x in a["accessors"] if "max" in x and len(x["max"]) == 3)
            pb = next(x for x in b["accessors"] if "max" in x and len(x["max"]) == 3)
            if abs(pa["max"][1] - 0.01 * pb["max"][1]) > 1e-6:
                fail("export --units cm: positions max %s against %s" % (pa["max"], pb["max"]))
        for bad in (["--units", "yd"], ["--scale", "0"], ["--scale", "x"]):
            rc, _, err = ossa(exe, "export", demo, "-o", os.path.join(tmp, "bad.glb"), *bad)
            if rc != 2:
                fail("export %s: exit %d, want 2: %s" % (bad, rc, err))
    print("units: %s" % ("all checks passed" if not failures else "%d failures" % failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
