#!/usr/bin/env python3
"""The Khronos glTF-Validator over every export: the demo in every format in assets/ (a batch
export of the folder), .gltf outputs with files beside and embedded, and every model of
../shared/assets (a batch; its one broken .cfg must fail alone and the rest go on). Fails on any
validator error, printing the validator's messages; a validator warning whose code
docs/FORMATS.md does not explain fails too. Installs gltf-validator (npm) into the build folder
when missing; skips (77) when node/npm or the registry cannot be had.

usage: check_validator.py OSSA_CLI SOURCE_ROOT VALIDATE_JS"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

VERSION = "2.0.0-dev.3.10"
SKIP = 77


def validator_dir():
    d = os.environ.get("OSSA_GLTF_VALIDATOR") or os.path.join(
        os.environ.get("OSSA_BUILD_ROOT", "."), "gltf-validator")
    pkg = os.path.join(d, "node_modules", "gltf-validator", "package.json")
    if not os.path.exists(pkg):
        if not shutil.which("node") or not shutil.which("npm"):
            print("SKIP: node and npm are not installed (./run.sh test installs them)")
            sys.exit(SKIP)
        os.makedirs(d, exist_ok=True)
        try:
            r = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", d,
                                "gltf-validator@" + VERSION], capture_output=True, text=True,
                               timeout=600)
        except subprocess.TimeoutExpired:
            r = None
        if r is None or r.returncode != 0 or not os.path.exists(pkg):
            print("SKIP: npm could not install gltf-validator@%s (no network or registry?)%s"
                  % (VERSION, "\n" + r.stderr[-2000:] if r else ""))
            sys.exit(SKIP)
    with open(pkg) as f:
        got = json.load(f).get("version")
    if got != VERSION:
        print("FAIL: %s holds gltf-validator %s, not %s" % (d, got, VERSION))
        sys.exit(1)
    return os.path.join(d, "node_modules", "gltf-validator")


LOOSE_XSF = """<HEADER MAGIC="XSF" VERSION="910"/>
<SKELETON NUMBONES="2">
  <BONE ID="0" NAME="left" NUMCHILD="0">
    <TRANSLATION>-1 0 0</TRANSLATION><ROTATION>0 0 0 1</ROTATION>
    <LOCALTRANSLATION>1 0 0</LOCALTRANSLATION><LOCALROTATION>0 0 0 1</LOCALROTATION>
    <PARENTID>-1</PARENTID>
  </BONE>
  <BONE ID="1" NAME="right" NUMCHILD="0">
    <TRANSLATION>1 0 0</TRANSLATION><ROTATION>0 0 0 1</ROTATION>
    <LOCALTRANSLATION>-1 0 0</LOCALTRANSLATION><LOCALROTATION>0 0 0 1</LOCALROTATION>
    <PARENTID>-1</PARENTID>
  </BONE>
