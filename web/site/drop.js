// Files and folders into {files: [{path, data}], roots}: paths relative to what was dropped or
// picked, '/'-separated; roots the top-level names (a folder or a file), as ossa-view gets them
// on its command line.

function fileOf(entry) {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

// Every entry of a directory: readEntries gives them in batches until an empty one.
async function readAll(dir) {
  const reader = dir.createReader();
  const out = [];
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) return out;
    out.push(...batch);
  }
}

async function walk(entry, prefix, out) {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    out.push({ path, file: await fileOf(entry) });
  } else if (entry.isDirectory) {
    for (const child of await readAll(entry)) await walk(child, path, out);
  }
}

async function withData(list) {
  return Promise.all(list.map(async ({ path, file }) => ({ path, data: await file.arrayBuffer() })));
}

// A drop's files. Entries must be taken while the event runs; the walk goes on after it.
// Where the browser gives no entries (a synthetic drop), the plain file list, names as paths.
export function dropped(dataTransfer) {
  const entries = [];
  for (const item of dataTransfer.items || []) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
  }
  const plain = Array.from(dataTransfer.files || []);
  return (async () => {
    if (entries.length) {
      const list = [];
      for (const entry of entries) await walk(entry, '', list);
      return { files: await withData(list), roots: entries.map((e) => e.name) };
    }
    return fromFileList(plain);
  })();
}

// An <input type=file> selection: with webkitdirectory, paths under the picked folder.
export async function fromFileList(fileList) {
  const list = Array.from(fileList).map((file) => ({
    path: file.webkitRelativePath || file.name,
    file,
  }));
  return { files: await withData(list), roots: rootsOf(list.map((f) => f.path)) };
}

// The top-level names of a set of paths, in first-seen order.
export function rootsOf(paths) {
  const roots = [];
  for (const p of paths) {
    const top = String(p).replace(/^\/+/, '').split('/')[0];
    if (top && !roots.includes(top)) roots.push(top);
  }
  return roots;
}

// Whatever a caller passes to ossaPage.open: File objects, or {path, data} with data an
// ArrayBuffer, a typed array, a Blob or a string.
export async function normalise(files) {
  return Promise.all(Array.from(files || []).map(async (f) => {
    if (typeof File !== 'undefined' && f instanceof File)
      return { path: f.webkitRelativePath || f.name, data: await f.arrayBuffer() };
    const path = String(f.path || f.name).replace(/^\/+/, '');
    let data = f.data;
    if (data instanceof Blob) data = await data.arrayBuffer();
    else if (typeof data === 'string') data = new TextEncoder().encode(data).buffer;
    else if (ArrayBuffer.isView(data))
      data = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
    else if (Array.isArray(data)) data = new Uint8Array(data).buffer;
    return { path, data };
  }));
}

// Hooks the page's drop target and the two pickers to `open({files, roots})`.
export function installDrop(target, overlay, pickFiles, pickFolder, open) {
  let depth = 0;
  const hasFiles = (e) => e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files');
  target.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth++;
    overlay.hidden = false;
  });
  target.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  });
  target.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) overlay.hidden = true;
  });
  target.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    overlay.hidden = true;
    if (!e.dataTransfer) return;
    open(dropped(e.dataTransfer));
  });
  for (const input of [pickFiles, pickFolder]) {
    input.addEventListener('change', () => {
      if (!input.files || !input.files.length) return;
      const picked = fromFileList(input.files);
      input.value = ''; // the same selection again still opens
      open(picked);
    });
  }
}
