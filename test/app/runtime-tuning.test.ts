import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';

/**
 * Young-generation size of a fresh node process after allocating short-lived garbage. `prelude` is the code that
 * may tune the runtime first: nothing, the tuning function itself, or the entry point's import of runtime-tuned.
 */
function newSpaceMb(prelude: string, env: Record<string, string> = {}): number {
  const script = `
    ${prelude}
    import v8 from 'node:v8';
    let keep = [];
    for (let i = 0; i < 400000; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 20000) keep = []; }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    console.log(space.space_size / 1048576);
  `;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', LOW_MEMORY: '', ...env },
  });
  assert.equal(result.status, 0, result.stderr);
  return Number(result.stdout.trim());
}

const TUNE = `import { tuneRuntime } from './app/runtime-tuning.ts'; tuneRuntime(process.execArgv, process.env.NODE_OPTIONS);`;
const ENTRY = `import './app/runtime-tuned.ts';`;

describe('runtime tuning', () => {
  it('keeps the young generation at its starting size under allocation', () => {
    const untuned = newSpaceMb('');
    const tuned = newSpaceMb(TUNE);
    assert.ok(tuned <= 4, `tuned young generation ${tuned} MB`);
    assert.ok(untuned > tuned, `untuned ${untuned} MB should have grown past ${tuned} MB`);
  });

  it("leaves an operator's own --max-semi-space-size alone", () => {
    assert.ok(newSpaceMb(TUNE, { NODE_OPTIONS: '--max-semi-space-size=8' }) > 4);
  });

  it("the entry point leaves V8's defaults on unless LOW_MEMORY=true", () => {
    const byDefault = newSpaceMb(ENTRY);
    const lowMemory = newSpaceMb(ENTRY, { LOW_MEMORY: 'true' });
    assert.ok(byDefault > 4, `default young generation ${byDefault} MB should grow as V8 chooses`);
    assert.ok(lowMemory <= 4, `LOW_MEMORY young generation ${lowMemory} MB`);
  });
});
