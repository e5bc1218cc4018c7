#!/usr/bin/env python3
"""Every glTF animation keys every joint (docs/FORMATS.md, "glTF export"), so that each clip
poses alone in consumers that keep a node's last animated value when the next animation does not
target it (Blender's actions, three.js's mixer). The demo (whose wave and idle clips move only
some bones) and, when present, the shared paladin and cally sets are exported; in each animation
every bone node has a translation and a rotation channel, and a bone the clip does not move holds
its node's rest values in two keys (0 and the end).

usage: check_clips_key_all.py OSSA SOURCE_ROOT
"""
import os
import subprocess
import sys
import tempfile

from glb import floats, read_glb

failures = 0


def fail(message):
    global failures
    failures += 1
    print("FAIL:", message)


def check(label, path):
    doc, binary = read_glb(path)
    joints = doc["skins"][0]["joints"] if doc.get("skins") else []
    bones = [j for j in joints if not doc["nodes"][j].get("name", "").startswith("ossa_")]
    if not doc.get("animations"):
        fail("%s: no animations" % label)
    for anim in doc.get("animations", []):
        targets = {}
        for ch in anim["channels"]:
            t = ch["target"]
            targets.setdefault(t.get("node"), {})[t["path"]] = anim["samplers"][ch["sampler"]]
        for b in bones:
            got = targets.get(b, {})
            if "translation" not in got or "rotation" not in got:
                fail("%s: animation %s does not key bone %s" % (label, anim.get("name"),
                                                                  doc["nodes"][b].get("name")))
                continue
            node = doc["nodes"][b]
            for path, rest in (("translation", node.get("translation", [0, 0, 0])),
                               ("rotation", node.get("rotation", [0, 0, 0, 1]))):
                sampler = got[path]
                values = floats(doc, binary, sampler["output"])
                if len(values) == 2 and values[0] == values[1] and \
                        max(abs(a - b) for a, b in zip(values[0], rest)) > 1e-5:
                    fail("%s: %s: bone %s %s held at %s, rest %s" % (
                        label, anim.get("name"), node.get("name"), path, values[0], rest))


def main():
    exe, root = sys.argv[1], sys.argv[2]
    models = [("demo", os.path.join(root, "assets", "cal3d", "mannequin.cfg"))]
    shared = os.path.join(root, "..", "shared", "assets", "cal3d")
    for name in ("paladin", "cally"):
        cfg = os.path.join(shared, name, name + ".cfg")
        if os.path.exists(cfg):
            models.append((name, cfg))
    with tempfile.TemporaryDirectory(prefix="ossa-keyall-") as tmp:
        for label, cfg in models:
            out = os.path.join(tmp, label + ".glb")
            p = subprocess.run([exe, "export", cfg, "-o", out], capture_output=True, text=True,
                               timeout=300)
            if p.returncode != 0:
                fail("export %s: %s" % (label, p.stderr))
                continue
            check(label, out)
            print("%s: checked" % label)
    print("clips-key-all: %s" % ("all checks passed" if not failures else
                                 "%d failures" % failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
