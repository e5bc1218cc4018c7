// The page: the engine runs in worker.js (PROTOCOL.md); this thread sends it commands, copies
// the frames it skins into three.js and draws them, and turns keys, clicks and drops into
// ossa-view's actions.
import { View } from './scene.js';
import { hudLine, ClipList, Timeline, buildHelp } from './hud.js';
import { installDrop, normalise, rootsOf } from './drop.js';
import { installKeys } from './keys.js';

const $ = (id) => document.getElementById(id);
const view = new View($('view'), $('labels'));
const worker = new Worker('worker.js');

const page = {
  kernel: '',        // from the worker's `ready`
  info: null,        // the shown model's
  st: null,          // the latest frame's state
  loads: 0,
  bind: false,       // the bind pose asked for (P), kept across models
  pending: [],       // requests not answered yet, in the order sent (the worker answers in order)
  tickInFlight: false,
  lastTickAt: 0,
  seq: 0,            // frames applied so far
  drawnSeq: 0,       // frames drawn so far
  waiters: [],       // {seq, resolve}: resolved once frame `seq` is drawn
  nextId: 0,
  opening: 0,        // opens not answered yet
  exporting: false,
  benching: 0,       // benches running in the worker (nothing is drawn meanwhile)
  fps: 0,
  fpsFrames: 0,
  fpsSince: 0,
  hudText: '',
};

let readyResolve, readyReject;
const ready = new Promise((resolve, reject) => { readyResolve = resolve; readyReject = reject; });
ready.catch(() => {}); // reported in the message bar

function post(message, transfer) {
  worker.postMessage(message, transfer || []);
}

// Sends a request; `entry` gets its answer: onFrame(seq) once its frame is applied,
// resolve(message) for the other answers, fail(text) for an error.
function request(message, entry = {}, transfer) {
  page.pending.push({ kind: message.type, id: message.id, ...entry });
  post(message, transfer);
}

const FRAME_KINDS = ['tick', 'act', 'seek', 'bind'];
// The oldest request of one of `kinds` (or of any kind), taken off the queue.
function answered(kinds) {
  const i = kinds ? page.pending.findIndex((r) => kinds.includes(r.kind)) : 0;
  return i >= 0 && page.pending.length ? page.pending.splice(i, 1)[0] : null;
}

function act(action, arg) {
  if (!page.info) return;
  request({ type: 'act', action, arg });
}

function whenDrawn(seq) {
  return new Promise((resolve) => {
    if (page.drawnSeq >= seq) resolve();
    else page.waiters.push({ seq, resolve });
  });
}

// ---- messages -------------------------------------------------------------------------

function showMessage(text) {
  $('message-text').textContent = text;
  $('message').hidden = !text;
}

function showStatus(text) {
  $('status').textContent = text;
  $('status').hidden = !text;
}

function showWarnings(list) {
  const ul = $('warnings');
  ul.textContent = '';
  for (const w of list) {
    const li = document.createElement('li');
    li.textContent = w;
    ul.appendChild(li);
  }
  $('warning-count').textContent = `(${list.length})`;
  $('warnings-section').hidden = !list.length;
}

// ---- worker replies ---------------------------------------------------------------------

function onFrame(msg) {
  const req = answered(FRAME_KINDS);
  if (req && req.kind === 'tick') page.tickInFlight = false;
  if (page.info) view.applyFrame(msg);
  if (msg.state) setState(msg.state);
  page.seq++;
  if (req && req.onFrame) req.onFrame(page.seq);
}

function setState(st) {
  const before = page.st;
  page.st = st;
  clipList.setCurrent(st.clip);
  if (!before || before.clip !== st.clip) {
    const c = page.info && st.clip >= 0 ? page.info.clips[st.clip] : null;
    timeline.setClip(c ? c.ticks : [], c ? c.duration : 0);
  }
}

function onOpened(msg) {
  const pending = answered(['open']);
  page.opening--;
  page.info = msg.info;
  page.st = null;
  view.setModel(msg);
  page.loads++;
  clipList.setClips(msg.info.clips || []);
  setState(msg.frame.state);
  $('model-name').textContent = msg.info.name || '—';
  $('download').disabled = false;
  showMessage('');
  if (!page.opening) showStatus('');
  const warnings = [...(msg.info.warnings || [])];
  showWarnings(warnings);
  view.texturesReady.then(() => {
    if (page.info === msg.info && view.textureWarnings.length)
      showWarnings([...warnings, ...view.textureWarnings]);
  });
  if (page.bind !== !!msg.frame.state.bind) request({ type: 'bind', on: page.bind });
  page.lastTickAt = performance.now();
  const seq = ++page.seq;
  whenDrawn(seq).then(() => {
    if (page.loads === 1) readyResolve();
    if (pending) pending.resolve({ ok: true, message: '', ms: performance.now() - pending.start });
  });
  syncToggles();
}

// An error answers the open of its id, else the oldest request (the worker answers in order).
function onError(msg) {
  showMessage(msg.message);
  if (!page.kernel) readyReject(new Error(msg.message)); // the engine did not start
  const req = msg.id !== undefined && msg.id !== null ? answered(['open']) : answered(null);
  if (!req) return;
  if (req.kind === 'tick') page.tickInFlight = false;
  if (req.fail) req.fail(msg.message);
}

