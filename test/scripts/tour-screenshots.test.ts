// The README tour's screenshots are taken by scripts/tour-screenshots.ts: run it (into a temporary folder, the
// committed docs/tour stays as it is) and check every screen in every theme is a real, non-trivial image.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { SCREENS, THEMES, takeTourScreenshots } from '../../scripts/tour-screenshots.js';
import { dashboardSkipReason } from '../support/dashboard.js';

const skip = dashboardSkipReason();
if (skip) console.log(`# skipped the tour screenshots: ${skip}`);

/** Width, height and how many distinct pixel rows a PNG has (a blank or single-colour image has one). */
async function pngFacts(file: string): Promise<{ width: number; height: number; bytes: number; distinctRows: number }> {
  const png = await readFile(file);
  assert.equal(png.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', `${file} is a PNG`);
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = raw.length / height;
  const rows = new Set<string>();
  for (let y = 0; y < height; y++) rows.add(raw.subarray(y * stride + 1, (y + 1) * stride).toString('base64'));
  return { width, height, bytes: png.length, distinctRows: rows.size };
}

describe('tour screenshots', { skip }, () => {
  it('takes the overview, executions, run detail, editor, live view and recorder in the light and the dark theme', { timeout: 360_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'taskloom-tour-'));
    try {
      const files = await takeTourScreenshots(dir);
      const expected = THEMES.flatMap((theme) => SCREENS.map((screen) => path.join(dir, `${screen}-${theme}.png`)));
      assert.deepEqual(files.sort(), expected.sort());
      for (const file of files) {
        const facts = await pngFacts(file);
        assert.deepEqual([facts.width, facts.height], [1200, 760], file);
        assert.ok(facts.bytes > 20_000 && facts.bytes < 150 * 1024, `${file}: ${facts.bytes} bytes (more than 20 KB of content, under 150 KB)`);
        assert.ok(facts.distinctRows > 100, `${file} shows a screen, not a blank page (${facts.distinctRows} distinct rows)`);
      }
      // The two themes differ: a dark file is not the light one again.
      for (const screen of SCREENS) {
        const a = await readFile(path.join(dir, `${screen}-light.png`));
        const b = await readFile(path.join(dir, `${screen}-dark.png`));
        assert.notDeepEqual(a, b, screen);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
