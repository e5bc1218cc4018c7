#!/usr/bin/env python3
"""`ossa info` and `ossa sample` run successfully on every committed demo asset.

usage: check_cli.py OSSA SOURCE_ROOT

Each model file under assets/<format>/ (a Cal3D .cfg, an .skm, a .c3s, a .cff) is given to
`ossa info`, `ossa info --json` (which must parse), `ossa sample` (CSV with one row per vertex)
and `ossa sample --bones`. A format whose assets are not committed yet is reported and skipped.
The binary and XML Cal3D sets hold the same numbers, so their samples must be identical.
--frame-rate rescales the SKM and CFF clips. `ossa COMMAND --help` prints that command's own
usage; --version the version.
"""
import json
import os
import subprocess
import sys

# Model files per format folder (other files there are parts of a set).
ENTRY_EXTENSIONS = {
    "cal3d": (".cfg",),
    "cal3d-xml": (".cfg",),
    "skm": (".skm",),
    "c3s": (".c3s",),
    "cff": (".cff",),
}
DEMO_CLIPS = ("walk", "wave", "idle")

failures = 0


def fail(message):
    global failures
    failures += 1
    print("FAIL:", message)


def ossa(exe, *args):
    proc = subprocess.run([exe, *args], capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def check_file(exe, fmt, path):
    rc, out, err = ossa(exe, "info", path)
    if rc != 0 or not out.strip():
        fail(f"ossa info {path}: exit {rc}: {err.strip()}")
        return None
    rc, out, err = ossa(exe, "info", "--json", path)
    try:
        info = json.loads(out) if rc == 0 else None
    except json.JSONDecodeError as e:
        info = None
        fail(f"ossa info --json {path}: not JSON: {e}")
    if rc != 0:
        fail(f"ossa info --json {path}: exit {rc}: {err.strip()}")
    if info is not None and fmt.startswith("cal3d"):
        names = [c.get("name") for c in info.get("clips", [])]
        if tuple(names) != DEMO_CLIPS:
            fail(f"{path}: clips {names}, expected {list(DEMO_CLIPS)}")

    rc, out, err = ossa(exe, "sample", path)
    rows = out.strip().splitlines()
    if rc != 0 or len(rows) < 2:
        fail(f"ossa sample {path}: exit {rc}, {len(rows)} lines: {err.strip()}")
        return None
    if rows[0] != "mesh,submesh,vertex,px,py,pz,nx,ny,nz":
        fail(f"ossa sample {path}: header {rows[0]!r}")
    if info is not None:
        expected = sum(s.get("vertices", 0) for m in info.get("meshes", [])
                       for s in m.get("submeshes", []))
        if expected and len(rows) - 1 != expected:
            fail(f"ossa sample {path}: {len(rows) - 1} rows for {expected} vertices")
    rc, out, err = ossa(exe, "sample", path, "--bones")
    bones = info.get("bones", 1) if info is not None else 1
    # A vertex-frame scene has no bones: only the header then.
    if rc != 0 or (bones and len(out.strip().splitlines()) < 2):
        fail(f"ossa sample --bones {path}: exit {rc}: {err.strip()}")
    sample = None
    if fmt.startswith("cal3d"):
        rc, sample, err = ossa(exe, "sample", path, "--clip", "walk", "--time", "0.4")
        if rc != 0:
            fail(f"ossa sample --clip walk {path}: exit {rc}: {err.strip()}")
    print(f"ok: {fmt}: {os.path.basename(path)}")
    return sample


def clip_durations(exe, path, *options):
    rc, out, err = ossa(exe, "info", "--json", *options, path)
    if rc != 0:
        fail(f"ossa info --json {' '.join(options)} {path}: exit {rc}: {err.strip()}")
        return {}
    return {c["name"]: c["duration"] for c in json.loads(out).get("clips", [])}


def check_frame_rate(exe, assets):
    """--frame-rate rescales frame-list formats (SKP 10, CFF 25 by default); bad rates are usage
    errors."""
    for fmt, name, default in (("skm", "mannequin.skm", 10.0), ("cff", "mannequin.cff", 25.0)):
        path = os.path.join(assets, fmt, name)
        if not os.path.exists(path):
            continue
        plain, half = clip_durations(exe, path), clip_durations(exe, path, "--frame-rate",
                                                                   str(default / 2))
        if not plain or plain.keys() != half.keys() or any(
                abs(half[k] - 2 * plain[k]) > 1e-4 * plain[k] for k in plain):
            fail(f"{path}: --frame-rate {default / 2} does not double the durations "
                 f"({plain} -> {half})")
        for bad in ("0", "-3", "nan", "1e9", "fast"):
            rc, _, _ = ossa(exe, "info", "--frame-rate", bad, path)
            if rc != 2:
                fail(f"ossa info --frame-rate {bad}: exit {rc}, expected 2")


def check_help(exe):
    """`ossa --help` lists every command; `ossa COMMAND --help` (anywhere after the command)
    prints that command's own usage and options, not the others'; --version prints the version;
    a bad option exits 2."""
    for args in (("--help",), ("help",), ("-h",)):
        rc, out, _ = ossa(exe, *args)
        if rc != 0 or not out.startswith("usage: ossa COMMAND"):
            fail(f"ossa {' '.join(args)}: exit {rc}, stdout {out[:40]!r}")
        for cmd in ("info", "sample", "bench"):
            if f"\n  {cmd} " not in out:
                fail(f"ossa {' '.join(args)} does not list {cmd}")
    own = {"info": ("--json", "--cff-half", "--frame-rate"),
           "sample": ("--clip", "--time", "--clamp", "--extrapolate", "--bones", "--frame-rate"),
           "bench": ("--vertices", "--influences", "--bones", "--threads", "--runs", "--model",
                     "--store", "--kernel", "--json")}
    for args in (("bench", "--help"), ("info", "-h"), ("sample", "x", "--help")):
        rc, out, _ = ossa(exe, *args)
        cmd = args[0]
        if rc != 0 or not out.startswith(f"usage: ossa {cmd} "):
            fail(f"ossa {' '.join(args)}: exit {rc}, stdout {out[:40]!r}")
            continue
        for option in own[cmd]:
            if f"\n{option}" not in out:
                fail(f"ossa {cmd} --help does not explain {option}")
        for other in own:
            if other != cmd and f"usage: ossa {other}" in out or f"\n  {other} " in out:
                fail(f"ossa {cmd} --help also shows {other}")
    rc, out, _ = ossa(exe, "--version")
    if rc != 0 or not out.startswith("ossa ") or not out.strip().split()[-1][0].isdigit():
        fail(f"ossa --version: exit {rc}, stdout {out!r}")
    rc, _, err = ossa(exe, "bench", "--no-such-option")
    if rc != 2 or "usage" not in err:
        fail(f"ossa bench --no-such-option: exit {rc}")


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    exe, root = sys.argv[1], sys.argv[2]
    assets = os.path.join(root, "assets")
    samples = {}
    checked = 0
    for fmt, exts in ENTRY_EXTENSIONS.items():
        folder = os.path.join(assets, fmt)
        entries = sorted(n for n in os.listdir(folder) if n.lower().endswith(exts)) \
            if os.path.isdir(folder) else []
        if not entries:
            print(f"skip: {fmt}: no assets committed under assets/{fmt} yet")
            continue
        for name in entries:
            sample = check_file(exe, fmt, os.path.join(folder, name))
            checked += 1
            if sample is not None:
                samples[fmt] = sample
    if "cal3d" in samples and "cal3d-xml" in samples and samples["cal3d"] != samples["cal3d-xml"]:
        fail("the binary and XML Cal3D sets sample differently at walk 0.4 s")
    check_frame_rate(exe, assets)
    check_help(exe)
    if checked == 0:
        print("no committed assets at all")
        raise SystemExit(77)
    if failures:
        raise SystemExit(f"{failures} failure(s)")
    print(f"writers-cli: {checked} asset files checked, all passed")


if __name__ == "__main__":
    main()
