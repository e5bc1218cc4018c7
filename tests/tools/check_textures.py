#!/usr/bin/env python3
"""Texture files that ossa export, convert and info follow (docs/FORMATS.md, "Texture files").

A Cal3D XML cube is written into MODEL/ under a scratch folder, with one material per case. A
texture that resolves outside the model's folders (../secret.png, ..\\secret.png, an absolute
path, a symbolic link out, one found only with .png appended) is left out with a warning naming
it: the secret's bytes are not in the .glb, and convert writes no path to it; --allow-outside
embeds it. Textures inside the .cfg's folder tree or a path= folder are embedded. A FIFO, a
device and images whose header declares more than the pixel cap are refused at once, with a
warning naming the file (and the cap).

usage: check_textures.py OSSA"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

failures = 0
SECRET = b"OSSA-SECRET-7f3c9e"   # in a tEXt chunk of every PNG outside the model
INSIDE = b"OSSA-INSIDE-51a2d0"   # in the PNG inside it


def fail(msg):
    global failures
    failures += 1
    print("FAIL:", msg)


def ossa(exe, *args, timeout=60):
    start = time.monotonic()
    try:
        p = subprocess.run([exe, *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, "", "timed out after %d s" % timeout, timeout
    return p.returncode, p.stdout, p.stderr, time.monotonic() - start


def chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))


def png(marker, width=2, height=2):
    """A small RGB PNG carrying marker in a tEXt chunk; width/height as declared by IHDR (the
    pixel data is for 2 x 2, enough for a header-only check)."""
    rows = b"".join(b"\0" + b"\xc8\x1e\x1e" * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                                0, 0, 0)) +
            chunk(b"tEXt", b"Comment\0" + marker) + chunk(b"IDAT", zlib.compress(rows)) +
            chunk(b"IEND", b""))


def rle_tga(width, height):
    """A run-length TGA (type 10, 32 bits) declaring width x height: a few kilobytes of
    128-pixel runs, far fewer than it declares."""
    head = struct.pack("<BBBHHBHHHHBB", 0, 0, 10, 0, 0, 0, 0, 0, width, height, 32, 8)
    return head + (b"\xff" + b"\x10\x20\x30\xff") * 2000


XSF = """<HEADER MAGIC="XSF" VERSION="910"/>
<SKELETON NUMBONES="1">
  <BONE ID="0" NAME="root" NUMCHILD="0">
    <TRANSLATION>0 0 0</TRANSLATION><ROTATION>0 0 0 1</ROTATION>
    <LOCALTRANSLATION>0 0 0</LOCALTRANSLATION><LOCALROTATION>0 0 0 1</LOCALROTATION>
    <PARENTID>-1</PARENTID>
  </BONE>
</SKELETON>
"""


def xmf():
    verts = []
    corners = [(-1, -1, 0, 0, 0), (1, -1, 0, 1, 0), (1, 1, 0, 1, 1), (-1, 1, 0, 0, 1)]
    for i, (x, y, z, u, v) in enumerate(corners):
        verts.append('<VERTEX ID="%d" NUMINFLUENCES="1"><POS>%d %d %d</POS><NORM>0 0 1</NORM>'
                     '<TEXCOORD>%d %d</TEXCOORD><INFLUENCE ID="0">1</INFLUENCE></VERTEX>'
                     % (i, x, y, z, u, v))
    return ('<HEADER MAGIC="XMF" VERSION="910"/>\n<MESH NUMSUBMESH="1">\n'
            '<SUBMESH NUMVERTICES="4" NUMFACES="2" NUMLODSTEPS="0" NUMSPRINGS="0" '
            'NUMTEXCOORDS="1" MATERIAL="0">\n' + "\n".join(verts) +
            '\n<FACE VERTEXID="0 1 2"/><FACE VERTEXID="0 2 3"/>\n</SUBMESH>\n</MESH>\n')


def xrf(texture):
    return ('<HEADER MAGIC="XRF" VERSION="910"/>\n<MATERIAL NUMMAPS="1">\n'
            '<AMBIENT>255 255 255 0</AMBIENT><DIFFUSE>255 255 255 0</DIFFUSE>'
            '<SPECULAR>0 0 0 0</SPECULAR><SHININESS>0</SHININESS>\n'
            '<MAP TYPE="Diffuse Color">%s</MAP>\n</MATERIAL>\n' % texture)


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def model(tmp, name, texture, material_dir="", path_line=""):
    """MODEL/NAME.cfg: the cube with a material NAME.xrf naming texture, in material_dir under
    the model's folder, or under the folder a path= line names."""
    mdir = os.path.join(tmp, "model")
    mat = os.path.join(material_dir, name + ".xrf") if material_dir else name + ".xrf"
    write(os.path.normpath(os.path.join(mdir, path_line, mat)), xrf(texture))
    cfg = "skeleton=cube.xsf\nmesh=cube.xmf\n"
    if path_line:  # skeleton and mesh are named before it, relative to the cfg
        cfg += "path=%s\n" % path_line
    cfg += "material=%s\n" % mat
    write(os.path.join(mdir, name + ".cfg"), cfg)
    return os.path.join(mdir, name + ".cfg")


