import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromiumOrSkip } from '../../../testing/browser.contract.js';
import { liveGroupMembers, waitFor } from '../../../testing/browser/chromium-processes.js';

const found = chromiumOrSkip();
const HOLDER = fileURLToPath(new URL('./fixtures/hold-browser.ts', import.meta.url));

describe('a service killed outright', { skip: found.skip }, () => {
  it('leaves no Chromium behind, even after SIGKILL', async () => {
    const holder = spawn(process.execPath, ['--import', 'tsx', HOLDER], { stdio: ['ignore', 'pipe', 'inherit'] });
    let line = '';
    holder.stdout!.setEncoding('utf8');
    holder.stdout!.on('data', (chunk: string) => { line += chunk; });
    await waitFor(() => line.includes('\n') || holder.exitCode !== null, 30_000, 'the holder to launch its browser');
    const { status, pid } = JSON.parse(line) as { status: string; pid: number };
    assert.equal(status, 'ok');
    assert.ok(liveGroupMembers(pid).length > 0, 'the browser runs');
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    await waitFor(() => liveGroupMembers(pid).length === 0, 5000, 'Chromium to quit once its service is gone');
  });
});