function openFailed(pending, message) {
  page.opening--;
  if (!page.opening) showStatus('');
  if (!page.loads) readyReject(new Error(message));
  pending.resolve({ ok: false, message, ms: performance.now() - pending.start });
}

function exportDone() {
  page.exporting = false;
  $('download').disabled = false;
}

function onGlb(msg) {
  const req = answered(['export']);
  if (req) req.resolve(msg);
}

function download(msg) {
  const url = URL.createObjectURL(new Blob([msg.data], { type: 'model/gltf-binary' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = msg.name || 'model.glb';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

worker.addEventListener('message', (e) => {
  const msg = e.data;
  switch (msg && msg.type) {
    case 'ready':
      page.kernel = msg.kernel || '';
      $('engine').textContent = `engine: WebAssembly, kernel ${page.kernel}`;
      openModel(Promise.resolve({ files: [], roots: [] }), 'demo');
      break;
    case 'opened': onOpened(msg); break;
    case 'frame': onFrame(msg); break;
    case 'error': onError(msg); break;
    case 'glb': onGlb(msg); break;
    case 'bench': {
      const req = answered(['bench']);
      if (req) req.resolve(msg.results);
      break;
    }
    default: break;
  }
});
worker.addEventListener('error', (e) => {
  const text = `the engine did not start: ${e.message || 'worker.js failed to load'}`;
  showMessage(text);
  readyReject(new Error(text));
});

// ---- opening ----------------------------------------------------------------------------

// `gathering`: a promise of {files, roots}. Resolves {ok, message, ms} once the model's first
// frame is drawn or its error shown.
function openModel(gathering, label, start = performance.now()) {
  const id = ++page.nextId;
  page.opening++;
  showStatus(`loading ${label || 'files'}…`);
  return new Promise((resolve) => {
    const entry = { resolve, start };
    Promise.resolve(gathering).then(({ files, roots }) => {
      const name = label || (roots.length > 2 ? `${roots[0]} and ${roots.length - 1} more`
        : roots.join(', ')) || 'demo';
      showStatus(`loading ${name}…`);
      request({ type: 'open', id, files, roots }, {
        resolve, start, fail: (message) => openFailed(entry, message),
      }, files.map((f) => f.data));
    }).catch((err) => {
      const message = `cannot read the files: ${err.message || err}`;
      showMessage(message);
      openFailed(entry, message);
    });
  });
}

installDrop(window, $('drop-overlay'), $('pick-files'), $('pick-folder'),
  (gathering) => openModel(gathering));
$('open-files').addEventListener('click', () => $('pick-files').click());
$('open-folder').addEventListener('click', () => $('pick-folder').click());
$('demo').addEventListener('click', () => openModel(Promise.resolve({ files: [], roots: [] }), 'demo'));
$('download').disabled = true;
$('download').addEventListener('click', () => {
  if (!page.info || page.exporting) return;
  page.exporting = true;
  $('download').disabled = true;
  request({ type: 'export' }, {
    resolve: (msg) => { exportDone(); download(msg); },
    fail: exportDone,
  });
});
$('message-close').addEventListener('click', () => showMessage(''));

// ---- panel, timeline, help --------------------------------------------------------------

const clipList = new ClipList($('clips'), $('clip-count'), (i) => act('clip', i));

const scrub = { active: false, resume: false, inFlight: false, pending: null };
function sendSeek(time) {
  scrub.inFlight = true;
  request({ type: 'seek', time }, { onFrame: () => {
    scrub.inFlight = false;
    if (scrub.pending !== null) {
      const t = scrub.pending;
      scrub.pending = null;
      sendSeek(t);
    }
  }, fail: () => { scrub.inFlight = false; } });
}
const timeline = new Timeline($('timeline'), $('timeline-time'), {
  begin() {
    if (!page.st) return;
    // Scrubbing holds playback and gives it back on release.
    scrub.active = true;
    scrub.resume = page.st.playing;
    if (scrub.resume) act('play-pause');
  },
  scrub(t) {
    if (!page.st || !(page.st.duration > 0)) return;
    // A loop's end is its start: the right end of the bar stays at the end.
    if (page.st.mode === 'loop' && t >= page.st.duration) t = floatBelow(page.st.duration);
    timeline.update(t);
    if (scrub.inFlight) scrub.pending = t;
    else sendSeek(t);
  },
  end() {
    if (!scrub.active) return;
    scrub.active = false;
    if (scrub.resume) act('play-pause');
  },
});

// The float32 just below x (C's nextafterf(x, 0) for x > 0).
function floatBelow(x) {
  const f = new Float32Array([x]);
  new Uint32Array(f.buffer)[0] -= 1;
  return f[0];
}

buildHelp($('help-keys'));
function toggleHelp(on = $('help').hidden) {
  $('help').hidden = !on;
  $('show-help').setAttribute('aria-pressed', String(on));
}
$('show-help').addEventListener('click', () => toggleHelp());

function toggle(what) {
  if (what === 'bind') {
    if (!page.info) return;
    page.bind = !page.bind;
    request({ type: 'bind', on: page.bind });
  } else {
    view.toggle(what);
  }
  syncToggles();
}
function syncToggles() {
  for (const b of document.querySelectorAll('[data-toggle]')) {
    const what = b.dataset.toggle;
    const on = what === 'bind' ? page.bind : what === 'grid' ? view.grid.visible : view.show[what];
    b.setAttribute('aria-pressed', String(!!on));
  }
}
for (const b of document.querySelectorAll('[data-toggle]'))
  b.addEventListener('click', () => toggle(b.dataset.toggle));

// ---- keys -------------------------------------------------------------------------------

// A button pressed with the mouse gives the keys back to the view (Space plays, Tab changes
// clips); one pressed from the keyboard keeps the focus, so the panel stays keyboard-usable.
$('panel').addEventListener('click', (e) => {
  const button = e.target.closest('button');
  if (button && e.detail > 0) button.blur();
});

installKeys({
  act,
  toggle,
  help: (on) => toggleHelp(on),
  hud: () => { $('hud').hidden = !$('hud').hidden; },
  dismiss: () => showMessage(''),
  frameModel: () => view.frameModel(),
  resetCamera: () => view.resetCamera(),
});

// ---- the frame loop ---------------------------------------------------------------------

function loop(now) {
  requestAnimationFrame(loop);
  // Nothing is drawn while the worker times the kernels: on a small machine the page's own
  // drawing (WebGL in software, often) would take the bench's core.
  if (page.benching) return;
  if (!page.fpsSince) page.fpsSince = now;
  page.fpsFrames++;
  if (now - page.fpsSince >= 500) {
    page.fps = (1000 * page.fpsFrames) / (now - page.fpsSince);
    page.fpsFrames = 0;
    page.fpsSince = now;
  }
  view.render();
  page.drawnSeq = page.seq;
  if (page.waiters.length) {
    const done = page.waiters.filter((w) => w.seq <= page.drawnSeq);
    page.waiters = page.waiters.filter((w) => w.seq > page.drawnSeq);
    for (const w of done) w.resolve();
  }
  updateText();
  // One tick at a time: the next only once the last one's frame came back.
  if (page.info && !page.tickInFlight) {
    const dt = Math.min(0.25, Math.max(0, (now - page.lastTickAt) / 1000));
    page.lastTickAt = now;
    page.tickInFlight = true;
    request({ type: 'tick', dt });
  }
}

function kernelName() {
  return (page.info && page.info.kernel) || page.kernel;
}

function updateText() {
  const st = page.st;
  const showing = [page.bind && 'bind pose', view.displayText()].filter(Boolean).join(' ');
  const text = hudLine(page.info ? page.info.name : '', st, page.fps, kernelName(),
    showing && `showing ${showing}`);
  if (text !== page.hudText) {
    page.hudText = text;
    $('hud').textContent = text;
  }
  if (!scrub.active) timeline.update(st && st.clip >= 0 ? st.time : 0, st ? st.duration : 0);
  const tl = $('timeline');
  tl.setAttribute('aria-valuemax', String(st ? st.duration : 0));
  tl.setAttribute('aria-valuenow', String(st ? st.time : 0));
}

requestAnimationFrame(loop);

// ---- hooks for tests --------------------------------------------------------------------

function state() {
  const st = page.st || {};
  return {
    model: page.info ? page.info.name : '',
    clip: st.clip ?? -1,
    clipName: st.clipName ?? '',
    time: st.time ?? 0,
    duration: st.duration ?? 0,
    frame: st.frame ?? 0,
    lastFrame: st.lastFrame ?? 0,
    speed: st.speed ?? 0,
    playing: !!st.playing,
    mode: st.mode ?? '',
    kernel: kernelName(),
    fps: page.fps,
    message: $('message').hidden ? '' : $('message-text').textContent,
    loads: page.loads,
  };
}

window.ossaPage = {
  ready,
  state,
  open(files, roots) {
    const start = performance.now();
    const gathering = normalise(files).then((list) => ({
      files: list,
      roots: roots && roots.length ? Array.from(roots) : rootsOf(list.map((f) => f.path)),
    }));
    return openModel(gathering, undefined, start);
  },
  seek(time, clip) {
    if (page.st && page.st.playing) act('play-pause');
    return new Promise((resolve) => {
      const message = { type: 'seek', time };
      if (clip !== undefined && clip !== null) message.clip = clip;
      request(message, {
        onFrame: (seq) => whenDrawn(seq).then(() => resolve(state())),
        fail: () => resolve(state()),
      });
    });
  },
  drawn: () => view.drawn(),
  nextFrame: () => whenDrawn(page.seq + 1).then(() => state()),
  bench(vertices, rounds) {
    page.benching++;
    const done = () => { page.benching--; page.lastTickAt = performance.now(); };
    return new Promise((resolve, reject) => {
      request({ type: 'bench', vertices, rounds }, {
        resolve: (r) => { done(); resolve(r); },
        fail: (m) => { done(); reject(new Error(m)); },
      });
    });
  },
  hud: () => page.hudText,
};
