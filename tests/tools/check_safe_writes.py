#!/usr/bin/env python3
"""A user's files survive `ossa convert` and `ossa export` (docs/RELIABILITY.md).

usage: check_safe_writes.py OSSA SOURCE_ROOT

Each check builds its own folder from the committed demo assets and runs the command line:
- an output that is one of the inputs (a set converted into its own folder, a batch over its
  own folder, a file converted onto itself) is refused with exit 1 naming both paths, and the
  input keeps its bytes; --overwrite replaces it, through a temporary;
- a second Cal3D set written into a folder does not replace the first set's files;
- a write that fails (a file-size limit) leaves the target as it was and nothing behind;
- an output where a link stands replaces the link, never the file it points to;
- 103 models with one name in a batch give 103 files, and the summary counts them;
- a batch, or a folder opened as one model, does not follow a link out of the folder it was
  given (unless --allow-outside, for the latter); a folder too deep for the
  system's path limit fails the run instead of exporting "0 of 0";
- an output path far over 700 characters is written, not cut;
- an animation file alone (a CAF) has nothing to export: `export walk.caf` exits 1 saying so,
  a batch skips it ("skipped (nothing to export)") without counting it written, and a batch of
  nothing but animations exits 1.
"""
import hashlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile

failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def run(exe, *args, limit=None, cwd=None):
    def pre():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    p = subprocess.run([exe] + list(args), capture_output=True, text=True, cwd=cwd,
                       preexec_fn=pre if limit is not None else None, timeout=300)
    return p.returncode, p.stdout, p.stderr


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def digests(folder):
    out = {}
    for base, _, names in os.walk(folder):
        for n in names:
            p = os.path.join(base, n)
            if not os.path.islink(p):
                out[os.path.relpath(p, folder)] = digest(p)
    return out


def leftovers(folder):
    return [n for _, _, names in os.walk(folder) for n in names
            if ".ossa-" in n or n.startswith(".ossa-convert")]