def export(exe, cfg, out, *extra):
    rc, _, err, took = ossa(exe, "export", cfg, "-o", out, *extra)
    data = open(out, "rb").read() if rc == 0 and os.path.exists(out) else b""
    return rc, err, data, took


def main():
    exe = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="ossa-textures-")
    try:
        mdir = os.path.join(tmp, "model")
        write(os.path.join(mdir, "cube.xsf"), XSF)
        write(os.path.join(mdir, "cube.xmf"), xmf())
        write(os.path.join(tmp, "secret.png"), png(SECRET))
        absolute = os.path.join(tmp, "abs.png")
        write(absolute, png(SECRET))
        write(os.path.join(mdir, "textures", "ok.png"), png(INSIDE))
        os.symlink(os.path.join("..", "secret.png"), os.path.join(mdir, "link.png"))
        os.symlink(os.path.join(tmp, "secret.png"), os.path.join(mdir, "bare.png"))
        os.makedirs(os.path.join(tmp, "out"))

        outside = {"dotdot": "../secret.png", "backslash": "..\\secret.png",
                   "absolute": absolute, "symlink": "link.png",
                   "symlink-no-extension": "bare"}
        for case, texture in outside.items():
            cfg = model(tmp, case, texture)
            glb = os.path.join(tmp, "out", case + ".glb")
            rc, err, data, _ = export(exe, cfg, glb)
            if rc != 0:
                fail("%s: export failed: %s" % (case, err))
                continue
            if SECRET in data:
                fail("%s: the secret's bytes are in the .glb" % case)
            if "outside the model's folders" not in err or texture not in err:
                fail("%s: no warning naming %s: %s" % (case, texture, err))
            rc, err, data, _ = export(exe, cfg, glb, "--allow-outside")
            if rc != 0 or SECRET not in data:
                fail("%s: --allow-outside does not embed it: %d %s" % (case, rc, err))
            if "outside the model's folders" in err:
                fail("%s: --allow-outside still warns: %s" % (case, err))
            # convert writes no path to it; info shows the warning
            out = os.path.join(tmp, "out", case, "m.cfg")
            os.makedirs(os.path.dirname(out))
            rc, _, err, _ = ossa(exe, "convert", cfg, "-o", out, "--xml")
            written = b"".join(open(os.path.join(os.path.dirname(out), f), "rb").read()
                               for f in os.listdir(os.path.dirname(out))) if rc == 0 else b""
            if rc != 0 or b"<MAP" in written:
                fail("%s: convert copies the path or fails: %d %s" % (case, rc, err))
            rc, info, _, _ = ossa(exe, "info", cfg)
            if rc != 0 or "outside the model's folders" not in info:
                fail("%s: ossa info shows no warning: %s" % (case, info))

        # inside the model's folders: the cfg's tree (also up from a material in a subfolder),
        # and a path= folder outside it
        write(os.path.join(tmp, "parts", "tex", "shared.png"), png(INSIDE))
        inside = [model(tmp, "plain", "textures/ok.png"),
                  model(tmp, "up", "../textures/ok.png", material_dir="mats"),
                  model(tmp, "pathfolder", "../tex/shared.png", material_dir="mats",
                        path_line="../parts")]
        for cfg in inside:
            rc, err, data, _ = export(exe, cfg, os.path.join(tmp, "out", "in.glb"))
            if rc != 0 or INSIDE not in data or "outside" in err:
                fail("%s: a texture inside is not embedded: %d %s" % (cfg, rc, err))

        # named relative to the character's folder, not the material's: an XRF in mats/ naming
        # textures/ok.png (found beside the .cfg), and one in a path= folder naming tex/...
        for cfg, where in ((model(tmp, "charrel", "textures/ok.png", material_dir="mats"),
                            "beside the .cfg"),
                           (model(tmp, "pathrel", "tex/shared.png", material_dir="mats",
                                  path_line="../parts"), "in a path= folder")):
            rc, err, data, _ = export(exe, cfg, os.path.join(tmp, "out", "rel.glb"))
            if rc != 0 or INSIDE not in data or "not beside its material" not in err or \
                    where not in err:
                fail("%s: a texture relative to the set is not found (%s): %d %s"
                     % (cfg, where, rc, err))

        # osgCal's "Key:value" maps: DiffuseMap names the texture, NormalsMap another texture,
        # Sides/Opacity/Glossiness are settings kept in info and the glTF material's extras,
        # and a convert to Cal3D writes them back as they were
        write(os.path.join(mdir, "face.png"), png(INSIDE))
        osg = os.path.join(mdir, "osg.xrf")
        write(osg, xrf("Sides:2</MAP>\n<MAP>Opacity:0.5</MAP>\n<MAP>Glossiness:50</MAP>\n"
                       "<MAP>DiffuseMap:face.png</MAP>\n<MAP>NormalsMap:face_n.png")
              .replace('NUMMAPS="1"', 'NUMMAPS="5"').replace(' TYPE="Diffuse Color"', ""))
        write(os.path.join(mdir, "osg.cfg"), "skeleton=cube.xsf\nmesh=cube.xmf\nmaterial=osg.xrf\n")
        cfg = os.path.join(mdir, "osg.cfg")
        rc, info, err, _ = ossa(exe, "info", "--json", cfg)
        mats = json.loads(info)["materials"] if rc == 0 else []
        want = {"Sides": "2", "Opacity": "0.5", "Glossiness": "50"}
        if len(mats) != 1 or mats[0].get("properties") != want or \
                mats[0].get("maps") != ["DiffuseMap:face.png", "NormalsMap:face_n.png"]:
            fail("osgCal maps in info --json: %s %s" % (mats, err))
        rc, err, data, _ = export(exe, cfg, os.path.join(tmp, "out", "osg.glb"))
        if rc != 0 or INSIDE not in data or b'"cal3d_material_properties"' not in data or \
                b'"Sides":"2"' not in data.replace(b" ", b""):
            fail("osgCal maps in the glTF: %d %s" % (rc, err))
        rc, _, err, _ = ossa(exe, "convert", cfg, "-o", os.path.join(tmp, "out", "osg", "o.cfg"),
                             "--xml")
        back = os.path.join(tmp, "out", "osg", "osg.xrf")
        text = open(back).read() if rc == 0 and os.path.exists(back) else ""
        if "<MAP>Sides:2</MAP>" not in text or "<MAP>DiffuseMap:face.png</MAP>" not in text or \
                "TYPE=" in text:
            fail("osgCal maps written back: %d %s\n%s" % (rc, err, text))

        # what is not a file, and images declaring more pixels than the cap: refused at once
        fifo = os.path.join(mdir, "fifo.png")
        os.mkfifo(fifo)
        write(os.path.join(mdir, "huge.tga"), rle_tga(16384, 16384))
        write(os.path.join(mdir, "huge.png"), png(INSIDE, 100000, 100000))
        refused = {"fifo": ("fifo.png", [], "FIFO"),
                   "urandom": ("/dev/urandom", ["--allow-outside"], "device"),
                   "huge-tga": ("huge.tga", [], "16384 x 16384"),
                   "huge-png": ("huge.png", [], "100000 x 100000")}
        for case, (texture, extra, words) in refused.items():
            cfg = model(tmp, case, texture)
            rc, err, data, took = export(exe, cfg, os.path.join(tmp, "out", case + ".glb"),
                                         *extra)
            print("%s: export took %.2f s" % (case, took))
            if rc != 0 or words not in err or INSIDE in data or took > 10:
                fail("%s: not refused at once with a warning naming '%s' (%.1f s): %d %s"
                     % (case, words, took, rc, err))
            if case.startswith("huge") and "8192 x 8192" not in err:
                fail("%s: the warning does not name the cap: %s" % (case, err))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("check_textures: %d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
