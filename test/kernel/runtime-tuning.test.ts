import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';

/** Young-generation size of a fresh node process after allocating short-lived garbage, with or without the tuning. */
function newSpaceMb(tune: boolean, nodeOptions = ''): number {
  const script = `
    import v8 from 'node:v8';
    import { tuneRuntime } from './kernel/runtime-tuning.ts';
    if (${tune}) tuneRuntime(process.execArgv, process.env.NODE_OPTIONS);
    let keep = [];
    for (let i = 0; i < 400000; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 20000) keep = []; }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    console.log(space.space_size / 1048576);
  `;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: nodeOptions },
  });
  assert.equal(result.status, 0, result.stderr);
  return Number(result.stdout.trim());
}

describe('runtime tuning', () => {
  it('keeps the young generation at its starting size under allocation', () => {
    const untuned = newSpaceMb(false);
    const tuned = newSpaceMb(true);
    assert.ok(tuned <= 4, `tuned young generation ${tuned} MB`);
    assert.ok(untuned > tuned, `untuned ${untuned} MB should have grown past ${tuned} MB`);
  });

  it("leaves an operator's own --max-semi-space-size alone", () => {
    assert.ok(newSpaceMb(true, '--max-semi-space-size=8') > 4);
  });
});
