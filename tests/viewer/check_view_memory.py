#!/usr/bin/env python3
"""ossa-view with no display exits 3 with one line (no XDG_RUNTIME_DIR complaint, no invisible
run), and its interactive loop keeps memory flat in SDL's offscreen driver, where swaps do not
wait (it grew 100-200 MB a second): 600 frames peak within 32 MB of 60 frames.

usage: check_view_memory.py OSSA_VIEW
Exits 77 (skipped) when SDL's offscreen driver gives no OpenGL context here and the no-display
part passed.
"""
import os
import subprocess
import sys

failures = 0


def fail(message):
    global failures
    failures += 1
    print("FAIL:", message)


def peak_rss_kb(exe, args, env):
    """Exit status, stderr and the child's peak resident set (kB), from wait4."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.dup2(w, 2)
        os.close(r)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.execve(exe, [exe, *args], env)
    os.close(w)
    err = b""
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        err += chunk
    os.close(r)
    _, status, usage = os.wait4(pid, 0)
    return os.waitstatus_to_exitcode(status), err.decode(errors="replace"), usage.ru_maxrss


def main():
    exe = sys.argv[1]
    base = {k: v for k, v in os.environ.items()
            if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "XDG_RUNTIME_DIR")}
    rc, err, _ = peak_rss_kb(exe, ["--quit-after", "5"], base)
    lines = [l for l in err.splitlines() if l.strip()]
    if rc != 3 or len(lines) != 1 or "no display" not in lines[0] or "XDG_RUNTIME_DIR" in err:
        fail("no display: exit %d, stderr %r" % (rc, err))
    if b"__asan_init" in open(exe, "rb").read():
        # ASan's quarantine keeps freed memory resident: its peak says nothing of leaks here
        print("the memory part is skipped under AddressSanitizer")
        return 0 if not failures else 1
    off = dict(base, SDL_VIDEODRIVER="offscreen")
    if "ASAN_OPTIONS" in off:
        off["ASAN_OPTIONS"] = "detect_leaks=0"  # Mesa's own leaks
    rc, err, short = peak_rss_kb(exe, ["--quit-after", "60"], off)
    if rc == 3 and not failures:
        print("skipped: no OpenGL 3.3 context in SDL's offscreen driver here: %s" % err.strip())
        return 77
    rc2, err2, long_ = peak_rss_kb(exe, ["--quit-after", "600"], off)
    print("peak RSS: 60 frames %d kB, 600 frames %d kB" % (short, long_))
    if rc != 0 or rc2 != 0:
        fail("offscreen: exit %d / %d: %s %s" % (rc, rc2, err, err2))
    elif long_ > short + 32 * 1024:
        fail("memory grows: 600 frames peak %d kB against %d kB for 60" % (long_, short))
    print("view-memory: %s" % ("all checks passed" if not failures else "%d failures" % failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
