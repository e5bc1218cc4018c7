#!/usr/bin/env python3
"""Names from files are made safe on the way out: a CSF whose bone names hold bytes that are not
UTF-8 (0xFF 0xFE), an escape sequence (ESC [ 2 J), a C1 control (U+009B) and a quote must give
`ossa info --json` output that is valid JSON (the bytes read as Latin-1) and `ossa info` text
that is valid UTF-8 with no control character but newlines.

usage: check_names.py OSSA
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

NAMES = [b"root\xff\xfe", b"evil\x1b[2J\x07", "c1\u009bquote\"".encode()]
# that is: invalid UTF-8, an escape sequence and a bell, a C1 control and a quote


def cal3d_string(raw):
    return struct.pack("<i", len(raw) + 1) + raw + b"\0"


def csf(names):
    """A classic (v700) Cal3D skeleton: a chain of bones with identity transforms."""
    out = b"CSF\0" + struct.pack("<ii", 700, len(names))
    for i, name in enumerate(names):
        out += cal3d_string(name)
        out += struct.pack("<3f4f3f4f", 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1)
        out += struct.pack("<i", i - 1)
        children = [i + 1] if i + 1 < len(names) else []
        out += struct.pack("<i", len(children)) + b"".join(struct.pack("<i", c) for c in children)
    return out


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    exe = sys.argv[1]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        # The file name carries the hostile bytes too: `ossa info` prints it.
        path = os.path.join(tmp.encode(), b"evil\x1b[2J\xff\xfe.csf")
        with open(path, "wb") as f:
            f.write(csf(NAMES))
        js = subprocess.run([exe, "info", "--json", path], capture_output=True)
        try:
            doc = json.loads(js.stdout.decode("utf-8"))
            got = doc["skeleton"]["names"]
            want = [n.decode("utf-8", errors="strict") if n != NAMES[0] else n.decode("latin-1")
                    for n in NAMES]
            if got is not None and got != want:
                failures += 1
                print(f"FAIL: JSON bone names {got!r}, expected {want!r}")
        except (UnicodeDecodeError, json.JSONDecodeError, KeyError) as e:
            failures += 1
            print(f"FAIL: ossa info --json is not valid UTF-8 JSON: {e}: {js.stdout[:200]!r}")
        text = subprocess.run([exe, "info", path], capture_output=True)
        if text.returncode != 0:
            failures += 1
            print(f"FAIL: ossa info exited {text.returncode}: {text.stderr!r}")
        try:
            decoded = text.stdout.decode("utf-8")
            bad = [c for c in decoded if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F]
            if bad:
                failures += 1
                print(f"FAIL: control characters reach the terminal: {bad!r}")
            if "\\x1b[2J" not in decoded or "\\xff\\xfe" not in decoded:
                failures += 1
                print(f"FAIL: the escaped names are not shown: {decoded!r}")
        except UnicodeDecodeError as e:
            failures += 1
            print(f"FAIL: ossa info text is not UTF-8: {e}")
    print("names:", "ok" if not failures else f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
