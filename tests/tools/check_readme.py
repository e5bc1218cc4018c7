#!/usr/bin/env python3
"""Every `ossa export` / `ossa convert` example in README.md runs as written.

usage: check_readme.py OSSA SOURCE_ROOT

The example block under "Export to glTF and convert between formats" is run line by line in a
fresh folder laid out as the examples assume: `assets/` (a copy of the committed demo assets),
`hero.csf hero.cmf walk.caf` (the demo's binary set under those names), and the real `cally`
and `paladin` sets from ../shared/assets copied beside them (the lines that need them are
skipped, and said so, when the shared assets are absent). Each command must exit 0 and leave
the output it names: a file for `-o FILE`, a folder with at least one file for `-o DIR/`, and
for a `.gltf` its `.bin`. Output folders that do not exist yet are created by the command. An
output extension Ossa does not write (`-o out.obj`) is refused, not taken as a folder.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

failures = 0


def fail(message):
    global failures
    failures += 1
    print("FAIL:", message)


def examples(readme):
    text = open(readme, encoding="utf-8").read()
    at = text.find("### Export to glTF and convert between formats")
    if at < 0:
        fail("README.md has no 'Export to glTF and convert between formats' section")
        return []
    block = re.search(r"```\n(.*?)```", text[at:], re.S)
    lines = []
    for line in block.group(1).splitlines() if block else []:
        line = line.split("#", 1)[0].strip()
        if line.startswith("ossa "):
            lines.append(shlex.split(line))
    if not lines:
        fail("no ossa command in the README's export block")
    return lines


def copy_set(src, dst):
    for name in os.listdir(src):
        path = os.path.join(src, name)
        if os.path.isfile(path):
            shutil.copy(path, os.path.join(dst, name))


def refused_extensions(exe, work):
    """An output extension Ossa does not write is refused (exit 2), never taken as a folder;
    a single output's missing folders are created."""
    for cmd in ("export", "convert"):
        proc = subprocess.run([exe, cmd, "assets/cal3d/mannequin.cfg", "-o", "out.obj"],
                              cwd=work, capture_output=True, text=True, timeout=120)
        if proc.returncode != 2 or ".obj" not in proc.stderr:
            fail(f"{cmd} -o out.obj: exit {proc.returncode}: {proc.stderr.strip()}")
        if os.path.exists(os.path.join(work, "out.obj")):
            fail(f"{cmd} -o out.obj created out.obj")
    proc = subprocess.run([exe, "export", "assets/cal3d/mannequin.cfg", "-o", "new/deep/m.glb"],
                          cwd=work, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0 or not os.path.isfile(os.path.join(work, "new", "deep", "m.glb")):
        fail(f"export -o new/deep/m.glb: exit {proc.returncode}: {proc.stderr.strip()}")


def main():
    exe, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shared = os.path.join(root, "..", "shared", "assets", "cal3d")
    with tempfile.TemporaryDirectory(prefix="ossa-readme-") as work:
        shutil.copytree(os.path.join(root, "assets"), os.path.join(work, "assets"))
        demo = os.path.join(root, "assets", "cal3d")
        for src, dst in (("mannequin.csf", "hero.csf"), ("mannequin.cmf", "hero.cmf"),
                         ("walk.caf", "walk.caf")):
            shutil.copy(os.path.join(demo, src), os.path.join(work, dst))
        have = {}
        for name in ("cally", "paladin"):
            src = os.path.join(shared, name)
            have[name] = os.path.isdir(src)
            if have[name]:
                copy_set(src, work)
        ran = 0
        for argv in examples(os.path.join(root, "README.md")):
            missing = [a for a in argv[2:] if a.endswith(".cfg") and "/" not in a
                       and a[:-4] in have and not have[a[:-4]]]
            if missing:
                print("skipped (no ../shared/assets):", " ".join(argv))
                continue
            out = argv[argv.index("-o") + 1] if "-o" in argv else None
            proc = subprocess.run([exe] + argv[1:], cwd=work, capture_output=True, text=True,
                                  timeout=300)
            ran += 1
            if proc.returncode != 0:
                fail(f"{' '.join(argv)}: exit {proc.returncode}: {proc.stderr.strip()[-600:]}")
                continue
            if out is None:
                continue
            target = os.path.join(work, out)
            if out.endswith("/"):
                files = [f for _, _, fs in os.walk(target) for f in fs]
                if not files:
                    fail(f"{' '.join(argv)}: wrote nothing under {out}")
            elif not os.path.isfile(target):
                fail(f"{' '.join(argv)}: {out} was not written")
            elif out.endswith(".gltf") and not os.path.isfile(target[:-5] + ".bin"):
                fail(f"{' '.join(argv)}: no .bin beside {out}")
            print("ok:", " ".join(argv))
        print(f"{ran} README command(s) run")
        refused_extensions(exe, work)
    if failures:
        print(f"{failures} failure(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
