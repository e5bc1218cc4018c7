// The three.js side of the page: one mesh per part drawn as ossa-view draws it (one light over
// the viewer's shoulder plus ambient, lit on both sides, its background and overlay colours),
// the camera framed as ossa-view frames it, and the overlays (bones, joint names, normals,
// wireframe, grid). Vertices stay exactly the engine's floats: the up axis is a rotation of the
// parent group, never baked into the geometry.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { decodeTexture } from './textures.js';
import { pickJoint, placeLabels } from './labels.js';

// ossa-view's colours (viewer/render.c, render.h).
const BACKGROUND = [0.16, 0.17, 0.20];
const NO_MATERIAL = [0.7, 0.7, 0.7];
const BONE = [1.0, 0.85, 0.1];
const WIRE = [0.05, 0.05, 0.06];
const NORMAL = [0.3, 0.8, 1.0];
const GRID = [0.38, 0.40, 0.44];
const AMBIENT = 0.3;
// ossa-view's camera (viewer/camera.c).
const DEFAULT_YAW = 0.5, DEFAULT_PITCH = 0.2, FOV_Y = 45;
const GRID_CELLS = 20;
const PAD_VERTEX = 0xffffffff; // outputSource of a padding output (OSSA_SKIN_PAD_VERTEX)

const rgb = (c) => new THREE.Color().setRGB(c[0], c[1], c[2]);

// viewer/shaders/mesh.frag: diffuse (times vertex colour and texture) under one directional
// light plus ambient; back faces lit with the flipped normal. No colour-space conversion, as
// the viewer writes its shader's values straight to the window.
const VERTEX = /* glsl */ `
#include <color_pars_vertex>
varying vec3 vNormal;
varying vec2 vUv;
void main() {
  #include <color_vertex>
  vNormal = mat3(modelMatrix) * normal;
  vUv = uv;
  gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);
}`;
const FRAGMENT = /* glsl */ `
#include <color_pars_fragment>
uniform vec3 diffuse;
uniform vec3 lightDir;
uniform float ambient;
uniform sampler2D map;
uniform bool textured;
uniform bool flipV;
varying vec3 vNormal;
varying vec2 vUv;
void main() {
  vec3 base = diffuse;
  #if defined(USE_COLOR_ALPHA) || defined(USE_COLOR)
  base *= vColor.rgb;
  #endif
  if (textured) base *= texture2D(map, vec2(vUv.x, flipV ? 1.0 - vUv.y : vUv.y)).rgb;
  vec3 n = normalize(vNormal);
  if (!gl_FrontFacing) n = -n;
  float lambert = max(dot(n, lightDir), 0.0);
  gl_FragColor = vec4(base * (ambient + (1.0 - ambient) * lambert), 1.0);
}`;


function copyInto(attribute, values) {
  const n = attribute.array.length;
  attribute.array.set(values.length > n ? values.subarray(0, n) : values);
  attribute.needsUpdate = true;
}

