// Joint names over the view (ossa-view's J and joint picking), as HTML labels.
import * as THREE from 'three';

const MAX_LABELS = 256;

// Window positions of the joints, in CSS pixels of the canvas.
function jointScreen(view) {
  const out = [];
  const bones = view.info ? view.info.bones || [] : [];
  if (!view.joints) return out;
  const m = view.group.matrixWorld;
  const w = view.canvas.clientWidth, h = view.canvas.clientHeight;
  const v = new THREE.Vector3();
  for (let i = 0; i < bones.length; i++) {
    v.set(view.joints[3 * i], view.joints[3 * i + 1], view.joints[3 * i + 2]).applyMatrix4(m);
    const eye = v.clone().applyMatrix4(view.camera.matrixWorldInverse);
    if (eye.z >= 0) continue; // behind the eye
    v.project(view.camera);
    if (Math.abs(v.x) > 1.2 || Math.abs(v.y) > 1.2) continue;
    out.push({ bone: i, name: bones[i].name, x: (v.x * 0.5 + 0.5) * w, y: (0.5 - v.y * 0.5) * h });
  }
  return out;
}

// The joint within reach of a click (0.8 of a line), or -1.
export function pickJoint(view, clientX, clientY) {
  const rect = view.canvas.getBoundingClientRect();
  const x = clientX - rect.left, y = clientY - rect.top;
  let best = -1, bestD2 = (0.8 * 16) ** 2;
  for (const j of jointScreen(view)) {
    const d2 = (j.x - x) ** 2 + (j.y - y) ** 2;
    if (d2 <= bestD2) { best = j.bone; bestD2 = d2; }
  }
  return best;
}

// Joint names beside their joints, skipping those that would overlap one already placed;
// the selected joint's name always shows.
export function placeLabels(view) {
  const layer = view.labelLayer;
  const all = view.show.names;
  let shown = [];
  if (all || view.selected >= 0) {
    shown = jointScreen(view).filter((j) => j.name && (all || j.bone === view.selected));
    shown.sort((a, b) => (b.bone === view.selected) - (a.bone === view.selected));
  }
  const boxes = [];
  let used = 0;
  for (const j of shown) {
    if (used >= MAX_LABELS) break;
    const box = { x0: j.x + 4, y0: j.y - 8, x1: j.x + 4 + 7 * j.name.length, y1: j.y + 8 };
    if (j.bone !== view.selected &&
        boxes.some((b) => box.x0 < b.x1 && b.x0 < box.x1 && box.y0 < b.y1 && b.y0 < box.y1))
      continue;
    boxes.push(box);
    let el = view.labels[used];
    if (!el) {
      el = document.createElement('span');
      el.className = 'joint-label';
      layer.appendChild(el);
      view.labels.push(el);
    }
    if (el.textContent !== j.name) el.textContent = j.name;
    el.style.transform = `translate(${Math.round(box.x0)}px, ${Math.round(box.y0)}px)`;
    el.classList.toggle('selected', j.bone === view.selected);
    el.hidden = false;
    used++;
  }
  for (let i = used; i < view.labels.length; i++) view.labels[i].hidden = true;
}

