// The engine's side of the page (PROTOCOL.md): the WebAssembly module lives here, so that a long
// load never freezes the tab. One character at a time; a new one replaces it only once it loaded.
'use strict';
importScripts('ossa_engine.js');

const ACTIONS = {
    'play-pause': 0, step: 1, first: 2, last: 3, speed: 4, reverse: 5, mode: 6, clip: 7,
    'clip-step': 8,
};
// Textures of more than this many bytes are not sent (the engine caps a file's size and a
// texture's declared pixels already; this only bounds what one message copies).
const MAX_TEXTURE_BYTES = 64 << 20;

let M = null;          // the module
let current = 0;       // the character shown (a pointer), 0 before the first load
let currentDir = null; // its files' folder in the module's file system
let currentBones = 0;  // its bone count (3 joint floats each)
let currentName = '';  // its name as the page shows it
let dropCount = 0;
let queue = [];        // messages that came before the module was ready
let replyTo;           // the id of the request being answered (every reply carries it)

const str = (ptr) => (ptr ? M.UTF8ToString(ptr) : '');
// Messages name files by the path the user dropped, not the module's folder.
const clean = (text, dir) => (dir ? text.split(dir + '/').join('') : text);

function fail(dir) {
    postMessage({ type: 'error', id: replyTo, message: clean(str(M._ossa_web_error()), dir) });
}

function floats(ptr, count) {
    return ptr ? M.HEAPF32.slice(ptr >> 2, (ptr >> 2) + count) : null;
}

function uints(ptr, count) {
    return ptr ? M.HEAPU32.slice(ptr >> 2, (ptr >> 2) + count) : null;
}

function partField(c, p, what) {
    return M._ossa_web_part(c, p, what) >>> 0;
}

// The skinned buffers of every part, the clock's state and the joints, as one transfer.
function frameMessage(c, bones) {
    const parts = M._ossa_web_part_count(c);
    const positions = [], normals = [], uvs = [], transfer = [];
    for (let p = 0; p < parts; p++) {
        const n = partField(c, p, 2);
        const pos = floats(partField(c, p, 4), 3 * n), nrm = floats(partField(c, p, 5), 3 * n);
        const uv = partField(c, p, 13) ? floats(partField(c, p, 11), 2 * n) : null;
        positions.push(pos);
        normals.push(nrm);
        uvs.push(uv);
        transfer.push(pos.buffer, nrm.buffer);
        if (uv)
            transfer.push(uv.buffer);
    }
    const state = JSON.parse(str(M._ossa_web_state(c)));
    const joints = floats(M._ossa_web_joints(c), 3 * bones);
    if (joints)
        transfer.push(joints.buffer);
    const frame = { type: 'frame', id: replyTo, state, positions, normals, uvs,
                    joints: joints || new Float32Array(0) };
    return [frame, transfer];
}

function sendFrame(c, status) {
    if (status !== 0) {
        fail(currentDir);
        return;
    }
    const [msg, transfer] = frameMessage(c, currentBones);
    postMessage(msg, transfer);
}

function mkdirs(path) {
    let dir = '';
    for (const part of path.split('/').slice(1, -1)) {
        dir += '/' + part;
        if (!M.FS.analyzePath(dir).exists)
            M.FS.mkdir(dir);
    }
}

function removeTree(dir) {
    if (!dir || !M.FS.analyzePath(dir).exists)
        return;
    for (const name of M.FS.readdir(dir)) {
        if (name === '.' || name === '..')
            continue;
        const path = dir + '/' + name;
        if (M.FS.isDir(M.FS.stat(path).mode))
            removeTree(path);
        else
            M.FS.unlink(path);
    }
    M.FS.rmdir(dir);
}

