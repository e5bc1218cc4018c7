#!/usr/bin/env python3
"""ossa convert from the command line: every demo format to every target (each output loads
again), Cal3D binary -> XML -> binary round trips that sample the same (the demo and every real
.cfg model of ../shared/assets), warnings that name what a target drops, refusals, single Cal3D
files, and a batch.

usage: check_convert.py OSSA SOURCE_ROOT"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg)


def ossa(exe, *args):
    p = subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def samples(exe, model):
    """ossa sample at the bind pose and at three times of the first clips."""
    out = []
    rc, info, _ = ossa(exe, "info", model)
    clips = re.findall(r"^\s+clip\s+(\d+)", info, re.M)
    for args in [[]] + [["--clip", str(c), "--time", t] for c in range(min(2, len(clips)) or 0)
                        for t in ("0.1", "0.45")]:
        rc, csv, err = ossa(exe, "sample", model, *args)
        if rc != 0:
            return None, err
        out.append(csv)
    return out, ""


def main():
    exe, root = sys.argv[1], sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="ossa-convert-")
    try:
        demo = {"cal3d": "cal3d/mannequin.cfg", "cal3d-xml": "cal3d-xml/mannequin.cfg",
                "skm": "skm/mannequin.skm", "c3s": "c3s/mannequin.c3s", "cff": "cff/mannequin.cff"}
        for name, rel in demo.items():
            src = os.path.join(root, "assets", rel)
            for ext in ("cfg", "skm", "c3s", "cff", "glb", "gltf"):
                d = os.path.join(tmp, "demo", name, ext)
                os.makedirs(d)
                out = os.path.join(d, "m." + ext)
                rc, _, err = ossa(exe, "convert", src, "-o", out)
                if rc != 0:
                    fail("%s -> .%s: %s" % (rel, ext, err))
                    continue
                if ext in ("glb", "gltf"):
                    continue
                rc, _, err = ossa(exe, "info", out)
                if rc != 0:
                    fail("%s -> .%s does not load: %s" % (rel, ext, err))
        # what a target drops is named
        src = os.path.join(root, "assets", "cal3d", "mannequin.cfg")
        for ext, words in (("skm", "material colours"), ("cff", "every clip after the first"),
                           ("c3s", "only transparency")):
            rc, _, err = ossa(exe, "convert", src, "-o", os.path.join(tmp, "w." + ext))
            if rc != 0 or words not in err:
                fail(".%s: no warning naming '%s': %s" % (ext, words, err))
        # single Cal3D files: one of the kind, or refused
        rc, _, err = ossa(exe, "convert", src, "-o", os.path.join(tmp, "one.cmf"))
        if rc != 0 or not os.path.exists(os.path.join(tmp, "one.cmf")):
            fail("single .cmf: %s" % err)
        rc, _, err = ossa(exe, "convert", src, "-o", os.path.join(tmp, "one.caf"))
        if rc != 1 or "3 .caf files" not in err:
            fail("single .caf of a 3-clip model not refused: %d %s" % (rc, err))

        # the 1300/1301 lineages: the layout written is the one read back, the samples equal
        for lineage, args in (("mp3butcher", ["--lineage", "mp3butcher"]),
                              ("upstream", ["--version", "1300", "--lineage", "upstream"])):
            out = os.path.join(tmp, "lineage-" + lineage, "m.cfg")
            os.makedirs(os.path.dirname(out))
            rc, _, err = ossa(exe, "convert", src, "-o", out, *args)
            info = ossa(exe, "info", out)[1] if rc == 0 else ""
            if rc != 0 or ", %s 13" % lineage not in info:
                fail("--lineage %s: %d %s %s" % (lineage, rc, err, info[:200]))
            elif samples(exe, out)[0] != samples(exe, src)[0]:
                fail("--lineage %s: samples differ from the source" % lineage)
        rc, _, err = ossa(exe, "convert", src, "-o", os.path.join(tmp, "bad.cfg"), "--lineage",
                          "mp3butcher", "--version", "1100")
        if rc != 2:
            fail("--lineage mp3butcher at 1100 is not a usage error: %d" % rc)

        # binary -> XML -> binary, sampled the same
        models = [src]
        shared = os.environ.get("OSSA_ASSETS", os.path.join(root, "..", "shared", "assets"))
        if os.path.isdir(os.path.join(shared, "cal3d")):
            for d in sorted(os.listdir(os.path.join(shared, "cal3d"))):
                for f in sorted(os.listdir(os.path.join(shared, "cal3d", d))):
                    if f.endswith(".cfg") and d != "paladin-v900":  # its skeleton is elsewhere
                        models.append(os.path.join(shared, "cal3d", d, f))
        for i, model in enumerate(models):
            base = os.path.join(tmp, "rt%d" % i)
            a, b, c = (os.path.join(base, k, "m.cfg") for k in "abc")
            for p in (a, b, c):
                os.makedirs(os.path.dirname(p))
            rc, _, err = ossa(exe, "convert", model, "-o", a)
            extra = []
            if rc != 0 and "1300" in err:  # 1100 cannot hold it (morphs, colours): refused
                extra = ["--version", "1300"]
                rc, _, err = ossa(exe, "convert", model, "-o", a, *extra)
            steps = [(a, b, ["--xml"]), (b, c, extra)]
            for s, t, opts in steps:
                if rc == 0:
                    rc, _, err = ossa(exe, "convert", s, "-o", t, *opts)
            if rc != 0:
                fail("%s: round trip: %s" % (model, err))
                continue
            want, err1 = samples(exe, a)
            for p in (b, c):
                got, err2 = samples(exe, p)
                if want is None or got != want:
                    fail("%s: %s samples differently from the first binary set %s%s" %
                         (model, p, err1, err2))
            print("round trip %s: binary%s -> XML -> binary, samples equal" %
                  (model, " 1300" if extra else " 1100"))

        # a refusal names what the version cannot hold
        imvu = os.path.join(shared, "cal3d-xml", "imvu-tests", "mesh1.xmf")
        if os.path.exists(imvu):
            rc, _, err = ossa(exe, "convert", imvu, "-o", os.path.join(tmp, "r", "m.cfg"),
                              "--version", "1100")
            if rc != 1 or "morph targets" not in err and "colours" not in err:
                fail("mesh1.xmf at 1100 not refused by name: %d %s" % (rc, err))

        # SKM: no false warning about a 'bind' clip (the bind frame reads back as the pose),
        # the same clips back; a clip of no whole number of frames is named with the length
        # it becomes and a rate that keeps it
        demo = os.path.join(root, "assets", "cal3d", "mannequin.cfg")
        skm = os.path.join(tmp, "skm", "m.skm")
        rc, _, err = ossa(exe, "convert", demo, "-o", skm)
        rc2, info, _ = ossa(exe, "info", skm)
        if rc != 0 or "'bind'" in err or rc2 != 0 or "clips: 3" not in info:
            fail("demo to SKM: %d %s\n%s" % (rc, err, info))
        odd = os.path.join(tmp, "odd")
        shutil.copytree(os.path.join(root, "assets", "cal3d-xml"), odd)
        for f in os.listdir(odd):
            if f.endswith(".xaf"):
                p = os.path.join(odd, f)
                text = open(p).read()
                text = re.sub(r'DURATION="[0-9.]+"', 'DURATION="1.3333334"', text, count=1)
                open(p, "w").write(text)
        rc, _, err = ossa(exe, "convert", os.path.join(odd, "mannequin.cfg"), "-o",
                          os.path.join(tmp, "odd-out", "m.skm"))
        if rc != 0 or "1.333 s becomes 1.3 s" not in err or "--fps 12 keeps it" not in err:
            fail("a 1.333 s clip to SKM at 10 fps: %d %s" % (rc, err))

        # a batch: every demo model into Cal3D XML sets
        rc, _, err = ossa(exe, "convert", os.path.join(root, "assets"), "-o",
                          os.path.join(tmp, "batch"), "--to", "xml")
        lines = [l for l in err.splitlines() if re.match(r"ossa convert: \[\d+/6\] .* ok", l)]
        if rc != 0 or len(lines) != 6 or "6 written" not in err:
            fail("batch convert of assets/: %d\n%s" % (rc, err))
        for l in lines:
            out = l.split(" -> ")[1].split(":")[0]
            set_cfg = os.path.join(out[:-4], os.path.basename(out))
            if ossa(exe, "info", set_cfg)[0] != 0:
                fail("batch output %s does not load" % set_cfg)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("convert-cli: %s" % ("all checks passed" if not failures else "%d failures" % failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
