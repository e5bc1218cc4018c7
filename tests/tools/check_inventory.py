#!/usr/bin/env python3
"""Every Cal3D file and .cfg in ../shared/assets loads with `ossa info --json`, and what it
reports agrees with INVENTORY.tsv (format, version, bone count, duration, track count)."""
import json
import os
import re
import subprocess
import sys

SKIP = 77
# Cfg files that name files which are not in the assets (PROVENANCE.md says so): they must fail
# cleanly, naming the missing file.
CFG_WITH_MISSING_FILES = {"cal3d/paladin-v900/paladin.cfg": "paladin.csf"}


def info(ossa, paths):
    run = subprocess.run([ossa, "info", "--json", *paths], capture_output=True, text=True)
    return run.returncode, run.stdout, run.stderr


def main():
    ossa = sys.argv[1]
    assets = os.environ.get("OSSA_ASSETS", "../shared/assets")
    inventory = os.path.join(assets, "INVENTORY.tsv")
    if not os.path.isfile(inventory):
        print("assets absent: skipped")
        return SKIP
    failures = []
    checked = 0
    with open(inventory, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    for path, _size, desc, _sha in rows:
        full = os.path.join(assets, path)
        if desc.startswith("cal3d cfg"):
            rc, out, err = info(ossa, [full])
            if path in CFG_WITH_MISSING_FILES:
                if rc == 0 or CFG_WITH_MISSING_FILES[path] not in err:
                    failures.append(f"{path}: expected a clean 'not found' error, got rc={rc} {err!r}")
            elif rc != 0:
                failures.append(f"{path}: {err.strip()}")
            else:
                model = json.loads(out)
                if model["bones"] <= 0 or not model["meshes"]:
                    failures.append(f"{path}: cfg model has no skeleton or no meshes")
            checked += 1
            continue
        m = re.match(r"(?:XML (?:(X[SAMRP]F)|\(no MAGIC\)) |([CX][SAMRP]F) )v(\d+)", desc)
        if not m:
            continue  # text, licences, Delta3D config XML: not Cal3D files
        fmt = m.group(1) or m.group(2) or os.path.splitext(path)[1][1:].upper()
        version = int(m.group(3))
        rc, out, err = info(ossa, [full])
        checked += 1
        if rc != 0:
            failures.append(f"{path}: does not load: {err.strip()}")
            continue
        model = json.loads(out)
        if model["format"] != fmt:
            failures.append(f"{path}: format {model['format']} != {fmt}")
        if model["version"] != version:
            failures.append(f"{path}: version {model['version']} != {version}")
        bones = re.search(r"bones=(\d+)", desc)
        if bones and model["bones"] != int(bones.group(1)):
            failures.append(f"{path}: bones {model['bones']} != {bones.group(1)}")
        duration = re.search(r"duration=([\d.]+)", desc)
        tracks = re.search(r"tracks=(\d+)", desc)
        if duration or tracks:
            if len(model["clips"]) != 1:
                failures.append(f"{path}: {len(model['clips'])} clips, expected 1")
                continue
            clip = model["clips"][0]
            if duration and abs(clip["duration"] - float(duration.group(1))) > 0.0005:
                failures.append(f"{path}: duration {clip['duration']} != {duration.group(1)}")
            if tracks and clip["tracks"] != int(tracks.group(1)):
                failures.append(f"{path}: tracks {clip['tracks']} != {tracks.group(1)}")
        if fmt in ("CMF", "XMF") and len(model["meshes"]) != 1:
            failures.append(f"{path}: expected one mesh")
        if fmt in ("CRF", "XRF") and len(model["materials"]) != 1:
            failures.append(f"{path}: expected one material")
    for line in failures:
        print("FAIL", line)
    print(f"{checked} files checked, {len(failures)} disagreements")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