</SKELETON>
"""


# the same two bones, "right" a child of "left": one root bone, and the stand-in joint
ONE_ROOT_XSF = (LOOSE_XSF.replace('NAME="left" NUMCHILD="0"', 'NAME="left" NUMCHILD="1"')
                .replace("<PARENTID>-1</PARENTID>\n  </BONE>\n  <BONE ID=\"1\"",
                         "<PARENTID>-1</PARENTID>\n    <CHILDID>1</CHILDID>\n  </BONE>\n"
                         "  <BONE ID=\"1\"")
                .replace("<LOCALTRANSLATION>-1 0 0</LOCALTRANSLATION><LOCALROTATION>0 0 0 1"
                         "</LOCALROTATION>\n    <PARENTID>-1</PARENTID>",
                         "<LOCALTRANSLATION>-1 0 0</LOCALTRANSLATION><LOCALROTATION>0 0 0 1"
                         "</LOCALROTATION>\n    <PARENTID>0</PARENTID>"))


def loose_xmf():
    """A quad whose last vertex has no influence; the others hang on either root bone."""
    verts = []
    corners = [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0)]
    for i, (x, y, z) in enumerate(corners):
        inf = '<INFLUENCE ID="%d">1</INFLUENCE>' % (i % 2) if i < 3 else ""
        verts.append('<VERTEX ID="%d" NUMINFLUENCES="%d"><POS>%d %d %d</POS><NORM>0 0 1</NORM>'
                     '%s</VERTEX>' % (i, 1 if i < 3 else 0, x, y, z, inf))
    return ('<HEADER MAGIC="XMF" VERSION="910"/>\n<MESH NUMSUBMESH="1">\n'
            '<SUBMESH NUMVERTICES="4" NUMFACES="2" NUMLODSTEPS="0" NUMSPRINGS="0" '
            'NUMTEXCOORDS="0" MATERIAL="0">\n' + "\n".join(verts) +
            '\n<FACE VERTEXID="0 1 2"/><FACE VERTEXID="0 2 3"/>\n</SUBMESH>\n</MESH>\n')


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def main():
    ossa, root, validate_js = sys.argv[1:4]
    module = validator_dir()
    failures = []
    tmp = tempfile.mkdtemp(prefix="ossa-gltf-validator-")
    try:
        # The demo in every format: a batch over assets/, which must export every model.
        rc, _, err = run([ossa, "export", os.path.join(root, "assets"), "-o",
                          os.path.join(tmp, "demo"), "--verbose"])
        sys.stdout.write(err)
        progress = [l for l in err.splitlines() if re.match(r"ossa export: \[\d+/\d+\] ", l)]
        if rc != 0 or len(progress) != 6 or "6 written" not in err:
            failures.append("batch export of assets/: status %d, %d progress lines" %
                            (rc, len(progress)))
        cfg = os.path.join(root, "assets", "cal3d", "mannequin.cfg")
        for out, extra in ((os.path.join(tmp, "beside", "mannequin.gltf"), []),
                           (os.path.join(tmp, "embed", "mannequin.gltf"), ["--embed"]),
                           (os.path.join(tmp, "beside", "c3s.gltf"), [])):
            os.makedirs(os.path.dirname(out), exist_ok=True)
            src = cfg if "mannequin" in out else os.path.join(root, "assets", "c3s",
                                                               "mannequin.c3s")
            rc, _, err = run([ossa, "export", src, "-o", out] + extra)
            if rc != 0:
                failures.append("export %s: %s" % (out, err))
        # names that are not UTF-8 (Latin-1, as old exporters wrote them) still export
        latin = os.path.join(tmp, "latin1-src")
        shutil.copytree(os.path.join(root, "assets", "cal3d-xml"), latin)
        for f in os.listdir(latin):
            if f.endswith(".xsf"):
                p = os.path.join(latin, f)
                data = open(p, "rb").read().replace(b'NAME="pelvis"', b'NAME="pelv\xe9s"')
                open(p, "wb").write(data)
        os.makedirs(os.path.join(tmp, "latin1"))
        rc, _, err = run([ossa, "export", os.path.join(latin, "mannequin.cfg"), "-o",
                          os.path.join(tmp, "latin1", "latin1.gltf")])
        shutil.rmtree(latin)
        if rc != 0:
            failures.append("a Latin-1 bone name: %s" % err)
        else:
            with open(os.path.join(tmp, "latin1", "latin1.gltf"), encoding="utf-8") as f:
                if json.load(f)["nodes"][0]["name"] != "pelv\u00e9s":
                    failures.append("the Latin-1 bone name is not read as Latin-1")
        # c3s.gltf: its TGA textures are written beside as PNG
        pngs = [f for f in os.listdir(os.path.join(tmp, "beside")) if f.startswith("c3s_")]
        if len(pngs) != 3 or not all(f.endswith(".png") for f in pngs):
            failures.append("c3s.gltf: textures beside: %s" % pngs)

        # a vertex without influences (the stand-in joint) and two root bones: the skin's
        # joints must still share one root (SKIN_NO_COMMON_ROOT otherwise)
        loose = os.path.join(tmp, "loose-src")
        os.makedirs(loose)
        with open(os.path.join(loose, "loose.xsf"), "w") as f:
            f.write(LOOSE_XSF)
        with open(os.path.join(loose, "loose.xmf"), "w") as f:
            f.write(loose_xmf())
        with open(os.path.join(loose, "one.xsf"), "w") as f:
            f.write(ONE_ROOT_XSF)
        os.makedirs(os.path.join(tmp, "loose"))
        for skel in ("loose", "one"):
            rc, _, err = run([ossa, "export", os.path.join(loose, skel + ".xsf"),
                              os.path.join(loose, "loose.xmf"), "-o",
                              os.path.join(tmp, "loose", skel + ".glb")])
            if rc != 0:
                failures.append("unweighted vertices (%s): %s" % (skel, err))
        shutil.rmtree(loose)

        shared = os.environ.get("OSSA_ASSETS", os.path.join(root, "..", "shared", "assets"))
        if os.path.isdir(shared):
            rc, _, err = run([ossa, "export", shared, "-o", os.path.join(tmp, "shared")])
            sys.stdout.write(err)
            failed = [l for l in err.splitlines() if ": FAILED: " in l]
            # paladin-v900's .cfg names a paladin.csf that folder lacks: it fails, the rest go on
            if rc != 1 or len(failed) != 1 or "paladin-v900" not in failed[0]:
                failures.append("batch export of ../shared/assets: status %d, failed: %s" %
                                (rc, failed))
            v900 = os.path.join(shared, "cal3d", "paladin-v900")
            rc, _, err = run([ossa, "export", os.path.join(v900, "..", "paladin", "paladin.csf"),
                              os.path.join(v900, "paladin_body.cmf"),
                              os.path.join(v900, "paladin_cape.cmf"),
                              os.path.join(v900, "paladin_loincloth.cmf"),
                              os.path.join(v900, "..", "paladin", "paladin_walk.caf"),
                              "-o", os.path.join(tmp, "shared", "paladin-v900.glb")])
            if rc != 0:
                failures.append("paladin-v900 with paladin's skeleton: %s" % err)
        else:
            print("../shared/assets absent: the demo assets only")

        files = sorted(os.path.join(d, f) for d, _, fs in os.walk(tmp) for f in fs
                       if f.endswith(".glb") or f.endswith(".gltf"))
        rc, out, err = run(["node", validate_js, module] + files)
        sys.stdout.write(out + err)
        if rc != 0:
            failures.append("the validator reports errors (above)")
        with open(os.path.join(root, "docs", "FORMATS.md")) as f:
            docs = f.read()
        for code in sorted(set(re.findall(r"^  warning (\w+)", out, re.M))):
            if code not in docs:
                failures.append("validator warning %s is not explained in docs/FORMATS.md" % code)
        print("%d files validated" % len(files))
        if len(files) < 10:
            failures.append("only %d files exported" % len(files))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    print("gltf-validator: %s" % ("all checks passed" if not failures else
                                  "%d failures" % len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
