// The page in headless chromium (run by check_page.py, which serves the site and passes the
// environment below). Drops the cally files on the page, plays, scrubs and reads back what the
// page drew to compare with `ossa sample`; screenshots at two times; the viewer's keys; a
// truncated file's message with the previous model kept; the file picker; and the figures
// (in-page skinning bench, drop to first frame), printed as one PAGE-MEASURED JSON line.
//
// environment: OSSA_PAGE_URL OSSA_CHROMIUM OSSA_CLI OSSA_NPM (web/build.sh's npm folder)
//              OSSA_CALLY OSSA_LARGEST (model folders) OSSA_PAGE_OUT OSSA_BENCH_VERTICES
import { createRequire } from 'node:module';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const env = process.env;
const ossaCli = path.resolve(env.OSSA_CLI);
// puppeteer-core from web/build.sh's install, not from a node_modules beside this file.
const require = createRequire(path.join(env.OSSA_NPM, 'package.json'));
const puppeteer = require('puppeteer-core');

const POS_TOL = 1e-5; // of the model's bounding box diagonal, as the wasm-engine test
const STEP_TIMEOUT = 20000;
const failures = [];
const t0 = Date.now();
const fail = (what) => { failures.push(what); console.log(`FAIL: ${what}`); };
const ok = (cond, what, detail = '') => {
  if (cond) console.log(`ok: ${what}${detail ? ` (${detail})` : ''}`);
  else fail(`${what}${detail ? ` (${detail})` : ''}`);
  return cond;
};

// Every regular file of a model folder, bytes as base64 for the page.
function folderFiles(dir) {
  return fs.readdirSync(dir).sort().filter((n) => fs.statSync(path.join(dir, n)).isFile())
    .map((name) => ({ name, b64: fs.readFileSync(path.join(dir, name)).toString('base64') }));
}

// `ossa sample` as a map "mesh,submesh,vertex" -> [px, py, pz], and the model's size.
function nativeSample(cfg, clipName, time) {
  const csv = execFileSync(ossaCli, ['sample', cfg, '--clip', clipName, '--time', String(time)],
    { encoding: 'utf8', maxBuffer: 64 << 20 });
  const lines = csv.trim().split('\n');
  if (lines[0] !== 'mesh,submesh,vertex,px,py,pz,nx,ny,nz') throw new Error(`ossa sample: ${lines[0]}`);
  const rows = new Map();
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const line of lines.slice(1)) {
    const f = line.split(',');
    const p = f.slice(3, 6).map(Number);
    rows.set(f.slice(0, 3).join(','), p);
    for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[k]); hi[k] = Math.max(hi[k], p[k]); }
  }
  return { rows, size: Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) };
}

// What the page drew (ossaPage.drawn()) against `ossa sample`: every output vertex through
// outputSource (null: the identity; values past vertexCount are padding no triangle uses).
function compareDrawn(drawn, native, label) {
  let worst = 0, outputs = 0, missing = 0;
  const seen = new Set();
  for (const part of drawn) {
    const count = part.positions.length / 3;
    for (let i = 0; i < count; i++) {
      const src = part.outputSource ? part.outputSource[i] : i;
      if (src >= part.vertexCount) continue;
      const key = `${part.mesh},${part.submesh},${src}`;
      const want = native.rows.get(key);
      if (!want) { missing++; continue; }
      seen.add(key);
      outputs++;
      for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(part.positions[3 * i + k] - want[k]));
    }
  }
  const limit = POS_TOL * native.size;
  ok(native.size > 0 && missing === 0 && seen.size === native.rows.size && worst <= limit,
    `${label}: drawn positions match ossa sample`,
    `${drawn.length} parts, ${outputs} outputs over ${seen.size} of ${native.rows.size} vertices` +
    `${missing ? `, ${missing} outputs with no such vertex` : ''}, worst ${worst.toExponential(2)} ` +
    `(${(worst / native.size).toExponential(1)} of size ${native.size.toPrecision(4)}, limit 1e-5)`);
}

const browser = await puppeteer.launch({
  executablePath: env.OSSA_CHROMIUM,
  headless: true,
  args: ['--headless=new', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox'],
  defaultViewport: { width: 960, height: 640 },
});
const watchdog = setTimeout(() => {
  console.log('FAIL: the page test ran past 240 s');
  browser.close().finally(() => process.exit(1));
}, 240000);

const page = await browser.newPage();
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e && e.message || e)));
page.on('console', (m) => { if (m.type() === 'error') console.log(`page console: ${m.text()}`); });
page.on('requestfailed', (r) => console.log(`page request failed: ${r.url()} ${r.failure()?.errorText}`));
page.setDefaultTimeout(STEP_TIMEOUT);