// Writes the dropped files under a fresh folder. A path may not climb out of it.
function writeFiles(dir, files) {
    for (const f of files) {
        const parts = String(f.path).split('/').filter((s) => s && s !== '.');
        if (!parts.length || parts.includes('..'))
            throw new Error(`${f.path}: not a path inside what was dropped`);
        const path = dir + '/' + parts.join('/');
        mkdirs(path);
        M.FS.writeFile(path, new Uint8Array(f.data));
    }
}

// What to load, as `ossa-view` would be given the dropped things: one folder dropped is that
// folder (the engine's folder rule); anything else is the drop's own folder, which the same rule
// reads (a .cfg, else the files of one model).
function loadPaths(dir, files, roots) {
    const root = roots && roots.length === 1 ? String(roots[0]) : null;
    if (root && files.every((f) => String(f.path).startsWith(root + '/')))
        return [dir + '/' + root];
    return [dir];
}

function textureOf(c, material, map, dir) {
    if (M._ossa_web_texture(c, material) !== 0)
        return { path: clean(map, dir), error: clean(str(M._ossa_web_error()), dir) };
    const size = M._ossa_web_texture_field(c, 1) >>> 0;
    const path = clean(str(M._ossa_web_texture_field(c, 5)), dir);
    if (size > MAX_TEXTURE_BYTES)
        return { path, error: `${path}: ${size} bytes, over the page's ${MAX_TEXTURE_BYTES}` };
    const data = M._ossa_web_texture_field(c, 0) >>> 0;
    return {
        path, type: str(M._ossa_web_texture_field(c, 4)),
        width: M._ossa_web_texture_field(c, 2) >>> 0,
        height: M._ossa_web_texture_field(c, 3) >>> 0,
        data: M.HEAPU8.slice(data, data + size).buffer,
    };
}

function open(msg) {
    const t0 = performance.now();
    const files = msg.files || [];
    const dir = files.length ? `/drop${++dropCount}` : null;
    let c = 0;
    try {
        let paths = [];
        if (dir) {
            M.FS.mkdir(dir);
            writeFiles(dir, files);
            paths = loadPaths(dir, files, msg.roots);
        }
        const ptrs = M._malloc(4 * Math.max(1, paths.length));
        const strings = paths.map((p) => {
            const n = M.lengthBytesUTF8(p) + 1, s = M._malloc(n);
            M.stringToUTF8(p, s, n);
            return s;
        });
        strings.forEach((s, i) => { M.HEAPU32[(ptrs >> 2) + i] = s; });
        c = M._ossa_web_open(ptrs, paths.length);
        strings.forEach((s) => M._free(s));
        M._free(ptrs);
    } catch (e) {
        removeTree(dir);
        postMessage({ type: 'error', id: replyTo, message: String(e.message || e) });
        return;
    }
    if (!c) {
        fail(dir);
        removeTree(dir);
        return;
    }
    const infoText = str(M._ossa_web_info(c));
    if (!infoText) {
        fail(dir);
        M._ossa_web_destroy(c);
        removeTree(dir);
        return;
    }
    const info = JSON.parse(infoText);
    info.name = clean(info.name, dir);
    info.warnings = info.warnings.map((w) => clean(w, dir));
    // Each distinct map is read once; materials point at it.
    const textures = [], byPath = new Map();
    info.materials.forEach((m, i) => {
        m.texture = -1;
        if (m.map === null || m.map === undefined)
            return;
        if (!byPath.has(m.map)) {
            byPath.set(m.map, textures.length);
            textures.push(textureOf(c, i, m.map, dir));
        }
        m.texture = byPath.get(m.map);
        m.map = clean(m.map, dir);
    });
    const parts = [], transfer = [];
    for (let p = 0; p < M._ossa_web_part_count(c); p++) {
        const n = partField(c, p, 2);
        const part = {
            mesh: partField(c, p, 0), submesh: partField(c, p, 1),
            material: M._ossa_web_part(c, p, 9) | 0, twoSided: partField(c, p, 10) !== 0,
            outputCount: n, vertexCount: partField(c, p, 8),
            flipV: partField(c, p, 14) !== 0, hidden: partField(c, p, 15) !== 0,
            indices: uints(partField(c, p, 6), partField(c, p, 3)) || new Uint32Array(0),
            outputSource: uints(partField(c, p, 7), n),
            uvs: floats(partField(c, p, 11), 2 * n), colors: floats(partField(c, p, 12), 3 * n),
        };
        for (const k of ['indices', 'outputSource', 'uvs', 'colors'])
            if (part[k])
                transfer.push(part[k].buffer);
        parts.push(part);
    }
    for (const t of textures)
        if (t.data)
            transfer.push(t.data);
    const [frame, frameTransfer] = frameMessage(c, info.bones.length);
    // The previous character goes only now: a load that failed left it as it was.
    if (current) {
        M._ossa_web_destroy(current);
        removeTree(currentDir);
    }
    current = c;
    currentDir = dir;
    currentBones = info.bones.length;
    currentName = info.name;
    postMessage({ type: 'opened', id: msg.id, ms: performance.now() - t0, info, parts, textures,
                  frame }, transfer.concat(frameTransfer));
}

