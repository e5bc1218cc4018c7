#!/usr/bin/env python3
"""glTF export keeps at most four joint influences per vertex by default (three.js and most
engines read JOINTS_0/WEIGHTS_0 only): the smallest are dropped, the rest renormalised, with a
warning giving how far that moves vertices over the clips; --max-influences N keeps more.

A chain of six bones and a quad whose vertices each have six influences, with a clip that bends
the chain, is exported three ways: by default (one set, four weights summing to 1, a warning with
a displacement above 0 over the clips), with --max-influences 8 (two sets, no warning) and with
--max-influences 2 (two weights).

usage: check_influences.py OSSA
"""
import math
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


BONES = 6


def xsf():
    bones = []
    for b in range(BONES):
        child = '<CHILDID>%d</CHILDID>' % (b + 1) if b + 1 < BONES else ""
        bones.append('<BONE ID="%d" NAME="b%d" NUMCHILD="%d"><TRANSLATION>%d 0 0</TRANSLATION>'
                     '<ROTATION>0 0 0 1</ROTATION><LOCALTRANSLATION>%d 0 0</LOCALTRANSLATION>'
                     '<LOCALROTATION>0 0 0 1</LOCALROTATION><PARENTID>%d</PARENTID>%s</BONE>'
                     % (b, b, 1 if child else 0, 0 if b == 0 else 1, -b, b - 1, child))
    return ('<HEADER MAGIC="XSF" VERSION="910"/>\n<SKELETON NUMBONES="%d">\n%s\n</SKELETON>\n'
            % (BONES, "\n".join(bones)))


def xmf():
    verts = []
    weights = [0.3, 0.25, 0.2, 0.12, 0.08, 0.05]
    for i, (x, y) in enumerate([(0, 0), (5, 0), (5, 1), (0, 1)]):
        inf = "".join('<INFLUENCE ID="%d">%g</INFLUENCE>' % ((b + i) % BONES, w)
                      for b, w in enumerate(weights))
        verts.append('<VERTEX ID="%d" NUMINFLUENCES="%d"><POS>%d %d 0</POS><NORM>0 0 1</NORM>%s'
                     '</VERTEX>' % (i, len(weights), x, y, inf))
    return ('<HEADER MAGIC="XMF" VERSION="910"/>\n<MESH NUMSUBMESH="1">\n<SUBMESH NUMVERTICES="4" '
            'NUMFACES="2" NUMLODSTEPS="0" NUMSPRINGS="0" NUMTEXCOORDS="0" MATERIAL="0">\n%s\n'
            '<FACE VERTEXID="0 1 2"/><FACE VERTEXID="0 2 3"/>\n</SUBMESH>\n</MESH>\n'
            % "\n".join(verts))


def xaf():
    tracks = []
    for b in range(1, BONES):
        keys = []
        for t, angle in ((0.0, 0.0), (1.0, 0.6)):
            keys.append('<KEYFRAME TIME="%g"><TRANSLATION>1 0 0</TRANSLATION><ROTATION>0 0 %g %g'
                        '</ROTATION></KEYFRAME>' % (t, math.sin(angle / 2), math.cos(angle / 2)))
        tracks.append('<TRACK BONEID="%d" NUMKEYFRAMES="2">%s</TRACK>' % (b, "".join(keys)))
    return ('<HEADER MAGIC="XAF" VERSION="910"/>\n<ANIMATION DURATION="1" NUMTRACKS="%d">\n%s\n'
            '</ANIMATION>\n' % (len(tracks), "\n".join(tracks)))


def export(exe, tmp, name, *extra):
    out = os.path.join(tmp, name + ".glb")
    p = subprocess.run([exe, "export", os.path.join(tmp, "chain.xsf"),
                        os.path.join(tmp, "chain.xmf"), os.path.join(tmp, "bend.xaf"), "-o", out,
                        *extra], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail("export %s: %s" % (name, p.stderr))
        return None, None, p.stderr
    doc, binary = read_glb(out)
    return doc, binary, p.stderr


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="ossa-influences-") as tmp:
        for name, text in (("chain.xsf", xsf()), ("chain.xmf", xmf()), ("bend.xaf", xaf())):
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        doc, binary, err = export(exe, tmp, "four")
        if doc:
            attrs = doc["meshes"][0]["primitives"][0]["attributes"]
            if "JOINTS_1" in attrs or "WEIGHTS_0" not in attrs:
                fail("default: sets %s" % sorted(attrs))
            w = [x for v in floats(doc, binary, attrs["WEIGHTS_0"]) for x in v]
            for v in range(4):
                q = w[4 * v:4 * v + 4]
                if abs(sum(q) - 1.0) > 1e-6 or min(q) <= 0.0:
                    fail("default: vertex %d weights %s" % (v, q))
            m = [l for l in err.splitlines() if "more than 4 influences" in l]
            moved = float(m[0].split("move up to ")[1].split(" ")[0]) if m else 0.0
            if not m or "4 vertices" not in m[0] or not moved > 0.0:
                fail("default: no warning with a displacement over the clips: %s" % err)
        doc, binary, err = export(exe, tmp, "eight", "--max-influences", "8")
        if doc:
            attrs = doc["meshes"][0]["primitives"][0]["attributes"]
            if "JOINTS_1" not in attrs or "influences (up to" in err:
                fail("--max-influences 8: sets %s, %s" % (sorted(attrs), err))
        doc, binary, err = export(exe, tmp, "two", "--max-influences", "2")
        if doc:
            w = [x for v in floats(doc, binary,
                                      doc["meshes"][0]["primitives"][0]["attributes"]["WEIGHTS_0"])
                 for x in v]
            if any(w[4 * v + 2] != 0.0 or w[4 * v + 3] != 0.0 for v in range(4)):
                fail("--max-influences 2: weights %s" % (w,))
    print("influences: %s" % ("all checks passed" if not failures else "%d failures" % failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
