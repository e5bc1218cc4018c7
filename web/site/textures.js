// Textures from the file bytes the worker sends. Every image ends up with its top row at t = 0
// (as ossa-view uploads SDL surfaces); which way a part's v runs is the material's flipV
// uniform, as in ossa-view's mesh shader.
import * as THREE from 'three';
import { decodeTga } from './tga.js';

function configure(texture) {
  texture.flipY = false; // rows as stored: top row first
  texture.wrapS = THREE.RepeatWrapping;
  texture.wrapT = THREE.RepeatWrapping;
  texture.magFilter = THREE.LinearFilter;
  texture.minFilter = THREE.LinearMipmapLinearFilter;
  texture.generateMipmaps = true;
  texture.colorSpace = THREE.NoColorSpace; // raw bytes, as the viewer samples them
  texture.needsUpdate = true;
  return texture;
}

// Resolves a THREE.Texture for one entry of `opened.textures`, or rejects with why not.
export async function decodeTexture(entry) {
  if (!entry || entry.error) throw new Error(entry ? entry.error : 'no texture');
  const type = String(entry.type || '').toUpperCase();
  const name = entry.path || 'texture';
  // The type the engine checked the header as; the name only when none came.
  if (type === 'TGA' || (!type && /\.tga$/i.test(name))) {
    const image = decodeTga(entry.data);
    const texture = new THREE.DataTexture(image.data, image.width, image.height,
      THREE.RGBAFormat, THREE.UnsignedByteType);
    texture.unpackAlignment = 4;
    texture.name = name;
    return configure(texture);
  }
  // PNG, JPEG, BMP: the browser's decoders, bytes untouched by colour management.
  const bitmap = await createImageBitmap(new Blob([entry.data]), {
    premultiplyAlpha: 'none',
    colorSpaceConversion: 'none',
  });
  const texture = new THREE.Texture(bitmap);
  texture.name = name;
  return configure(texture);
}
