// Preload (`--import`) for tests that check what a process loaded: records every module file it loads, ES
// modules through a loader hook and CommonJS through Module._load, and on SIGUSR2 writes them, one path a line,
// to $LOADED_MODULES_FILE (replacing it atomically, so a reader never sees half a list).
import fs from 'node:fs';
import { createRequire, register } from 'node:module';
import { fileURLToPath } from 'node:url';

const loaded = new Set();
const Module = createRequire(import.meta.url)('node:module');
const load = Module._load;
Module._load = function recordingLoad(request, parent, isMain) {
  try {
    loaded.add(Module._resolveFilename(request, parent, isMain));
  } catch {
    // unresolvable: Module._load reports it
  }
  return load.apply(this, arguments);
};

const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => loaded.add(url.startsWith('file:') ? fileURLToPath(url) : url));
port1.unref();
const hooks = `let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) { port.postMessage(url); return next(url, context); }`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, import.meta.url, { data: { port: port2 }, transferList: [port2] });

process.on('SIGUSR2', () => {
  const file = process.env.LOADED_MODULES_FILE;
  if (!file) return;
  fs.writeFileSync(`${file}.part`, [...loaded].join('\n'));
  fs.renameSync(`${file}.part`, file);
});
