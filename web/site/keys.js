// ossa-view's keys (viewer/input.c) on the page: `on` holds what each one does.

function typing(el) {
  return el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

// Space, Enter and Tab belong to a focused control (keyboard use of the panel).
function onControl(el) {
  return el && el !== document.body && ['BUTTON', 'A', 'SUMMARY', 'LABEL'].includes(el.tagName);
}

// Does what key event `e` asks; true when the key was one of the viewer's.
function key(e, on) {
  const k = e.key, shift = e.shiftKey;
  if (/^[1-9]$/.test(k) && !e.code.startsWith('Numpad')) { on.act('clip', Number(k) - 1); return true; }
  if (e.code === 'NumpadAdd') { on.act('speed', 1); return true; }
  if (e.code === 'NumpadSubtract') { on.act('speed', -1); return true; }
  switch (k) {
    case ' ': on.act('play-pause'); return true;
    case 'ArrowRight': if (shift) on.act('last'); else on.act('step', 1); return true;
    case 'ArrowLeft': if (shift) on.act('first'); else on.act('step', -1); return true;
    case 'Home': on.act('first'); return true;
    case 'End': on.act('last'); return true;
    case 'ArrowUp': on.act('step', 10); return true;
    case 'ArrowDown': on.act('step', -10); return true;
    case ']': case '=': case '+': on.act('speed', 1); return true;
    case '[': case '-': case '_': on.act('speed', -1); return true;
    case 'Backspace': on.act('reverse'); return true;
    case 'Tab': on.act('clip-step', shift ? -1 : 1); return true;
    case 'F1': on.help(); return true;
    case 'Escape': on.help(false); on.dismiss(); return true;
    default: break;
  }
  switch (k.toLowerCase()) {
    case 'l': on.act('mode'); return true;
    case 'h': on.help(); return true;
    case 'i': on.hud(); return true;
    case 'b': on.toggle('bones'); return true;
    case 'j': on.toggle('names'); return true;
    case 'w': on.toggle('wireframe'); return true;
    case 'n': on.toggle('normals'); return true;
    case 'p': on.toggle('bind'); return true;
    case 'g': on.toggle('grid'); return true;
    case 'f': on.frameModel(); return true;
    case 'r': on.resetCamera(); return true;
    default: return false;
  }
}

export function installKeys(on) {
  window.addEventListener('keydown', (e) => {
    if (typing(e.target)) return;
    // Ctrl, Alt and Meta combinations are the browser's and the desktop's.
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    if ([' ', 'Enter', 'Tab'].includes(e.key) && onControl(document.activeElement)) return;
    if (key(e, on)) e.preventDefault();
  });
}
