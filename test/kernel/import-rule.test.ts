// The kernel imports nothing from plugins/, providers/ or the composition root (app/), at build time or at run
// time: every relative path in its sources (static and dynamic imports, `new URL(..., import.meta.url)`, path
// pieces handed to path.join or resolve) must stay inside kernel/, and no string names those folders.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const KERNEL = path.resolve('kernel');
const OUTSIDE = ['plugins', 'providers', 'app'];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(?:[cm]?[jt]s|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/** The source without its comments (strings kept), so a comment naming plugins/ is no import. */
function withoutComments(text: string): string {
  return text.replace(/("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (match, literal) => literal ?? ' ');
}

/** Every string literal of the source (template literals whole, `${}` parts included). */
function literals(text: string): string[] {
  return [...withoutComments(text).matchAll(/"((?:\\.|[^"\\\n])*)"|'((?:\\.|[^'\\\n])*)'|`((?:\\.|[^`\\])*)`/g)]
    .map((match) => match[1] ?? match[2] ?? match[3] ?? '');
}

/** What in `file` reaches outside the kernel: relative paths that leave it, and names of the forbidden folders. */
export function escapes(file: string, text: string): string[] {
  return literals(text).filter((value) => {
    // A path assembled from pieces (`path.join(dir, '..', 'plugins')`) shows as a piece naming the folder.
    if (OUTSIDE.some((name) => new RegExp(`(^|[/\\\\])${name}([/\\\\]|$)`).test(value))) return true;
    if (!/^\.\.?\//.test(value)) return false;
    const target = path.resolve(path.dirname(file), value.split(/[?#]/)[0]!);
    return target !== KERNEL && !target.startsWith(KERNEL + path.sep);
  });
}

describe('the kernel import rule', () => {
  it('finds static, dynamic and computed imports that leave the kernel', () => {
    const file = path.join(KERNEL, 'server.ts');
    const samples: Array<[string, number]> = [
      ["import { x } from '../plugins/runs/index.js';", 1],
      ["export * from '../providers/index.js';", 1],
      ["const m = await import('../app/built-ins.js');", 1],
      ["const u = new URL('../providers/index.js', import.meta.url).href;", 1],
      ["const p = path.join(here, '..', 'plugins');", 1],
      ['const m = await import(`../${"plugins"}/runs/index.js`);', 1],
      ["const m = await import('../../outside.js');", 1],
      ["const name = 'providers/storage/json/index.js';", 1],
      ["import { Errors } from './errors.js'; // see ../plugins/runs", 0],
      ["import type { Logger } from './contracts/logger.js'; const s = 'the runs plugin';", 0],
    ];
    for (const [text, count] of samples) assert.equal(escapes(file, text).length, count, text);
  });

  it('holds for every kernel source', () => {
    const files = sources(KERNEL);
    assert.ok(files.length > 20, 'the kernel sources were found');
    const broken = files.flatMap((file) => escapes(file, fs.readFileSync(file, 'utf8')).map((value) => `${path.relative('.', file)}: ${value}`));
    assert.deepEqual(broken, [], `the kernel reaches outside itself:\n${broken.join('\n')}`);
  });
});