export class View {
  constructor(canvas, labelLayer) {
    this.canvas = canvas;
    this.labelLayer = labelLayer;
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true });
    this.renderer.outputColorSpace = THREE.LinearSRGBColorSpace;
    this.renderer.setPixelRatio(window.devicePixelRatio || 1);
    this.scene = new THREE.Scene();
    this.scene.background = rgb(BACKGROUND);
    this.camera = new THREE.PerspectiveCamera(FOV_Y, 1, 0.01, 100);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.mouseButtons = {
      LEFT: THREE.MOUSE.ROTATE, MIDDLE: THREE.MOUSE.PAN, RIGHT: THREE.MOUSE.PAN,
    };
    this.controls.minPolarAngle = 0.01;
    this.controls.maxPolarAngle = Math.PI - 0.01;
    this.lightDir = { value: new THREE.Vector3(0, 1, 0) }; // shared by every mesh material

    this.group = new THREE.Group(); // the model, turned so its up is the screen's up
    this.scene.add(this.group);
    this.grid = new THREE.LineSegments(new THREE.BufferGeometry(),
      new THREE.LineBasicMaterial({ color: rgb(GRID) }));
    this.grid.visible = false; // off at start, as in ossa-view
    this.scene.add(this.grid);

    this.show = { bones: false, names: false, wireframe: false, normals: false };
    this.parts = [];
    this.selected = -1;
    this.labels = [];
    this.box = { min: new THREE.Vector3(-1, -1, -1), max: new THREE.Vector3(1, 1, 1) };
    this.radius = 1;
    this.info = null;
    this.joints = null;
    this.pickAt = null;
    canvas.addEventListener('pointerdown', (e) => {
      this.pickAt = e.button === 0 ? [e.clientX, e.clientY] : null;
    });
    canvas.addEventListener('pointerup', (e) => {
      // A left click that did not orbit selects the joint under it (or none).
      if (e.button !== 0 || !this.pickAt) return;
      const moved = Math.hypot(e.clientX - this.pickAt[0], e.clientY - this.pickAt[1]);
      this.pickAt = null;
      if (moved < 4) this.pick(e.clientX, e.clientY);
    });
  }

  // Replaces the model with an `opened` reply's; the old one's GPU objects are freed.
  setModel(opened) {
    this.dispose();
    const { info, parts } = opened;
    this.info = info;
    this.group.rotation.set(info.up === 'z' ? -Math.PI / 2 : 0, 0, 0);
    this.group.updateMatrixWorld(true);
    const materials = info.materials || [];
    const textureUsers = new Map(); // texture index -> materials that show it
    this.parts = parts.map((part) => {
      const n = part.outputCount;
      const geometry = new THREE.BufferGeometry();
      const position = new THREE.BufferAttribute(new Float32Array(3 * n), 3);
      const normal = new THREE.BufferAttribute(new Float32Array(3 * n), 3);
      position.setUsage(THREE.DynamicDrawUsage);
      normal.setUsage(THREE.DynamicDrawUsage);
      geometry.setAttribute('position', position);
      geometry.setAttribute('normal', normal);
      geometry.setIndex(new THREE.BufferAttribute(part.indices, 1));
      if (part.uvs) {
        const uv = new THREE.BufferAttribute(new Float32Array(part.uvs), 2);
        uv.setUsage(THREE.DynamicDrawUsage); // clips may animate them
        geometry.setAttribute('uv', uv);
      }
      const colorSize = part.colors && n ? part.colors.length / n : 0;
      if (colorSize === 3 || colorSize === 4)
        geometry.setAttribute('color', new THREE.BufferAttribute(part.colors, colorSize));
      const mat = materials[part.material];
      const material = new THREE.ShaderMaterial({
        vertexShader: VERTEX,
        fragmentShader: FRAGMENT,
        uniforms: {
          diffuse: { value: rgb(mat ? mat.diffuse : NO_MATERIAL) },
          lightDir: this.lightDir,
          ambient: { value: AMBIENT },
          map: { value: null },
          textured: { value: false },
          flipV: { value: part.flipV }, // by the mesh's format, as ossa-view
        },
        // ossa-view draws every face from both sides: legacy exporters disagree on winding.
        side: THREE.DoubleSide,
        vertexColors: colorSize > 0,
        polygonOffset: this.show.wireframe,
        polygonOffsetFactor: 1,
        polygonOffsetUnits: 1,
      });
      if (mat && mat.texture >= 0 && part.uvs) {
        if (!textureUsers.has(mat.texture)) textureUsers.set(mat.texture, []);
        textureUsers.get(mat.texture).push(material);
      }
      const mesh = new THREE.Mesh(geometry, material);
      mesh.frustumCulled = false; // skinned: the bounds move every frame
      const wire = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({
        color: rgb(WIRE), wireframe: true,
      }));
      wire.frustumCulled = false;
      // A hidden mesh (C3S) is loaded but not drawn, as in ossa-view.
      mesh.visible = !part.hidden;
      wire.visible = this.show.wireframe && !part.hidden;
      this.group.add(mesh, wire);
      return { part, geometry, mesh, wire };
    });

    this.textures = [];
    this.textureWarnings = [];
    const textures = opened.textures || [];
    const pending = [];
    for (const [index, users] of textureUsers) {
      const entry = textures[index];
      pending.push(decodeTexture(entry).then((texture) => {
        if (this.info !== info) { texture.dispose(); return; } // another model by now
        this.textures.push(texture);
        for (const m of users) {
          m.uniforms.map.value = texture;
          m.uniforms.textured.value = true;
        }
      }, (e) => {
        const what = entry && entry.path ? `texture ${entry.path}` : 'a texture';
        this.textureWarnings.push(`${what} cannot be shown (${e.message}); its material shows its colour`);
      }));
    }
    this.texturesReady = Promise.all(pending);

    // Bones: a line from each joint's parent to it, over the mesh.
    const bones = info.bones || [];
    this.bonePairs = [];
    bones.forEach((b, i) => { if (b.parent >= 0 && b.parent < bones.length) this.bonePairs.push(b.parent, i); });
    const boneGeometry = new THREE.BufferGeometry();
    boneGeometry.setAttribute('position',
      new THREE.BufferAttribute(new Float32Array(3 * this.bonePairs.length), 3).setUsage(THREE.DynamicDrawUsage));
    this.bones = new THREE.LineSegments(boneGeometry, new THREE.LineBasicMaterial({
      color: rgb(BONE), depthTest: false, depthWrite: false,
    }));
    this.bones.frustumCulled = false;
    this.bones.renderOrder = 10;
    this.group.add(this.bones);

    const total = this.parts.reduce((s, p) => s + p.part.outputCount, 0);
    const normalGeometry = new THREE.BufferGeometry();
    normalGeometry.setAttribute('position',
      new THREE.BufferAttribute(new Float32Array(6 * total), 3).setUsage(THREE.DynamicDrawUsage));
    this.normals = new THREE.LineSegments(normalGeometry,
      new THREE.LineBasicMaterial({ color: rgb(NORMAL) }));
    this.normals.frustumCulled = false;
    this.group.add(this.normals);

    // The bind box in the up-corrected frame, which the camera and the grid use.
    const lo = info.bindMin || [-1, -1, -1], hi = info.bindMax || [1, 1, 1];
    const box = new THREE.Box3();
    for (let c = 0; c < 8; c++)
      box.expandByPoint(new THREE.Vector3(c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1],
        c & 4 ? hi[2] : lo[2]).applyMatrix4(this.group.matrixWorld));
    this.box = box;
    const diagonal = box.min.distanceTo(box.max);
    this.normalLength = 0.02 * (diagonal > 0 ? diagonal : 1);
    this.buildGrid();
    this.skeletonOnly = bones.length > 0 && !parts.some((p) => p.indices && p.indices.length);
    if (this.skeletonOnly) this.show.bones = true;
    this.selected = -1;
    this.applyFrame(opened.frame);
    this.resetCamera();
    this.syncVisibility();
  }

  dispose() {
    for (const p of this.parts) {
      p.geometry.dispose();
      p.mesh.material.dispose();
      p.wire.material.dispose();
      this.group.remove(p.mesh, p.wire);
    }
    for (const t of this.textures || []) t.dispose();
    for (const o of [this.bones, this.normals]) {
      if (!o) continue;
      o.geometry.dispose();
      o.material.dispose();
      this.group.remove(o);
    }
    this.parts = [];
    this.textures = [];
    this.bones = this.normals = null;
  }

  // Copies a `frame` reply into the geometry (the engine's floats, untouched).
  applyFrame(frame) {
    if (!frame) return;
    this.parts.forEach((p, i) => {
      const g = p.geometry.attributes;
      const pos = frame.positions && frame.positions[i];
      if (pos) copyInto(g.position, pos);
      const nor = frame.normals && frame.normals[i];
      if (nor) copyInto(g.normal, nor);
      const uv = frame.uvs && frame.uvs[i];
      if (uv && g.uv) copyInto(g.uv, uv);
    });
    if (frame.joints) this.joints = frame.joints;
    this.updateBones();
    this.updateNormals();
  }

  updateBones() {
    if (!this.bones || !this.show.bones || !this.joints) return;
    const out = this.bones.geometry.attributes.position;
    const j = this.joints;
    this.bonePairs.forEach((bone, k) => {
      out.array[3 * k] = j[3 * bone];
      out.array[3 * k + 1] = j[3 * bone + 1];
      out.array[3 * k + 2] = j[3 * bone + 2];
    });
    out.needsUpdate = true;
  }

  updateNormals() {
    if (!this.normals || !this.show.normals) return;
    const out = this.normals.geometry.attributes.position.array;
    const len = this.normalLength;
    let o = 0;
    for (const p of this.parts) {
      const pos = p.geometry.attributes.position.array, nor = p.geometry.attributes.normal.array;
      const source = p.part.outputSource;
      for (let v = 0; v < pos.length; v += 3) {
        // Padding outputs (no file vertex) get no line.
        const l = source && source[v / 3] === PAD_VERTEX ? 0 : len;
        out[o] = pos[v]; out[o + 1] = pos[v + 1]; out[o + 2] = pos[v + 2];
        out[o + 3] = pos[v] + l * nor[v];
        out[o + 4] = pos[v + 1] + l * nor[v + 1];
        out[o + 5] = pos[v + 2] + l * nor[v + 2];
        o += 6;
      }
    }
    this.normals.geometry.attributes.position.needsUpdate = true;
  }

  // viewer/render_grid.c in the up-corrected frame: 20 x 20 cells across Y, through the bind
  // pose's lowest point, half a side 0.75 of the box's diagonal.
  buildGrid() {
    const { min, max } = this.box;
    const c = new THREE.Vector3().addVectors(min, max).multiplyScalar(0.5);
    let half = 0.75 * min.distanceTo(max);
    if (!(half > 0)) half = 1;
    const points = [];
    for (let i = 0; i <= GRID_CELLS; i++) {
      const t = -half + (2 * half * i) / GRID_CELLS;
      points.push(c.x + t, min.y, c.z - half, c.x + t, min.y, c.z + half);
      points.push(c.x - half, min.y, c.z + t, c.x + half, min.y, c.z + t);
    }
    this.grid.geometry.dispose();
    this.grid.geometry = new THREE.BufferGeometry();
    this.grid.geometry.setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
  }

  toggle(what) {
    if (what === 'grid') this.grid.visible = !this.grid.visible;
    else this.show[what] = !this.show[what];
    this.syncVisibility();
    return what === 'grid' ? this.grid.visible : this.show[what];
  }

  syncVisibility() {
    for (const p of this.parts) {
      p.wire.visible = this.show.wireframe && !p.part.hidden;
      // The shaded surface pushed back a little, the edges on top of it.
      p.mesh.material.polygonOffset = this.show.wireframe;
    }
    if (this.bones) this.bones.visible = this.show.bones;
    if (this.normals) this.normals.visible = this.show.normals;
    this.updateBones();
    this.updateNormals();
  }

  displayText() {
    const s = this.show;
    return [s.bones && 'bones', s.names && 'names', s.wireframe && 'wireframe',
      s.normals && 'normals', this.grid.visible && 'grid'].filter(Boolean).join(' ');
  }

  // viewer/camera.c: far enough that the bounding sphere fits both fields of view, with a
  // margin; `keepAngle` (F) keeps the direction, else (R) the default yaw and pitch.
  frame(keepAngle) {
    const { min, max } = this.box;
    const target = new THREE.Vector3().addVectors(min, max).multiplyScalar(0.5);
    let r = 0.5 * min.distanceTo(max);
    if (!(r > 1e-6) || !Number.isFinite(r)) {
      r = 1;
      if (!Number.isFinite(target.x + target.y + target.z)) target.set(0, 0, 0);
    }
    this.radius = r;
    const halfY = THREE.MathUtils.degToRad(FOV_Y) / 2;
    const halfX = Math.atan(Math.tan(halfY) * this.aspect());
    const distance = (1.2 * r) / Math.sin(Math.min(halfX, halfY));
    let dir;
    if (keepAngle) {
      dir = this.camera.position.clone().sub(this.controls.target).normalize();
    } else {
      dir = new THREE.Vector3(Math.sin(DEFAULT_YAW) * Math.cos(DEFAULT_PITCH),
        Math.sin(DEFAULT_PITCH), Math.cos(DEFAULT_YAW) * Math.cos(DEFAULT_PITCH));
    }
    this.controls.target.copy(target);
    this.camera.position.copy(target).addScaledVector(dir, distance);
    this.controls.minDistance = 0.01 * r;
    this.controls.maxDistance = 100 * r;
    this.controls.update();
  }

  frameModel() { this.frame(true); }
  resetCamera() { this.frame(false); }

  aspect() {
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    return w > 0 && h > 0 ? w / h : 1;
  }

  resize() {
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    const ratio = this.renderer.getPixelRatio();
    if (w && h && (this.canvas.width !== Math.floor(w * ratio) || this.canvas.height !== Math.floor(h * ratio)))
      this.renderer.setSize(w, h, false);
    this.camera.aspect = this.aspect();
  }

  render() {
    this.resize();
    this.controls.update();
    const target = this.controls.target;
    const d = this.camera.position.distanceTo(target);
    // Planes follow the distance to the target, as ossa-view's.
    this.camera.near = Math.max(d - 2 * this.radius, 0.001 * d);
    this.camera.far = d + 2 * this.radius;
    this.camera.updateProjectionMatrix();
    // A light over the viewer's shoulder: towards the eye, raised along the up axis.
    const l = this.lightDir.value;
    l.copy(this.camera.position).sub(target).divideScalar(d || 1);
    l.y += 0.8;
    if (l.lengthSq() > 0) l.normalize(); else l.set(0, 1, 0);
    this.renderer.render(this.scene, this.camera);
    placeLabels(this);
  }

  pick(clientX, clientY) {
    this.selected = pickJoint(this, clientX, clientY);
  }

  // What the page drew, part by part (for tests).
  drawn() {
    return this.parts.map(({ part, geometry }) => ({
      mesh: part.mesh,
      submesh: part.submesh,
      vertexCount: part.vertexCount,
      outputSource: part.outputSource ? Array.from(part.outputSource) : null,
      positions: Array.from(geometry.attributes.position.array),
    }));
  }
}