const state = () => page.evaluate(() => window.ossaPage.state());
const drawn = () => page.evaluate(() => window.ossaPage.drawn().map((p) => ({
  mesh: p.mesh, submesh: p.submesh, vertexCount: p.vertexCount,
  outputSource: p.outputSource ? Array.from(p.outputSource) : null,
  positions: Array.from(p.positions),
})));
const seek = (time, clip) => page.evaluate((t, c) => window.ossaPage.seek(t, c), time, clip);
const messageText = () => page.$eval('#message', (e) => e.textContent.trim()).catch(() => '');

// Drops files on the page as a person would (a synthetic drop event on the element under the
// middle of the window) and waits, in the page, for the outcome: a new load that draws (ms from
// the drop to the first frame after it) or, with `failure`, a message naming that text.
async function drop(files, { failure = null } = {}) {
  return page.evaluate(async (files, failure, timeout) => {
    const dt = new DataTransfer();
    for (const f of files) {
      const bin = atob(f.b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], f.name));
    }
    const target = document.elementFromPoint(innerWidth / 2, innerHeight / 2) || document.body;
    const page = window.ossaPage;
    const before = JSON.stringify(page.state().loads);
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const t0 = performance.now();
    for (const type of ['dragenter', 'dragover', 'drop'])
      target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    for (;;) {
      const s = page.state();
      const msg = (document.getElementById('message') || {}).textContent || '';
      if (failure ? msg.includes(failure) : JSON.stringify(s.loads) !== before) break;
      if (performance.now() - t0 > timeout)
        return { timedOut: true, state: s, message: msg, target: target.tagName };
      await new Promise((r) => setTimeout(r, 2));
    }
    if (!failure) await frame(); // the load counts once its model is on screen
    return { ms: performance.now() - t0, state: page.state(), target: target.tagName,
      message: ((document.getElementById('message') || {}).textContent || '').trim() };
  }, files, failure, STEP_TIMEOUT);
}

// Screenshot of the canvas, kept in OSSA_PAGE_OUT, returned as PNG base64.
async function shot(name) {
  const png = await (await page.$('canvas')).screenshot({ type: 'png' });
  fs.writeFileSync(path.join(env.OSSA_PAGE_OUT, name), png);
  return Buffer.from(png).toString('base64');
}

// Pixel statistics of two screenshots, decoded in the page: distinct colours, pixels off the
// commonest colour (the background), and pixels that differ between the two.
function pixelStats(a, b) {
  return page.evaluate(async (a, b) => {
    const decode = async (b64) => {
      const bmp = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const c = new OffscreenCanvas(bmp.width, bmp.height);
      const g = c.getContext('2d');
      g.drawImage(bmp, 0, 0);
      return g.getImageData(0, 0, bmp.width, bmp.height);
    };
    const one = (img) => {
      const counts = new Map();
      const d = img.data;
      for (let i = 0; i < d.length; i += 4) {
        const c = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
        counts.set(c, (counts.get(c) || 0) + 1);
      }
      let bg = 0;
      for (const n of counts.values()) bg = Math.max(bg, n);
      return { pixels: d.length / 4, colours: counts.size, foreground: d.length / 4 - bg };
    };
    const A = await decode(a), B = await decode(b);
    let changed = 0;
    if (A.width === B.width && A.height === B.height) {
      for (let i = 0; i < A.data.length; i += 4) {
        if (Math.abs(A.data[i] - B.data[i]) + Math.abs(A.data[i + 1] - B.data[i + 1]) +
            Math.abs(A.data[i + 2] - B.data[i + 2]) > 24) changed++;
      }
    }
    return { a: one(A), b: one(B), changed, size: `${A.width}x${A.height}` };
  }, a, b);
}

async function waitState(pred, arg) {
  await page.waitForFunction(pred, { polling: 20 }, arg);
  return state();
}

