// Runs the engine's WebAssembly module (web/build.sh) under Node.js as a page would: the model's
// files (their folders) are written into the module's file system at their own paths, loaded,
// posed at a clip's time and skinned. Prints "kernel NAME", then the skinned vertices as `ossa sample` does
// (mesh,submesh,vertex,px,py,pz,nx,ny,nz, file order). A load that fails prints the engine's
// message on stderr and exits 1.
//
// usage: node engine_sample.js OSSA_ENGINE_JS CLIP|-1 TIME FILE...
'use strict';
const fs = require('fs');
const path = require('path');

async function main() {
    const [moduleJs, clipArg, timeArg, ...files] = process.argv.slice(2);
    const createOssaEngine = require(path.resolve(moduleJs));
    // The binary given directly: emscripten 3.1.6 would fetch() a path under Node.js 18+.
    const wasm = fs.readFileSync(path.join(path.dirname(path.resolve(moduleJs)),
                                           'ossa_engine.wasm'));
    const M = await createOssaEngine({ wasmBinary: wasm });
    // Each file's folder goes in whole, as a page writes the files dropped on it: a .cfg names
    // the files beside it.
    for (const dir of new Set(files.map((f) => path.dirname(path.resolve(f))))) {
        M.FS.mkdirTree(dir);
        for (const name of fs.readdirSync(dir)) {
            const file = path.join(dir, name);
            if (fs.statSync(file).isFile())
                M.FS.writeFile(file, fs.readFileSync(file));
        }
    }
    const pathPtrs = M._malloc(4 * files.length);
    files.forEach((f, i) => {
        const abs = path.resolve(f);
        const n = M.lengthBytesUTF8(abs) + 1, p = M._malloc(n);
        M.stringToUTF8(abs, p, n);
        M.HEAPU32[(pathPtrs >> 2) + i] = p;
    });
    const c = M._ossa_web_load(pathPtrs, files.length);
    if (!c) {
        process.stderr.write(M.UTF8ToString(M._ossa_web_error()) + '\n');
        process.exit(1);
    }
    if (M._ossa_web_pose(c, Number(clipArg) >>> 0, Number(timeArg)) !== 0) {
        process.stderr.write(M.UTF8ToString(M._ossa_web_error()) + '\n');
        process.exit(1);
    }
    const out = ['kernel ' + M.UTF8ToString(M._ossa_web_kernel(c)),
                 'mesh,submesh,vertex,px,py,pz,nx,ny,nz'];
    const fmt = (x) => String(Math.fround(x));
    for (let p = 0; p < M._ossa_web_part_count(c); p++) {
        const part = (what) => M._ossa_web_part(c, p, what) >>> 0;
        const outputs = part(2), vertices = part(8), source = part(7);
        // HEAP views are taken after every call: growing memory replaces them.
        const pos = M.HEAPF32.subarray(part(4) >> 2, (part(4) >> 2) + 3 * outputs);
        const nrm = M.HEAPF32.subarray(part(5) >> 2, (part(5) >> 2) + 3 * outputs);
        const byFile = new Array(vertices);
        for (let o = 0; o < outputs; o++) {
            const v = source ? M.HEAPU32[(source >> 2) + o] : o;
            if (v < vertices)
                byFile[v] = o;
        }
        for (let v = 0; v < vertices; v++) {
            const o = byFile[v];
            if (o === undefined)
                throw new Error(`part ${p}: file vertex ${v} has no output`);
            out.push([part(0), part(1), v, fmt(pos[3 * o]), fmt(pos[3 * o + 1]),
                      fmt(pos[3 * o + 2]), fmt(nrm[3 * o]), fmt(nrm[3 * o + 1]),
                      fmt(nrm[3 * o + 2])].join(','));
        }
    }
    M._ossa_web_destroy(c);
    process.stdout.write(out.join('\n') + '\n');
}

main().catch((e) => {
    process.stderr.write(String(e && e.stack || e) + '\n');
    process.exit(1);
});