def main():
    exe, root = sys.argv[1], sys.argv[2]
    assets = os.path.join(root, "assets")
    tmp = tempfile.mkdtemp(prefix="ossa-safe-")
    try:
        # 1. a set converted into its own folder: its meshes and clips keep their names
        hero = os.path.join(tmp, "hero")
        shutil.copytree(os.path.join(assets, "cal3d"), hero)
        before = digests(hero)
        rc, _, err = run(exe, "convert", os.path.join(hero, "mannequin.cfg"), "-o",
                         os.path.join(hero, "hero_new.cfg"))
        cmf = os.path.join(hero, "mannequin.cmf")
        if rc != 1 or "refused" not in err or err.count(cmf) < 2:
            fail("convert into the set's own folder: rc %d, not refused naming both paths:\n%s"
                 % (rc, err))
        if digests(hero) != before:
            fail("convert into the set's own folder changed the set")
        if leftovers(hero):
            fail("temporaries left behind: %s" % leftovers(hero))
        print("a set converted into its own folder is refused, the set unchanged")

        # --overwrite replaces the inputs, through temporaries: the new set loads
        rc, _, err = run(exe, "convert", os.path.join(hero, "mannequin.cfg"), "-o",
                         os.path.join(hero, "hero_new.cfg"), "--overwrite")
        if rc != 0 or run(exe, "info", os.path.join(hero, "hero_new.cfg"))[0] != 0:
            fail("--overwrite: rc %d\n%s" % (rc, err))
        print("--overwrite replaces them and the new set loads")

        # 2. a batch over its own folder: the source .skm is refused, not replaced unread
        b = os.path.join(tmp, "b")
        shutil.copytree(os.path.join(assets, "skm"), b)
        before = digests(b)
        rc, _, err = run(exe, "convert", b, "-o", b, "--to", "skm")
        if rc != 1 or "refused" not in err or "0 written" not in err:
            fail("convert b -o b --to skm: rc %d\n%s" % (rc, err))
        if digests(b) != before:
            fail("convert b -o b --to skm changed the sources")
        print("a batch over its own folder refuses the sources, which keep their bytes")

        # 3. a file converted onto itself
        one = os.path.join(tmp, "one")
        shutil.copytree(os.path.join(assets, "c3s"), one)
        c3s = os.path.join(one, "mannequin.c3s")
        before = digest(c3s)
        rc, _, err = run(exe, "convert", c3s, "-o", c3s)
        if rc != 1 or err.count(c3s) < 2 or digest(c3s) != before:
            fail("convert x.c3s -o x.c3s: rc %d\n%s" % (rc, err))
        # a write that fails part way (a file-size limit) leaves the target whole
        rc, _, err = run(exe, "convert", c3s, "-o", c3s, "--overwrite", limit=4096)
        if rc != 1 or digest(c3s) != before or leftovers(one):
            fail("failed write: rc %d, target %s, left %s\n%s" %
                 (rc, "kept" if digest(c3s) == before else "CHANGED", leftovers(one), err))
        glb = os.path.join(one, "m.glb")
        with open(glb, "wb") as f:
            f.write(b"an earlier export")
        rc, _, err = run(exe, "export", c3s, "-o", glb, limit=4096)
        if rc != 1 or open(glb, "rb").read() != b"an earlier export" or leftovers(one):
            fail("failed export: rc %d\n%s" % (rc, err))
        print("a file onto itself is refused; a failed write leaves the target as it was")

        # 4. two sets into one folder: the second may not replace the first's clips
        two = os.path.join(tmp, "two")
        os.makedirs(two)
        rc1 = run(exe, "convert", os.path.join(assets, "cal3d", "mannequin.cfg"), "-o",
                  os.path.join(two, "a.cfg"))[0]
        walk = os.path.join(two, "walk.caf")
        first = digest(walk) if os.path.exists(walk) else None
        rc, _, err = run(exe, "convert", os.path.join(assets, "skm", "mannequin.skm"), "-o",
                         os.path.join(two, "b.cfg"))
        if rc1 != 0 or first is None or rc != 1 or "a.cfg" not in err or \
                digest(walk) != first:
            fail("second set into one folder: rc %d/%d\n%s" % (rc1, rc, err))
        if run(exe, "convert", os.path.join(assets, "cal3d", "mannequin.cfg"), "-o",
               os.path.join(two, "a.cfg"))[0] != 0:
            fail("a set written again over its own earlier files was refused")
        print("a second set into one folder leaves the first set's files alone")

        # 5. a link at an output's name is replaced, its target untouched
        src, out = os.path.join(tmp, "src"), os.path.join(tmp, "out")
        shutil.copytree(os.path.join(assets, "skm"), src)
        os.makedirs(out)
        victim = os.path.join(tmp, "victim.txt")
        with open(victim, "w") as f:
            f.write("private\n")
        os.symlink("../victim.txt", os.path.join(out, "mannequin.glb"))
        rc, _, err = run(exe, "export", src, "-o", out)
        if rc != 0 or open(victim).read() != "private\n" or \
                os.path.islink(os.path.join(out, "mannequin.glb")):
            fail("export over a link: rc %d, victim %r\n%s" % (rc, open(victim).read(), err))
        print("an output where a link stands replaces the link, not its target")

        # 6. 103 models with one name: 103 files, counted
        many = os.path.join(tmp, "many")
        inputs = []
        for i in range(103):
            d = os.path.join(many, "%03d" % i)
            os.makedirs(d)
            p = os.path.join(d, "m.cff")
            shutil.copy(os.path.join(assets, "cff", "mannequin.cff"), p)
            inputs.append(p)
        rc, _, err = run(exe, "export", *inputs, "-o", os.path.join(tmp, "many-out"))
        made = os.listdir(os.path.join(tmp, "many-out")) if rc == 0 else []
        if rc != 0 or len(made) != 103 or "103 written (103 files" not in err:
            fail("103 models of one name: rc %d, %d files\n%s" % (rc, len(made), err[-400:]))
        print("103 models of one name give 103 files, and the summary says so")

        # 7. a batch does not follow a link out of its folder
        linked = os.path.join(tmp, "linked")
        os.makedirs(linked)
        outside = os.path.join(tmp, "outside.cff")
        shutil.copy(os.path.join(assets, "cff", "mannequin.cff"), outside)
        os.symlink(outside, os.path.join(linked, "x.cff"))
        rc, _, err = run(exe, "export", linked, "-o", os.path.join(tmp, "linked-out"))
        if rc == 0 or "outside" not in err or \
                os.path.exists(os.path.join(tmp, "linked-out", "x.glb")):
            fail("batch followed a link out of its folder: rc %d\n%s" % (rc, err))
        print("a batch skips a link out of its folder, and says so")
        # ... and neither does a folder opened as one model, unless --allow-outside
        rc, _, err = run(exe, "export", linked, "-o", os.path.join(tmp, "linked.glb"))
        if rc == 0 or "outside the folder" not in err:
            fail("a folder as a model followed a link out of it: rc %d\n%s" % (rc, err))
        rc, _, err = run(exe, "export", linked, "-o", os.path.join(tmp, "linked.glb"),
                         "--allow-outside")
        if rc != 0:
            fail("--allow-outside did not keep the linked model: rc %d\n%s" % (rc, err))
        print("a folder opened as one model leaves a link out of it aside, unless --allow-outside")

        # 8. a model below the path limit's depth: the run fails, naming it
        deep = os.path.join(tmp, "deep")
        os.makedirs(deep)
        fd = os.open(deep, os.O_RDONLY)
        try:
            for _ in range(20):  # 20 x 251 characters: past PATH_MAX (4096)
                os.mkdir("d" * 250, dir_fd=fd)
                nfd = os.open("d" * 250, os.O_RDONLY, dir_fd=fd)
                os.close(fd)
                fd = nfd
            with open(os.path.join(assets, "cff", "mannequin.cff"), "rb") as f:
                data = f.read()
            wfd = os.open("m.cff", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
            os.write(wfd, data)
            os.close(wfd)
        finally:
            os.close(fd)
        rc, _, err = run(exe, "export", deep, "-o", os.path.join(tmp, "deep-out"))
        if rc == 0:
            fail("a model past the path limit exported with exit 0:\n%s" % err[-600:])
        print("a folder past the path limit fails the run (exit %d)" % rc)

        # 9. output paths over 700 characters are written whole
        longin = os.path.join(tmp, "long", "a" * 200, "b" * 200, "c" * 200, "e" * 200)
        os.makedirs(longin)
        shutil.copy(os.path.join(assets, "cff", "mannequin.cff"), longin)
        rc, _, err = run(exe, "export", os.path.join(tmp, "long"), "-o",
                         os.path.join(tmp, "long-out"))
        expect = os.path.join(tmp, "long-out", "a" * 200, "b" * 200, "c" * 200, "e" * 200,
                              "mannequin.glb")
        if rc != 0 or not os.path.exists(expect):
            fail("an output path of %d characters: rc %d\n%s" % (len(expect), rc, err[-600:]))
        print("an output path of %d characters is written" % len(expect))

        # 10. an animation alone has nothing to export: skipped and said so, never "written"
        anim = os.path.join(tmp, "anims")
        os.makedirs(os.path.join(anim, "set"))
        shutil.copy(os.path.join(assets, "cal3d", "walk.caf"), anim)
        for name in os.listdir(os.path.join(assets, "cal3d")):
            shutil.copy(os.path.join(assets, "cal3d", name), os.path.join(anim, "set"))
        rc, _, err = run(exe, "export", os.path.join(anim, "walk.caf"), "-o",
                         os.path.join(tmp, "walk.glb"))
        if rc != 1 or "nothing to export (an animation without a skeleton)" not in err or \
                os.path.exists(os.path.join(tmp, "walk.glb")):
            fail("export walk.caf: rc %d\n%s" % (rc, err[-600:]))
        rc, _, err = run(exe, "export", anim, "-o", os.path.join(tmp, "anims-out"))
        written = [f for _, _, fs in os.walk(os.path.join(tmp, "anims-out")) for f in fs]
        if rc != 0 or "1 written" not in err or "1 skipped (nothing to export)" not in err or \
                written != ["mannequin.glb"]:
            fail("a batch with a lone CAF: rc %d, wrote %s\n%s" % (rc, written, err[-600:]))
        only = os.path.join(tmp, "anims-only")
        os.makedirs(only)
        shutil.copy(os.path.join(assets, "cal3d", "walk.caf"), only)
        rc, _, err = run(exe, "convert", only, "-o", os.path.join(tmp, "only-out"), "--to", "glb")
        if rc != 1 or "nothing was written" not in err:
            fail("a batch of animations only: rc %d\n%s" % (rc, err[-600:]))
        print("a lone animation is skipped with 'nothing to export', never counted written")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("safe-writes: %s" % ("all checks passed" if not failures else "%d failures" % failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
