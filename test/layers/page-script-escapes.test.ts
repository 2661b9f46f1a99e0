// Page scripts are JavaScript kept in template literals. In a plain (cooked) one, `\d`, `\s`, `\p`, `\b` or `\.`
// lose their backslash and the page still runs the script, wrongly (issue 19: healing's MATCH_BODY split words on
// `[^p{L}p{N}]` and kept generated ids). So no template literal of the service's code may hold an escape that
// cooking drops or changes: such code is a `String.raw` template, or doubles its backslashes (`\\s`).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const ROOTS = ['kernel', 'layers', 'plugins', 'providers', 'app'];
/** Escapes that mean the same in a cooked template as the author meant in source text (a newline, a quote...). */
const KEPT = new Set(['n', 'r', 't', 'u', 'x', '0', '\\', '`', '$', '\'', '"', '\n']);

function sources(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(full);
    return /\.(?:[cm]?[jt]s|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** `file:line: \d \s` for each cooked template literal of the file that holds an escape cooking drops. */
function droppedEscapes(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const rawTagged = (node: ts.Node) => ts.isTaggedTemplateExpression(node.parent) && node.parent.tag.getText() === 'String.raw';
  const visit = (node: ts.Node): void => {
    if ((ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) && !rawTagged(node)) {
      const pieces = ts.isTemplateExpression(node) ? [node.head, ...node.templateSpans.map((s) => s.literal)] : [node];
      const bad = pieces.flatMap((piece) => [...(piece.rawText ?? '').matchAll(/\\([\s\S])/g)].map((m) => m[1]!).filter((c) => !KEPT.has(c)));
      if (bad.length) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${[...new Set(bad)].map((c) => `\\${c}`).join(' ')}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('page scripts keep their backslashes', () => {
  it('no cooked template literal of the service holds an escape that cooking drops', () => {
    const files = ROOTS.flatMap(sources);
    assert.ok(files.length > 100, `the sources are found (${files.length})`);
    assert.deepEqual(files.flatMap(droppedEscapes), []);
  });

  it('finds one (the check is not blind)', () => {
    const probe = path.join(fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'escapes-')), 'probe.ts');
    fs.writeFileSync(probe, 'export const A = `x.split(/\\s+/)`;\nexport const B = String.raw`/\\d{4,}/`;\nexport const C = `a\\\\s ${1}\\n`;\n');
    assert.deepEqual(droppedEscapes(probe), [`${probe}:1: \\s`]);
    fs.rmSync(path.dirname(probe), { recursive: true });
  });
});