function exportGlb() {
    const size = M._ossa_web_export_glb(current);
    if (size < 0) {
        fail(currentDir);
        return;
    }
    const ptr = M._ossa_web_export_data(current) >>> 0;
    const data = M.HEAPU8.slice(ptr, ptr + size).buffer;
    const base = currentName.replace(/ \(.*\)$/, '').replace(/\.[^.]*$/, '');
    const name = (base || 'model').replace(/\s+/g, '-') + '.glb';
    postMessage({ type: 'glb', id: replyTo, name, data }, [data]);
}

function bench(msg) {
    const out = M._malloc(16);
    const vertices = msg.vertices >>> 0 || 10000, rounds = msg.rounds >>> 0 || 7;
    if (M._ossa_web_bench(vertices, rounds, out) !== 0) {
        M._free(out);
        fail(null);
        return;
    }
    const rates = M.HEAPF64.slice(out >> 3, (out >> 3) + 2);
    M._free(out);
    const results = [{ kernel: 'scalar', vertices, mvps: rates[0] }];
    if (rates[1] > 0)
        results.push({ kernel: 'sse2', vertices, mvps: rates[1] });
    postMessage({ type: 'bench', id: replyTo, results });
}

function handle(msg) {
    replyTo = msg.id;
    if (msg.type === 'open')
        return open(msg);
    if (msg.type === 'bench')
        return bench(msg);
    if (!current)
        return postMessage({ type: 'error', id: replyTo, message: 'no model is open yet' });
    switch (msg.type) {
    case 'tick': return sendFrame(current, M._ossa_web_tick(current, Number(msg.dt) || 0));
    case 'act': {
        const action = ACTIONS[msg.action];
        if (action === undefined)
            return postMessage({ type: 'error', id: replyTo,
                                 message: `unknown action ${msg.action}` });
        return sendFrame(current, M._ossa_web_act(current, action, msg.arg | 0));
    }
    case 'seek': {
        const clip = msg.clip === undefined || msg.clip === null ? 0xffffffff : msg.clip >>> 0;
        return sendFrame(current, M._ossa_web_seek(current, clip, Number(msg.time) || 0));
    }
    case 'bind': return sendFrame(current, M._ossa_web_set_bind(current, msg.on ? 1 : 0));
    case 'export': return exportGlb();
    default:
        return postMessage({ type: 'error', id: replyTo, message: `unknown message ${msg.type}` });
    }
}

onmessage = (e) => {
    if (!M)
        queue.push(e.data);
    else
        handle(e.data);
};

createOssaEngine().then((module) => {
    M = module;
    postMessage({ type: 'ready', kernel: str(M._ossa_web_default_kernel()) });
    for (const msg of queue)
        handle(msg);
    queue = [];
}, (e) => postMessage({ type: 'error', message: `the engine did not start: ${e}` }));
