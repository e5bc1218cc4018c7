#!/usr/bin/env python3
"""The include floors of docs/ARCHITECTURE.md, checked on the sources.

Every engine source sits on a floor; it may include headers of its own floor and the floors
below, never above:

    1 core       (and the public status.h, model.h, build.h, limits.h)
    2 io         (load.h, files.h)
    3 formats    readers, and the model-set loader
    4 anim       (sample.h, pose.h, mixer.h, reference.h, clock.h: the scalar path, whose skinning
                 skin_scalar.c adds)
    5 skin       (skin.h, skin_pool.h, cloth.h, vertex_anim.h: vertex frames run frame-lerp jobs)
    6 instance, export, and the format writers, which bake clips with the reference path
                 (instance.h, export.h, write.h)

Nothing in engine/ includes viewer/ or tools/; tools/, viewer/ and web/ include only the public
headers of the engine (ossa/*.h), never engine/src.

ossa-view's renderers (viewer/render*.c) only upload and draw what the scene and the crowd
prepared before the frame: they call no function of the scene or the crowd (view_scene_*,
view_crowd_* other than their own view_crowd_renderer_*, view_crowd_skinning_name and
view_crowd_cpu_seconds) and none of the character instance (ossa_instance_*).

Usage: check_include_floors.py SOURCE_ROOT
"""
import os
import re
import sys

FOLDER_FLOORS = {'core': 1, 'io': 2, 'formats': 3, 'anim': 4, 'skin': 5, 'instance': 6,
                 'export': 6}
PUBLIC_FLOORS = {
    'status.h': 1, 'model.h': 1, 'build.h': 1, 'limits.h': 1, 'ossa.h': 6,
    'load.h': 2, 'files.h': 2,
    'sample.h': 4, 'pose.h': 4, 'mixer.h': 4, 'reference.h': 4, 'clock.h': 4,
    'skin.h': 5, 'skin_pool.h': 5, 'cloth.h': 5, 'vertex_anim.h': 5,
    'instance.h': 6, 'export.h': 6, 'write.h': 6,
}
RENDERER = re.compile(r'^render[a-z_]*\.c$')
CALLBACK = re.compile(r'\b(view_scene_\w+|view_crowd_\w+|ossa_instance_\w+)\s*\(')
RENDERER_OWN = re.compile(r'^(view_crowd_renderer_\w+|view_crowd_skinning_name|view_crowd_cpu_seconds)$')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def renderer_calls(text):
    """The scene, crowd and instance functions a renderer source calls (comments left out)."""
    code = COMMENT.sub(' ', text)
    return sorted({name for name in CALLBACK.findall(code) if not RENDERER_OWN.match(name)})


WRITER = re.compile(r'(_write[a-z_]*\.[ch])$')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def engine_floor(rel):
    """Floor of a file under engine/src (rel is relative to engine/src)."""
    folder = rel.split('/')[0]
    if folder == 'formats' and WRITER.search(rel):
        return 6
    return FOLDER_FLOORS.get(folder)


def header_floor(inc, including_dir, src):
    """Floor of an included engine header, or None when it is not an engine header."""
    if inc.startswith('ossa/'):
        return PUBLIC_FLOORS.get(inc[len('ossa/'):], 99)
    for base in (including_dir, src):
        path = os.path.normpath(os.path.join(base, inc))
        if os.path.isfile(path) and path.startswith(src + os.sep):
            return engine_floor(os.path.relpath(path, src))
    return None


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
    src = os.path.join(root, 'engine', 'src')
    problems = []
    checked = 0
    for dirpath, _, files in os.walk(os.path.join(root, 'engine')):
        for name in sorted(files):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            text = open(path, encoding='utf-8').read()
            checked += 1
            for inc in INCLUDE.findall(text):
                if re.match(r'(\.\./)*(viewer|tools)/', inc):
                    problems.append('%s includes %s: the engine never includes viewer/ or tools/'
                                    % (rel, inc))
            if not path.startswith(src + os.sep):
                continue
            floor = engine_floor(os.path.relpath(path, src))
            if floor is None:
                problems.append('%s: a folder with no floor (add it to the table)' % rel)
                continue
            for inc in INCLUDE.findall(text):
                hf = header_floor(inc, dirpath, src)
                if hf is not None and hf > floor:
                    problems.append('%s (floor %d) includes %s (floor %d)' % (rel, floor, inc, hf))
    for top in ('tools', 'viewer', 'web'):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(('.c', '.h', '.cpp')):
                    continue
                path = os.path.join(dirpath, name)
                checked += 1
                for inc in INCLUDE.findall(open(path, encoding='utf-8').read()):
                    if inc.startswith('ossa/') and inc[len('ossa/'):] not in PUBLIC_FLOORS:
                        problems.append('%s includes %s: not a public header'
                                        % (os.path.relpath(path, root), inc))
                    if re.match(r'(\.\./)*(engine/|core/|io/|formats/|anim/|skin/|instance/|export/)',
                                inc):
                        problems.append('%s includes %s: only ossa/*.h may be used outside engine/'
                                        % (os.path.relpath(path, root), inc))
    for name in sorted(os.listdir(os.path.join(root, 'viewer'))):
        if RENDERER.match(name):
            text = open(os.path.join(root, 'viewer', name), encoding='utf-8').read()
            for call in renderer_calls(text):
                problems.append('viewer/%s calls %s: the renderer only draws what was prepared'
                                % (name, call))
    # The rule itself must see a call back (and not a comment or the renderer's own calls).
    probe = 'void f(void) { /* view_scene_prepare(s) */ view_crowd_renderer_draw(a); ' \
            'view_scene_skin (s, 0); ossa_instance_skin(i); }'
    if renderer_calls(probe) != ['ossa_instance_skin', 'view_scene_skin']:
        problems.append('the renderer rule does not see calls back: %s' % renderer_calls(probe))
    for p in problems:
        print(p)
    print('%d files checked, %d include(s) against the floors' % (checked, len(problems)))
    return 1 if problems or checked < 50 else 0


if __name__ == '__main__':
    sys.exit(main())
