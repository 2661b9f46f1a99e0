// `taskloom serve --role`: sets ROLE for the service; an API-only instance needs a shared queue to hand its runs to.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { makeTempDir } from '../support/service.js';
import { spawnTaskloom } from './cli-process.js';

async function exitOf(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawnTaskloom(args, { LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', ...env });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const [code] = await once(child, 'exit');
  return { code: code as number | null, stderr };
}

describe('taskloom serve --role', () => {
  const dirs: string[] = [];
  after(async () => { await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))); });

  it('--role api with the in-process queue stops at start with what to set', async () => {
    const dir = await makeTempDir();
    dirs.push(dir);
    const { code, stderr } = await exitOf(['serve', '--role', 'api', '--data-dir', dir], {});
    assert.equal(code, 1);
    assert.match(stderr, /ROLE=api needs a shared queue \(QUEUE=pg-boss or QUEUE=bullmq\): with QUEUE=memory no other instance could run its runs/);
  });

  it('--role overrides ROLE, and a bad one is refused in one line', async () => {
    const { code, stderr } = await exitOf(['serve', '--role', 'browser'], { ROLE: 'all' });
    assert.equal(code, 1);
    assert.equal(stderr.trim(), 'Invalid configuration: ROLE is "browser"; expected one of api, worker, all');
  });
});
