// The page's text and controls around the view: the HUD line, the clip list, the timeline with
// its key marks and scrubbing, and the help overlay (ossa-view's keys, viewer/input.c).

// ossa-view's help rows, less what a page has no use for (K: GPU skinning, Esc: quit).
export const HELP_ROWS = [
  ['Space', 'play / pause'],
  ['Left / Right', 'one frame back / forward (pauses)'],
  ['Shift+Left / Shift+Right', 'first / last frame (also Home / End)'],
  ['Down / Up', 'ten frames back / forward'],
  ['[ / ] (- / =, keypad - / +)', 'slower / faster; past 1/16 into reverse'],
  ['Backspace', 'reverse the direction'],
  ['L', 'wrap mode: loop, ping-pong, once'],
  ['1 .. 9', 'clip 1 to 9, cross-faded'],
  ['Tab / Shift+Tab', 'next / previous clip, cross-faded'],
  ['B', 'bones on / off'],
  ['J', 'joint names on / off'],
  ['W', 'wireframe on / off'],
  ['N', 'vertex normals on / off'],
  ['P', 'bind pose on / off'],
  ['G', 'ground grid on / off'],
  ['F', 'frame the model'],
  ['R', 'reset the camera'],
  ['I', 'information (HUD) on / off'],
  ['F1 / H', 'this help on / off'],
  ['Esc', 'close this help and the message'],
  ['left drag', 'orbit'],
  ['left click on a joint', 'select it: its name always shows (elsewhere: none)'],
  ['right or middle drag', 'pan'],
  ['wheel', 'zoom'],
  ['click or drag the timeline', 'scrub'],
  ['click a clip in the clip list', 'play it, cross-faded (any clip, past the ninth too)'],
  ['drop files or a folder', 'open them as the model'],
];

export function buildHelp(table) {
  const body = table.tBodies[0] || table.createTBody();
  body.textContent = '';
  for (const [input, effect] of HELP_ROWS) {
    const row = body.insertRow();
    const key = document.createElement('th');
    key.scope = 'row';
    key.textContent = input;
    row.appendChild(key);
    row.insertCell().textContent = effect;
  }
}

// "%g" of C for the speed ladder's values (1, 0.5, 0.0625, 16).
const g = (x) => String(Number(x.toPrecision(6)));

// "cally | walk | 0.37 / 1.07 s | frame 11 / 32 | 1x loop | playing | 60 fps | sse2"
export function hudLine(model, st, fps, kernel, extra) {
  const parts = [model || 'no model'];
  if (!st) return parts.join(' | ');
  if (st.clip >= 0) {
    parts.push(`${st.clipName || '(unnamed)'}${st.fading ? ' (fading in)' : ''}`);
    parts.push(`${st.time.toFixed(2)} / ${st.duration.toFixed(2)} s`);
    parts.push(`frame ${st.frame} / ${st.lastFrame}`);
  } else {
    parts.push('no clips: rest pose');
  }
  parts.push(`${g(st.speed)}x ${st.mode}`);
  parts.push(st.playing ? 'playing' : 'paused');
  if (fps > 0 && Number.isFinite(fps)) parts.push(`${Math.round(fps)} fps`);
  parts.push(kernel || '');
  if (extra) parts.push(extra);
  return parts.join(' | ');
}

// The clip list: one button a clip, "name" and "1.00 s"; the current one highlighted.
export class ClipList {
  constructor(list, count, onPick) {
    this.list = list;
    this.count = count;
    this.onPick = onPick;
    this.current = -2;
    this.buttons = [];
  }

  setClips(clips) {
    this.list.textContent = '';
    this.buttons = clips.map((c, i) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'clip';
      const name = document.createElement('span');
      name.className = 'clip-name';
      name.textContent = c.name || '(unnamed)';
      const dur = document.createElement('span');
      dur.className = 'clip-duration';
      dur.textContent = `${Number(c.duration).toFixed(2)} s`;
      button.append(name, dur);
      button.title = i < 9 ? `${c.name} (key ${i + 1})` : c.name;
      button.addEventListener('click', () => this.onPick(i));
      item.appendChild(button);
      this.list.appendChild(item);
      return button;
    });
    this.count.textContent = `(${clips.length})`;
    this.current = -2;
  }

  setCurrent(clip) {
    if (clip === this.current) return;
    this.current = clip;
    this.buttons.forEach((b, i) => {
      const on = i === clip;
      b.classList.toggle('current', on);
      b.setAttribute('aria-pressed', on ? 'true' : 'false');
      if (on) b.scrollIntoView({ block: 'nearest' });
    });
  }
}

