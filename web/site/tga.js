// Truevision TGA decoder: image types 1, 2, 3 and their run-length forms 9, 10, 11; 8, 15, 16,
// 24 and 32 bits a pixel; colour maps of 15, 16, 24 or 32 bits. The result is RGBA, 4 bytes a
// pixel, the image's top row first whatever the file's origin, as SDL_image hands it to
// ossa-view.

const MAX_SIDE = 8192;

function fail(text) {
  throw new Error(`TGA: ${text}`);
}

// One pixel of `bits` bits at bytes[o] (little-endian, BGR(A) order) into rgba[d..d+3].
// `grey`: 8 bits are luminance, 16 bits luminance + alpha. `alphaBits`: the descriptor's
// attribute bits, which say whether a 16- or 32-bit pixel's top bits are alpha.
function putPixel(bytes, o, bits, grey, alphaBits, rgba, d) {
  if (grey) {
    const v = bytes[o];
    rgba[d] = v; rgba[d + 1] = v; rgba[d + 2] = v;
    rgba[d + 3] = bits === 16 ? bytes[o + 1] : 255;
    return;
  }
  switch (bits) {
    case 15:
    case 16: {
      const p = bytes[o] | (bytes[o + 1] << 8);
      const r = (p >> 10) & 31, g = (p >> 5) & 31, b = p & 31;
      rgba[d] = (r << 3) | (r >> 2);
      rgba[d + 1] = (g << 3) | (g >> 2);
      rgba[d + 2] = (b << 3) | (b >> 2);
      rgba[d + 3] = bits === 16 && alphaBits > 0 ? (p & 0x8000 ? 255 : 0) : 255;
      return;
    }
    case 24:
      rgba[d] = bytes[o + 2]; rgba[d + 1] = bytes[o + 1]; rgba[d + 2] = bytes[o];
      rgba[d + 3] = 255;
      return;
    case 32:
      rgba[d] = bytes[o + 2]; rgba[d + 1] = bytes[o + 1]; rgba[d + 2] = bytes[o];
      rgba[d + 3] = alphaBits > 0 ? bytes[o + 3] : 255;
      return;
    default:
      fail(`${bits} bits a pixel`);
  }
}

// Decodes a whole file (ArrayBuffer or typed array) into {width, height, data: Uint8Array}.
export function decodeTga(buffer) {
  const bytes = buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer.buffer || buffer,
    buffer.byteOffset || 0, buffer.byteLength);
  if (bytes.length < 18) fail('shorter than its 18-byte header');
  const idLength = bytes[0];
  const mapType = bytes[1];
  const type = bytes[2];
  const mapFirst = bytes[3] | (bytes[4] << 8);
  const mapLength = bytes[5] | (bytes[6] << 8);
  const mapBits = bytes[7];
  const width = bytes[12] | (bytes[13] << 8);
  const height = bytes[14] | (bytes[15] << 8);
  const bits = bytes[16];
  const descriptor = bytes[17];
  const alphaBits = descriptor & 15;
  const rightToLeft = (descriptor & 0x10) !== 0;
  const topDown = (descriptor & 0x20) !== 0;

  const rle = type >= 9;
  const base = rle ? type - 8 : type;
  if (![1, 2, 3].includes(base)) fail(`image type ${type}`);
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE)
    fail(`${width}x${height} pixels`);
  const mapped = base === 1;
  const grey = base === 3;
  if (mapped && (mapType !== 1 || bits !== 8 && bits !== 16)) fail('bad colour map');
  if (grey && bits !== 8 && bits !== 16) fail(`${bits}-bit grey`);
  if (base === 2 && ![15, 16, 24, 32].includes(bits)) fail(`${bits} bits a pixel`);

  let at = 18 + idLength;
  // The colour map, as RGBA entries; present (and skipped) even in true-colour files.
  let palette = null;
  if (mapType === 1) {
    const entryBytes = Math.ceil(mapBits / 8);
    if (![15, 16, 24, 32].includes(mapBits)) fail(`${mapBits}-bit colour map`);
    if (at + mapLength * entryBytes > bytes.length) fail('colour map past the end');
    if (mapped) {
      palette = new Uint8Array(4 * (mapFirst + mapLength));
      for (let i = 0; i < mapLength; i++)
        putPixel(bytes, at + i * entryBytes, mapBits, false, mapBits === 32 ? 8 : alphaBits,
          palette, 4 * (mapFirst + i));
    }
    at += mapLength * entryBytes;
  }

  const pixelBytes = Math.ceil(bits / 8);
  const count = width * height;
  // Pixels in file order: rows from the origin's side, as stored.
  const stored = new Uint8Array(4 * count);
  const put = (o, d) => {
    if (mapped) {
      const index = pixelBytes === 2 ? bytes[o] | (bytes[o + 1] << 8) : bytes[o];
      const p = 4 * index;
      if (p + 3 >= palette.length) fail(`colour index ${index} outside the map`);
      stored[d] = palette[p]; stored[d + 1] = palette[p + 1];
      stored[d + 2] = palette[p + 2]; stored[d + 3] = palette[p + 3];
    } else {
      putPixel(bytes, o, bits, grey, alphaBits, stored, d);
    }
  };
  if (!rle) {
    if (at + count * pixelBytes > bytes.length) fail('pixels past the end of the file');
    for (let i = 0; i < count; i++) put(at + i * pixelBytes, 4 * i);
  } else {
    let i = 0;
    while (i < count) {
      if (at >= bytes.length) fail('run-length data past the end of the file');
      const head = bytes[at++];
      const n = (head & 127) + 1;
      if (i + n > count) fail('a run crosses the end of the image');
      if (head & 128) {
        if (at + pixelBytes > bytes.length) fail('run-length data past the end of the file');
        put(at, 4 * i);
        for (let k = 1; k < n; k++) stored.copyWithin(4 * (i + k), 4 * i, 4 * i + 4);
        at += pixelBytes;
      } else {
        if (at + n * pixelBytes > bytes.length) fail('run-length data past the end of the file');
        for (let k = 0; k < n; k++) put(at + k * pixelBytes, 4 * (i + k));
        at += n * pixelBytes;
      }
      i += n;
    }
  }

  if (topDown && !rightToLeft) return { width, height, data: stored };
  // Rows top first, columns left to right.
  const data = new Uint8Array(4 * count);
  for (let y = 0; y < height; y++) {
    const src = topDown ? y : height - 1 - y;
    if (!rightToLeft) {
      data.set(stored.subarray(4 * src * width, 4 * (src + 1) * width), 4 * y * width);
      continue;
    }
    for (let x = 0; x < width; x++) {
      const s = 4 * (src * width + width - 1 - x), d = 4 * (y * width + x);
      data[d] = stored[s]; data[d + 1] = stored[s + 1];
      data[d + 2] = stored[s + 2]; data[d + 3] = stored[s + 3];
    }
  }
  return { width, height, data };
}
