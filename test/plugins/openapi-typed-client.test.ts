import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import { makeTempDir, startService, type TestService } from '../support/service.js';

const run = promisify(execFile);
const TSC = path.resolve('node_modules/typescript/bin/tsc');

/** A typed `request` over the generated `paths`, as a client library would build it; declared, never run. */
const CLIENT = `import type { components, paths } from './api';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Op<P extends keyof paths, M extends Method> = paths[P][M];
type Body<P extends keyof paths, M extends Method> =
  Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Ok<P extends keyof paths, M extends Method> =
  Op<P, M> extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : never;
export type ErrorOf<P extends keyof paths, M extends Method, S extends number> =
  Op<P, M> extends { responses: { [K in S]: { content: { 'application/json': infer E } } } } ? E : never;

export declare function request<P extends keyof paths, M extends Method>(
  method: M, path: P, init: { params?: Record<string, string>; body?: Body<P, M> },
): Promise<Ok<P, M>>;
export type Schemas = components['schemas'];
`;

const GOOD = `import { request, type ErrorOf, type Schemas } from './client';

export async function main(): Promise<string[]> {
  const task: Schemas['Task'] = await request('post', '/api/tasks', {
    body: { name: 'Example', url: 'https://example.com', mode: 'scrape', actions: [{ type: 'navigate', value: 'https://example.com' }] },
  });
  const list = await request('get', '/api/tasks', {});
  const names: string[] = list.map((entry) => entry.name);
  const answer = await request('post', '/api/tasks/{id}/api', { params: { id: task.id }, body: { variables: { who: 'Ada' } } });
  const data: unknown = answer.result.data;
  const failedAt: number | undefined = answer.result.error?.actionIndex;
  const execution: Schemas['Execution'] = await request('get', '/api/executions/{id}', { params: { id: answer.executionId } });
  const lines = execution.logs.map((line) => \`\${line.level}: \${line.message}\`);
  const notFound = {} as ErrorOf<'/api/tasks/{id}', 'get', 404>;
  const code: 'TASK_NOT_FOUND' = notFound.error;
  const body: Schemas['Error'] = notFound;
  return [...names, answer.status, String(data), String(failedAt), ...lines, code, body.details ?? '', body.requestId ?? ''];
}
`;

/** Three mistakes the generated types must catch, one per line marked BAD. */
const BAD = `import { request, type ErrorOf } from './client';

export async function main(): Promise<void> {
  await request('post', '/api/tasks', { body: { name: 'No url, mode or actions' } }); // BAD
  const answer = await request('post', '/api/tasks/{id}/api', { params: { id: 'x' }, body: {} });
  const status: number = answer.status; // BAD
  const code: ErrorOf<'/api/tasks/{id}', 'get', 404>['error'] = 'EXECUTION_NOT_FOUND'; // BAD
  void status; void code;
}
`;

async function typecheck(dir: string, program: string): Promise<{ ok: boolean; output: string }> {
  const config = {
    compilerOptions: {
      strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022'], types: [],
    },
    files: ['api.ts', 'client.ts', program],
  };
  const project = path.join(dir, `tsconfig.${program}.json`);
  await fs.writeFile(project, JSON.stringify(config));
  try {
    const { stdout } = await run(process.execPath, [TSC, '-p', project], { timeout: 300_000 });
    return { ok: true, output: stdout };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('a typed client generated from the OpenAPI document (openapi-typescript)', () => {
  let svc: TestService;
  let dir: string;
  before(async () => {
    svc = await startService();
    dir = await makeTempDir('taskloom-openapi-client-');
    const doc = await svc.request('GET', '/api/openapi.json');
    assert.equal(doc.status, 200);
    await fs.writeFile(path.join(dir, 'api.ts'), astToString(await openapiTS(doc.body)));
    await fs.writeFile(path.join(dir, 'client.ts'), CLIENT);
    await fs.writeFile(path.join(dir, 'good.ts'), GOOD);
    await fs.writeFile(path.join(dir, 'bad.ts'), BAD);
  });
  after(async () => {
    await svc.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('type-checks a program that creates, lists and runs a task, reads an execution and an error body', async () => {
    const { ok, output } = await typecheck(dir, 'good.ts');
    assert.ok(ok, output);
  });

  it('refuses a program with a missing field, a wrong answer type and a code the operation cannot answer', async () => {
    const { ok, output } = await typecheck(dir, 'bad.ts');
    assert.equal(ok, false);
    const badLines = BAD.split('\n').flatMap((line, index) => (line.includes('// BAD') ? [index + 1] : []));
    const errorLines = [...output.matchAll(/bad\.ts\((\d+),\d+\): error TS/g)].map((m) => Number(m[1]));
    assert.deepEqual([...new Set(errorLines)].sort((a, b) => a - b), badLines, output);
  });
});
