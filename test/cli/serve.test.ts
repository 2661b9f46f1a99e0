// `taskloom` without a command and `taskloom serve` start the real service in the CLI's process; SIGTERM stops it.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { access, rm } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { makeTempDir } from '../support/service.js';
import { spawnTaskloom } from './cli-process.js';

/** Starts it, waits for pino's listen line, asks for health, then stops it; resolves to the exit code. */
async function serveAndStop(args: string[], env: Record<string, string>): Promise<{ health: number; code: number | null }> {
  const child = spawnTaskloom(args, { LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listen line within 30 s; stderr: ${stderr}`)), 30_000);
      child.stdout!.on('data', () => {
        const match = stdout.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      void exited.then((code) => { clearTimeout(timer); reject(new Error(`exited with ${code}: ${stderr}`)); });
    });
    const health = (await fetch(`${baseUrl}/api/health`)).status;
    child.kill('SIGTERM');
    return { health, code: await exited };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

describe('taskloom serve', () => {
  const dirs: string[] = [];
  after(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('without a command starts the service from the environment, and stops cleanly on SIGTERM', async () => {
    const dataDir = await makeTempDir();
    dirs.push(dataDir);
    assert.deepEqual(await serveAndStop([], { PORT: '0', DATA_DIR: dataDir }), { health: 200, code: 0 });
  });

  it('serve --port --data-dir override the environment', async () => {
    const parent = await makeTempDir();
    dirs.push(parent);
    const dataDir = `${parent}/given`;
    assert.deepEqual(await serveAndStop(['serve', '--port', '0', '--data-dir', dataDir], { PORT: '1', DATA_DIR: '/nonexistent/x' }), { health: 200, code: 0 });
    await access(dataDir);
  });
});