// The timeline: the clip's length as a bar, key marks from the clip's key times, the time so
// far filled, a cursor; a press or drag scrubs (begin, scrub(time), end).
export class Timeline {
  constructor(canvas, label, handlers) {
    this.canvas = canvas;
    this.label = label;
    this.handlers = handlers;
    this.ticks = [];
    this.duration = 0;
    this.time = 0;
    this.dragging = false;
    this.drawnKey = '';
    canvas.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 || !(this.duration > 0)) return;
      canvas.setPointerCapture(e.pointerId);
      this.dragging = true;
      this.handlers.begin();
      this.handlers.scrub(this.timeAt(e.clientX));
    });
    canvas.addEventListener('pointermove', (e) => {
      if (this.dragging) this.handlers.scrub(this.timeAt(e.clientX));
    });
    const stop = (e) => {
      if (!this.dragging) return;
      this.dragging = false;
      if (canvas.hasPointerCapture(e.pointerId)) canvas.releasePointerCapture(e.pointerId);
      this.handlers.end();
    };
    canvas.addEventListener('pointerup', stop);
    canvas.addEventListener('pointercancel', stop);
  }

  margin() {
    return Math.min(16, 0.05 * this.canvas.clientWidth);
  }

  timeAt(clientX) {
    const rect = this.canvas.getBoundingClientRect();
    const m = this.margin(), w = rect.width - 2 * m;
    if (!(w > 0) || !(this.duration > 0)) return 0;
    const f = Math.min(1, Math.max(0, (clientX - rect.left - m) / w));
    return f * this.duration;
  }

  setClip(ticks, duration) {
    this.ticks = ticks || [];
    this.duration = duration || 0;
    this.drawnKey = '';
  }

  update(time, duration) {
    this.time = time;
    if (duration !== undefined && duration !== this.duration) this.duration = duration;
    this.label.textContent = this.duration > 0
      ? `${time.toFixed(2)} / ${this.duration.toFixed(2)} s` : 'no clip';
    this.draw();
  }

  draw() {
    const c = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const w = c.clientWidth, h = c.clientHeight;
    if (!w || !h) return;
    const key = `${w}x${h}@${ratio}:${this.time}:${this.duration}:${this.ticks.length}`;
    if (key === this.drawnKey) return;
    this.drawnKey = key;
    if (c.width !== Math.round(w * ratio) || c.height !== Math.round(h * ratio)) {
      c.width = Math.round(w * ratio);
      c.height = Math.round(h * ratio);
    }
    const ctx = c.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const m = this.margin(), x0 = m, x1 = w - m;
    const barH = Math.min(10, 0.4 * h), y1 = h - 6, y0 = y1 - barH;
    ctx.fillStyle = 'rgb(70, 74, 84)';
    ctx.fillRect(x0, y0, x1 - x0, barH);
    if (!(this.duration > 0)) return;
    const xOf = (t) => x0 + Math.min(1, Math.max(0, t / this.duration)) * (x1 - x0);
    const cursor = xOf(this.time);
    ctx.fillStyle = 'rgb(240, 160, 40)';
    ctx.fillRect(x0, y0, cursor - x0, barH);
    // Key marks, one a pixel column at most.
    ctx.fillStyle = 'rgba(200, 205, 215, 0.8)';
    const seen = new Set();
    for (const t of this.ticks) {
      if (!(t >= 0 && t <= this.duration)) continue; // past the end or NaN: not on the bar
      const x = Math.floor(xOf(t));
      if (seen.has(x)) continue;
      seen.add(x);
      ctx.fillRect(x, 3, 1, y0 - 4);
    }
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(cursor - 1.5, 1, 3, h - 2);
  }
}
