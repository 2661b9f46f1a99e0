// The kernel stays small (issue 16: under 2,500 lines, contracts included): counted as lines of code, that is
// without blank lines and comment lines (the contracts are mostly documentation, which is not held against them).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';

const LIMIT = 2_500;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : name.endsWith('.ts') ? [full] : [];
  });
}

/** Lines that are neither blank nor part of a comment (`//` lines and `/* ... *\/` blocks). */
function codeLines(text: string): number {
  let inBlock = false;
  let count = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (inBlock) {
      if (line.includes('*/')) inBlock = false;
      continue;
    }
    if (line === '' || line.startsWith('//')) continue;
    if (line.startsWith('/*')) {
      inBlock = !line.includes('*/');
      continue;
    }
    count++;
  }
  return count;
}

it(`the kernel holds fewer than ${LIMIT} lines of code`, () => {
  const files = sources('kernel');
  const texts = files.map((file) => readFileSync(file, 'utf8'));
  const code = texts.reduce((sum, text) => sum + codeLines(text), 0);
  const physical = texts.reduce((sum, text) => sum + text.split('\n').length - (text.endsWith('\n') ? 1 : 0), 0);
  console.log(`# kernel: ${files.length} files, ${code} lines of code, ${physical} lines with comments and blank lines`);
  assert.ok(code < LIMIT, `kernel/ has ${code} lines of code`);
});
