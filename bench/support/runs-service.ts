import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ADMIN, request, sessionCookie, type ApiResponse } from '../../test/support/service.js';
import { benchTask, EXPECTED_DATA } from './runs-task.js';

/**
 * Compiles the service as `npm start` runs it (tsconfig.build.json), into `.tmp/bench-dist` so the real `dist/`
 * is left alone, and resolves to the entry point. The service's memory is measured on this build: the `tsx`
 * loader of `npm run dev` adds some 60 MB of its own. Type errors elsewhere do not stop the emit.
 */
export function buildService(): string {
  const outDir = path.resolve('.tmp/bench-dist');
  fs.rmSync(outDir, { recursive: true, force: true });
  const tsc = path.resolve('node_modules/typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', outDir], { encoding: 'utf8' });
  const main = path.join(outDir, 'app/main.js');
  if (!fs.existsSync(main)) throw new Error(`building the service failed:\n${result.stdout}${result.stderr}`);
  return main;
}

/** First-time setup of a fresh service at `baseUrl`, an API key, and the bench task against `origin`. */
export async function prepareService(baseUrl: string, origin: string): Promise<{ apiKey: string; taskId: string }> {
  const setup = await request(baseUrl, 'POST', '/api/auth/setup', { body: ADMIN });
  if (setup.status !== 200) throw new Error(`setup failed: ${setup.status} ${setup.text}`);
  const apiKey = (await request(baseUrl, 'POST', '/api/settings/api-key', { cookie: sessionCookie(setup.headers) })).body.apiKey as string;
  const task = await request(baseUrl, 'POST', '/api/tasks', { apiKey, body: benchTask(origin) });
  if (task.status !== 200) throw new Error(`creating the task failed: ${task.status} ${task.text}`);
  return { apiKey, taskId: task.body.id as string };
}

export interface TaskRun {
  /** Wall time of the call (ms). */
  ms: number;
  /** It answered 200 with status `success` and the expected data. */
  ok: boolean;
  res: ApiResponse;
}

/** One run of the bench task through `POST /api/tasks/{id}/api`, waiting for its answer. */
export async function runTask(baseUrl: string, apiKey: string, taskId: string): Promise<TaskRun> {
  const started = performance.now();
  const res = await request(baseUrl, 'POST', `/api/tasks/${taskId}/api`, { apiKey });
  const ms = performance.now() - started;
  const ok = res.status === 200 && res.body.status === 'success' && JSON.stringify(res.body.result.data) === JSON.stringify(EXPECTED_DATA);
  return { ms, ok, res };
}