const measured = { bench: null, bench_vertices: Number(env.OSSA_BENCH_VERTICES), drop_to_frame_ms: {} };
try {
  await page.goto(env.OSSA_PAGE_URL, { waitUntil: 'load' });
  await page.waitForFunction(() => !!window.ossaPage);
  await page.evaluate(() => window.ossaPage.ready);
  let s = await state();
  ok(true, 'ready: the demo is drawn', `model '${s.model}', kernel ${s.kernel}, ${(Date.now() - t0) / 1000} s after launch`);
  ok(s.kernel === 'sse2', 'the page skins with the SSE2 kernel on wasm SIMD', `kernel '${s.kernel}'`);

  // Drop every cally file.
  const callyFiles = folderFiles(env.OSSA_CALLY);
  const cfg = path.join(env.OSSA_CALLY, 'cally.cfg');
  let d = await drop(callyFiles);
  if (!ok(!d.timedOut && d.state.model.includes('cally'), 'drop of the cally files opens cally',
    d.timedOut ? `no load within ${STEP_TIMEOUT} ms; message '${d.message}'`
      : `${callyFiles.length} files dropped on <${d.target}>, model '${d.state.model}', ${d.ms.toFixed(0)} ms to the first frame`))
    throw new Error('no model to go on with');
  measured.drop_to_frame_ms.cally = Math.round(d.ms);
  const cally = d.state;

  // Playing: the clock moves on.
  if (!cally.playing) await page.keyboard.press('Space');
  const p0 = await state();
  await new Promise((r) => setTimeout(r, 600));
  const p1 = await state();
  ok(p1.playing && p1.time !== p0.time, 'cally plays: its time moves on',
    `clip '${p1.clipName}' time ${p0.time.toFixed(3)} -> ${p1.time.toFixed(3)} of ${p1.duration.toFixed(3)} s, ${Math.round(p1.fps)} fps`);

  // Scrubbed to two times of the first clip: the pose drawn is ossa sample's, and the pictures
  // are not blank and differ where cally moves.
  const times = [0.37, 0.8].map((t) => Math.min(t, cally.duration * 0.9));
  const shots = [], poses = [];
  for (const [i, t] of times.entries()) {
    await seek(t, 0);
    s = await state();
    ok(!s.playing && Math.abs(s.time - t) < 1e-4 && s.clip === 0, `seek to clip 0 at ${t} s`,
      `state: clip ${s.clip} '${s.clipName}', time ${s.time}, playing ${s.playing}`);
    const parts = await drawn();
    poses.push(parts);
    compareDrawn(parts, nativeSample(cfg, s.clipName, t), `clip '${s.clipName}' at ${t} s`);
    shots.push(await shot(`page-cally-${i}.png`));
  }
  const px = await pixelStats(shots[0], shots[1]);
  for (const [i, one] of [px.a, px.b].entries()) {
    ok(one.colours >= 32 && one.foreground >= one.pixels / 200, `screenshot at ${times[i]} s is not blank`,
      `${px.size}, ${one.colours} colours, ${one.foreground} pixels off the background`);
  }
  ok(px.changed >= 100, `screenshots at ${times[0]} and ${times[1]} s differ where cally moves`,
    `${px.changed} pixels changed`);

  // A truncated skeleton: the engine's message, naming the file and the byte, and cally stays.
  const before = await state();
  const beforeDrawn = JSON.stringify(await drawn());
  const truncDir = path.join(env.OSSA_PAGE_OUT, 'truncated');
  fs.mkdirSync(truncDir, { recursive: true });
  const csf = fs.readFileSync(path.join(env.OSSA_CALLY, 'cally.csf')).subarray(0, 300);
  fs.writeFileSync(path.join(truncDir, 'cally.csf'), csf);
  const info = spawnSync(ossaCli, ['info', 'cally.csf'], { cwd: truncDir, encoding: 'utf8' });
  const nativeMessage = info.stderr.trim().replace(/^ossa: /, '');
  const badFiles = callyFiles.map((f) => (f.name === 'cally.csf' ? { name: f.name, b64: csf.toString('base64') } : f));
  d = await drop(badFiles, { failure: 'cally.csf' });
  const msg = await messageText();
  ok(!d.timedOut && msg.includes('cally.csf') && msg.includes('byte'),
    'a truncated cally.csf shows its error in #message', `'${(await state()).message}'`);
  ok(msg.includes(nativeMessage), "the message is the engine's (as ossa info gives it)", `'${nativeMessage}'`);
  const after = await state();
  ok(after.model === before.model && JSON.stringify(await drawn()) === beforeDrawn,
    'the previous model stays, drawn as it was', `model '${after.model}'`);

  // The largest shared model, dropped: a model with several clips for the keys.
  const largeName = path.basename(env.OSSA_LARGEST);
  const largeFiles = folderFiles(env.OSSA_LARGEST);
  d = await drop(largeFiles);
  if (ok(!d.timedOut && d.state.model.includes(largeName), `drop of ${largeName} opens it`,
    d.timedOut ? `no load within ${STEP_TIMEOUT} ms; message '${d.message}'`
      : `${largeFiles.length} files (${largeFiles.reduce((n, f) => n + f.b64.length * 3 / 4, 0) | 0} bytes), ` +
        `model '${d.state.model}', ${d.ms.toFixed(0)} ms to the first frame`))
    measured.drop_to_frame_ms[largeName] = Math.round(d.ms);

  // The viewer's keys (viewer/input.c's help): Tab the next clip; there, paused mid-clip,
  // Right / Left one frame forward / back and ] twice the speed.
  await seek(0, 0);
  const k0 = await state();
  await page.keyboard.press('Tab');
  const k1 = await waitState((c) => window.ossaPage.state().clip !== c, k0.clip);
  ok(k1.clip === k0.clip + 1 && k1.clipName !== k0.clipName, 'Tab: the next clip',
    `clip ${k0.clip} '${k0.clipName}' -> ${k1.clip} '${k1.clipName}'`);
  const k2 = await seek(k1.duration / 2, k1.clip);
  await page.keyboard.press('ArrowRight');
  const k3 = await waitState((f) => window.ossaPage.state().frame !== f, k2.frame);
  ok(k3.frame === k2.frame + 1 && !k3.playing && k3.time > k2.time, 'Right: one frame forward, paused',
    `'${k2.clipName}' frame ${k2.frame} -> ${k3.frame} of ${k3.lastFrame}, time ${k2.time.toFixed(4)} -> ${k3.time.toFixed(4)}`);
  await page.keyboard.press('ArrowLeft');
  const k4 = await waitState((f) => window.ossaPage.state().frame !== f, k3.frame);
  ok(k4.frame === k2.frame && !k4.playing && k4.time < k3.time, 'Left: one frame back, paused',
    `frame ${k3.frame} -> ${k4.frame}, time ${k4.time.toFixed(4)}`);
  await page.keyboard.press(']');
  const k5 = await waitState((v) => window.ossaPage.state().speed !== v, k4.speed);
  ok(Math.abs(k5.speed - 2 * k4.speed) < 1e-6, ']: the speed doubles', `${k4.speed} -> ${k5.speed}`);
  const hud = await page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return window.ossaPage.hud();
  });
  ok(hud.includes(k5.clipName) && hud.includes(`${k5.speed}x`) && hud.includes(k5.kernel),
    'the HUD line shows the clip, the speed and the kernel', `'${hud.replace(/\s+/g, ' ')}'`);

  // The other keys of the viewer's help, each against what it promises (paused mid-clip).
  const press = async (key, label, check, detail) => {
    const s0 = await state();
    await page.keyboard.press(key);
    const s1 = await waitState((t) => {
      const s = window.ossaPage.state();
      return JSON.stringify([s.clip, s.frame, s.time, s.speed, s.mode, s.playing]) !== t;
    }, JSON.stringify([s0.clip, s0.frame, s0.time, s0.speed, s0.mode, s0.playing]));
    ok(check(s0, s1), label, detail(s0, s1));
    return s1;
  };
  const frames = (a, b) => `frame ${a.frame} -> ${b.frame} of ${b.lastFrame}`;
  await press('[', '[: the speed halves', (a, b) => Math.abs(b.speed - a.speed / 2) < 1e-6,
    (a, b) => `${a.speed} -> ${b.speed}`);
  await press('ArrowUp', 'Up: ten frames forward', (a, b) => b.frame === a.frame + 10, frames);
  await press('ArrowDown', 'Down: ten frames back', (a, b) => b.frame === a.frame - 10, frames);
  await press('End', 'End: the last frame', (a, b) => b.frame === b.lastFrame, frames);
  await press('Home', 'Home: the first frame', (a, b) => b.frame === 0 && b.time === 0, frames);
  await press('Backspace', 'Backspace: the direction reversed', (a, b) => b.speed === -a.speed,
    (a, b) => `speed ${a.speed} -> ${b.speed}`);
  await press('l', 'L: the next wrap mode', (a, b) => a.mode === 'loop' && b.mode === 'ping-pong',
    (a, b) => `${a.mode} -> ${b.mode}`);
  await press('1', '1: the first clip', (a, b) => b.clip === 0 && a.clip !== 0,
    (a, b) => `clip ${a.clip} -> ${b.clip} '${b.clipName}'`);
  const played = await press(' ', 'Space: plays', (a, b) => !a.playing && b.playing,
    (a, b) => `playing ${a.playing} -> ${b.playing}`);
  if (played.playing) await page.keyboard.press(' ');
  // Display keys: what the HUD says is shown.
  for (const [key, word] of [['b', 'bones'], ['w', 'wireframe'], ['g', 'grid'], ['p', 'bind pose']]) {
    await page.keyboard.press(key);
    const text = await page.evaluate(async () => {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return window.ossaPage.hud();
    });
    ok(text.includes(word), `${key.toUpperCase()}: the HUD shows ${word}`, `'${text.replace(/\s+/g, ' ')}'`);
    await page.keyboard.press(key);
  }

  // A click in the clip list cross-fades to that clip.
  const c0 = await state();
  const target = c0.clip === 0 ? 1 : 0;
  await page.click(`#clips li:nth-child(${target + 1}) button`);
  const c1 = await waitState((c) => window.ossaPage.state().clip !== c, c0.clip);
  ok(c1.clip === target, 'a click in the clip list plays that clip',
    `clip ${c0.clip} -> ${c1.clip} '${c1.clipName}'`);

  // The file picker (the other way in): cally again.
  const picker = await page.$('input[type=file]:not([webkitdirectory])');
  if (picker) {
    const loads = JSON.stringify(k5.loads);
    await picker.uploadFile(...callyFiles.map((f) => path.join(env.OSSA_CALLY, f.name)));
    const u = await waitState((l) => JSON.stringify(window.ossaPage.state().loads) !== l, loads);
    ok(u.model === cally.model, 'the file picker opens cally again', `model '${u.model}'`);
  } else {
    console.log('note: no file input found: the picker is not tested');
  }

  // The .glb button: Ossa's exporter in the worker, saved as a download.
  const downloads = path.join(env.OSSA_PAGE_OUT, 'downloads');
  fs.rmSync(downloads, { recursive: true, force: true });
  fs.mkdirSync(downloads, { recursive: true });
  const cdp = await page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  await page.click('#download');
  const glbPath = path.join(downloads, 'cally.glb');
  const until = Date.now() + STEP_TIMEOUT;
  while (!fs.existsSync(glbPath) && Date.now() < until)
    await new Promise((r) => setTimeout(r, 50));
  const glb = fs.existsSync(glbPath) ? fs.readFileSync(glbPath) : Buffer.alloc(0);
  let gltf = null;
  if (glb.length >= 20 && glb.toString('latin1', 0, 4) === 'glTF' && glb.readUInt32LE(4) === 2 &&
      glb.readUInt32LE(8) === glb.length && glb.readUInt32LE(16) === 0x4e4f534a) {
    try {
      gltf = JSON.parse(glb.toString('utf8', 20, 20 + glb.readUInt32LE(12)));
    } catch (e) {
      gltf = null;
    }
  }
  ok(gltf && gltf.meshes && gltf.meshes.length === 17 && gltf.skins && gltf.skins.length === 1 &&
    gltf.animations && gltf.animations.length === 1,
  'Download .glb saves cally as glTF 2.0 through the engine\'s exporter',
  gltf ? `cally.glb, ${glb.length} bytes, ${gltf.meshes.length} meshes, ${gltf.animations.length} animation`
    : `no valid cally.glb in ${downloads} (${glb.length} bytes)`);

  // Skinning throughput in the page, every kernel the module has (paused: no clip to tick).
  await seek(0, 0);
  const bench = await page.evaluate((v) => window.ossaPage.bench(v, 5), measured.bench_vertices);
  measured.bench = Object.fromEntries(bench.map((b) => [b.kernel, Number(b.mvps.toFixed(2))]));
  ok(bench.some((b) => b.kernel === 'sse2') && bench.some((b) => b.kernel === 'scalar') &&
    bench.every((b) => b.mvps > 0 && b.vertices === measured.bench_vertices),
  `in-page bench at ${measured.bench_vertices} vertices`,
  bench.map((b) => `${b.kernel} ${b.mvps.toFixed(1)} Mv/s`).join(', '));
} catch (e) {
  fail(`${e && e.stack || e}`);
  const m = await messageText();
  if (m) console.log(`#message: '${m}'`);
}
for (const e of pageErrors) fail(`uncaught in the page: ${e}`);
clearTimeout(watchdog);
await browser.close();
console.log(`PAGE-MEASURED ${JSON.stringify(measured)}`);
console.log(`page test: ${failures.length ? `${failures.length} failed` : 'all passed'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(failures.length ? 1 : 0);
