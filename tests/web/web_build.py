"""What the checks of the WebAssembly build share: web/build.sh run for the engine module
(cached: a no-op once built) and the folder it builds in."""
import os
import subprocess
import sys


def build_folder(root):
    """The folder web/build.sh builds in: OSSA_WEB_BUILD, relative to the source root as the
    script reads it, or build-web."""
    return os.path.realpath(os.path.join(root, os.environ.get("OSSA_WEB_BUILD", "build-web")))


def build_engine(root):
    """Runs web/build.sh for the engine module only (OSSA_WEB_SITE=0) and returns (its build
    folder, build_folder; the environment it ran with, for emcc). Exits 1 when the build fails."""
    env = dict(os.environ, OSSA_WEB_SITE="0")
    # Debian's emscripten runs its tools with /usr/bin/node (web/build.sh says why).
    env.setdefault("NODE_PATH", "/usr/share/nodejs")
    r = subprocess.run([os.path.join(root, "web", "build.sh")], capture_output=True, text=True,
                       env=env)
    if r.returncode != 0:
        print("FAIL: web/build.sh exited %d\n%s" % (r.returncode, r.stderr[-4000:]))
        sys.exit(1)
    return build_folder(root), env
