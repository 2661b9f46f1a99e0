// What a build reads, by content: the files under a target's folders, the files they import from outside
// them (the dashboard imports kernel records), and named single files. Content, not mtimes, so `git checkout`,
// `git pull`, an edit, a deleted or an added file all count, and a mere `touch` does not.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const SKIPPED_DIRS = new Set(['node_modules', 'dist']);
/** Relative imports and re-exports, static or dynamic: `from './x.js'`, `import './x.js'`, `import('./x.js')`. */
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"\n]+)['"]/g;
const SOURCE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

function walk(root, dir, out) {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) walk(root, rel, out);
    } else if (entry.isFile() && !entry.name.endsWith('.md')) {
      out.add(rel);
    }
  }
}

/** The file an import specifier names: TypeScript sources are imported by their emitted `.js` name. */
function resolveImport(root, fromFile, specifier) {
  const base = path.resolve(root, path.dirname(fromFile), specifier);
  const stem = base.replace(/\.[cm]?js$/, '');
  const candidates = [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, base, `${base}/index.ts`, `${base}/index.tsx`];
  const found = candidates.find((file) => existsSync(file) && statSync(file).isFile());
  if (!found) return undefined;
  const rel = path.relative(root, found).split(path.sep).join('/');
  return rel.startsWith('..') || rel.split('/').includes('node_modules') ? undefined : rel;
}

/**
 * Every input of a build, as `{ relativePath: sha1 }`: all files under `dirs` (but *.md, dotfiles,
 * node_modules and dist), the project files they import from elsewhere, transitively, and `files`.
 */
export function collectInputs(root, { dirs = [], files = [] }) {
  const found = new Set(files.filter((file) => existsSync(path.join(root, file))));
  for (const dir of dirs) if (existsSync(path.join(root, dir))) walk(root, dir, found);
  const queue = [...found];
  while (queue.length > 0) {
    const file = queue.pop();
    if (!SOURCE.test(file)) continue;
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      const target = resolveImport(root, file, match[1]);
      if (target && !found.has(target)) {
        found.add(target);
        queue.push(target);
      }
    }
  }
  const hashes = {};
  for (const file of [...found].sort()) {
    hashes[file] = createHash('sha1').update(readFileSync(path.join(root, file))).digest('hex');
  }
  return hashes;
}

/** Paths added, removed or changed between two `collectInputs` results. */
export function changedInputs(before, now) {
  const changed = Object.keys(now).filter((file) => before[file] !== now[file]);
  const removed = Object.keys(before).filter((file) => !(file in now));
  return [...changed, ...removed].sort();
}
