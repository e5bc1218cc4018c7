#!/usr/bin/env python3
"""The demo generator is deterministic and its output is what assets/ holds.

usage: check_generator.py OSSA_GEN_DEMO SOURCE_ROOT

Runs the generator twice into fresh folders: both runs must give the same files, byte for byte.
Then every format the generator wrote is compared with the committed assets/<format>/ (same file
names, same bytes; the C3S and CFF textures in REQUIRED must be there). A format whose writer is
not available yet, or whose assets are not committed yet, is reported and skipped for that
format, not failed; a committed format that the generator can no longer write is a failure.
"""
import filecmp
import os
import subprocess
import sys
import tempfile

FORMATS = ["cal3d", "cal3d-xml", "skm", "c3s", "cff"]
# Files a format's folder must hold besides its models: the legacy formats name one texture per
# demo material, which the generator writes next to them.
TEXTURES = ["shirt.tga", "skin.tga", "trousers.tga"]
REQUIRED = {"c3s": TEXTURES, "cff": TEXTURES}


def run(gen, out):
    proc = subprocess.run([gen, out], capture_output=True, text=True, timeout=120)
    print(proc.stdout, end="")
    if proc.returncode != 0:
        print(proc.stderr, end="", file=sys.stderr)
        raise SystemExit(f"FAIL: {gen} {out} exited with {proc.returncode}")
    wrote = set()
    for line in proc.stdout.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in FORMATS and words[1] == "wrote":
            wrote.add(words[0])
    return wrote


def files_of(folder):
    return sorted(name for name in os.listdir(folder)
                  if os.path.isfile(os.path.join(folder, name)) and name != "README.md")


def same_tree(a, b):
    """List of differences between two format folders (names and bytes)."""
    problems = []
    fa, fb = files_of(a), files_of(b)
    if fa != fb:
        problems.append(f"files differ: {fa} vs {fb}")
    for name in sorted(set(fa) & set(fb)):
        if not filecmp.cmp(os.path.join(a, name), os.path.join(b, name), shallow=False):
            problems.append(f"{name} differs")
    return problems


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    gen, root = sys.argv[1], sys.argv[2]
    assets = os.path.join(root, "assets")
    failures = 0
    with tempfile.TemporaryDirectory(prefix="ossa-gen-") as tmp:
        first, second = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        wrote = run(gen, first)
        wrote_again = run(gen, second)
        if wrote != wrote_again:
            print(f"FAIL: runs wrote different formats: {sorted(wrote)} vs {sorted(wrote_again)}")
            failures += 1
        if "cal3d" not in wrote or "cal3d-xml" not in wrote:
            print("FAIL: the Cal3D writers must always work")
            failures += 1
        for fmt in FORMATS:
            committed = os.path.join(assets, fmt)
            if fmt not in wrote:
                if os.path.isdir(committed) and files_of(committed):
                    print(f"FAIL: {fmt}: assets are committed but the generator did not write it")
                    failures += 1
                else:
                    print(f"skip: {fmt}: no writer yet")
                continue
            written = files_of(os.path.join(first, fmt))
            missing = [name for name in REQUIRED.get(fmt, []) if name not in written]
            if missing:
                print(f"FAIL: {fmt}: the generator did not write {missing}")
                failures += 1
            problems = same_tree(os.path.join(first, fmt), os.path.join(second, fmt))
            for p in problems:
                print(f"FAIL: {fmt}: not deterministic: {p}")
            failures += len(problems)
            if not problems:
                print(f"ok: {fmt}: two runs give identical bytes")
            if not os.path.isdir(committed) or not files_of(committed):
                print(f"skip: {fmt}: not committed under assets/{fmt} yet "
                      f"(regenerate with: ninja -C BUILD gen-assets)")
                continue
            problems = same_tree(os.path.join(first, fmt), committed)
            for p in problems:
                print(f"FAIL: {fmt}: generated output and assets/{fmt} disagree: {p}")
            failures += len(problems)
            if not problems:
                print(f"ok: {fmt}: equal to assets/{fmt}")
    if failures:
        raise SystemExit(f"{failures} failure(s)")
    print("writers-generator: all checks passed")


if __name__ == "__main__":
    main()
