// The page's TGA decoder (web/site/tga.js) on files made here, one per kind the exporters of
// legacy characters write: true colour 24 and 32 bits, bottom-left and top-left origins, the
// run-length forms, grey, colour-mapped, right-to-left; and files cut short or out of range,
// which must fail with a message, never read past the data.
// usage: node tga_decode.mjs SOURCE_ROOT
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const { decodeTga } = await import(pathToFileURL(path.join(process.argv[2], 'web/site/tga.js')));
let failures = 0;
function check(cond, what) {
  console.log(`${cond ? 'ok' : 'FAIL'}: ${what}`);
  if (!cond) failures++;
}

// An 18-byte header, then the colour map and the pixel bytes.
function tga({ type, width, height, bits, descriptor = 0, map = null, mapBits = 0 }, ...data) {
  const mapLength = map ? map.length / Math.ceil(mapBits / 8) : 0;
  const head = [0, map ? 1 : 0, type, 0, 0, mapLength & 255, mapLength >> 8, mapBits,
    0, 0, 0, 0, width & 255, width >> 8, height & 255, height >> 8, bits, descriptor];
  return new Uint8Array([...head, ...(map || []), ...data.flat()]);
}

// Red, green, blue, white as RGBA, top row first: what every 2x2 file below holds.
const RGBW = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255];
const same = (got, want) => got.length === want.length && got.every((v, i) => v === want[i]);
const bgr = { r: [0, 0, 255], g: [0, 255, 0], b: [255, 0, 0], w: [255, 255, 255] };
function expect(name, file, want = RGBW) {
  let img;
  try {
    img = decodeTga(file);
  } catch (e) {
    check(false, `${name}: ${e.message}`);
    return;
  }
  check(img.width === 2 && img.height === 2 && same(Array.from(img.data), want),
    `${name} decodes to its pixels (${Array.from(img.data).join(',')})`);
}

// Bottom-left origin (descriptor 0): the file's first row is the image's bottom row.
expect('type 2, 24 bits, bottom-left', tga({ type: 2, width: 2, height: 2, bits: 24 },
  bgr.b, bgr.w, bgr.r, bgr.g));
expect('type 2, 32 bits with alpha, top-left', tga({ type: 2, width: 2, height: 2, bits: 32,
  descriptor: 0x28 }, [...bgr.r, 255], [...bgr.g, 255], [...bgr.b, 255], [...bgr.w, 255]));
expect('type 2, 24 bits, top-right', tga({ type: 2, width: 2, height: 2, bits: 24,
  descriptor: 0x30 }, bgr.g, bgr.r, bgr.w, bgr.b));
// Run-length: a repeated packet of 2 (0x81) and a raw packet of 2 (0x01).
expect('type 10, 24 bits, run-length, top-left', tga({ type: 10, width: 2, height: 2, bits: 24,
  descriptor: 0x20 }, [0x81], bgr.w, [0x01], bgr.w, bgr.w), Array(4).fill([255, 255, 255, 255]).flat());
expect('type 10, 32 bits, run-length, bottom-left', tga({ type: 10, width: 2, height: 2, bits: 32,
  descriptor: 0x08 }, [0x01], [...bgr.b, 255], [...bgr.w, 255], [0x01], [...bgr.r, 255],
  [...bgr.g, 255]));
const GREY = [0, 0, 0, 255, 85, 85, 85, 255, 170, 170, 170, 255, 255, 255, 255, 255];
expect('type 3, 8-bit grey, top-left', tga({ type: 3, width: 2, height: 2, bits: 8,
  descriptor: 0x20 }, [0, 85, 170, 255]), GREY);
expect('type 11, run-length grey', tga({ type: 11, width: 2, height: 2, bits: 8,
  descriptor: 0x20 }, [0x03, 0, 85, 170, 255]), GREY);
expect('type 1, colour-mapped, 24-bit map', tga({ type: 1, width: 2, height: 2, bits: 8,
  descriptor: 0x20, map: [...bgr.r, ...bgr.g, ...bgr.b, ...bgr.w], mapBits: 24 }, [0, 1, 2, 3]));

// Hostile files: each fails with a TGA message.
function refused(name, file) {
  try {
    decodeTga(file);
    check(false, `${name}: decoded`);
  } catch (e) {
    check(/^TGA: /.test(e.message), `${name} is refused (${e.message})`);
  }
}
const whole = tga({ type: 2, width: 2, height: 2, bits: 24 }, bgr.b, bgr.w, bgr.r, bgr.g);
refused('a header cut short', whole.subarray(0, 10));
refused('pixels cut short', whole.subarray(0, whole.length - 1));
refused('a run past the image', tga({ type: 10, width: 2, height: 2, bits: 24 }, [0x84], bgr.w));
refused('run-length data cut short', tga({ type: 10, width: 2, height: 2, bits: 24 }, [0x03],
  bgr.w));
refused('a colour index past the map', tga({ type: 1, width: 2, height: 2, bits: 8,
  map: [...bgr.r], mapBits: 24 }, [0, 0, 0, 1]));
refused('type 4', tga({ type: 4, width: 2, height: 2, bits: 24 }, bgr.b, bgr.w, bgr.r, bgr.g));
refused('a 0-pixel image', tga({ type: 2, width: 0, height: 2, bits: 24 }));
refused('a 65535 x 65535 image', tga({ type: 2, width: 65535, height: 65535, bits: 24 }));
process.exit(failures ? 1 : 0);
