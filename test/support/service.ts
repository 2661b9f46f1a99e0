import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../kernel/config.js';
import { createService, type Service } from '../../app/service.js';
import type { CreateServiceOptions } from '../../kernel/server.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body sent as is (with whatever content-type `headers` gives). */
  raw?: string;
  headers?: Record<string, string>;
  cookie?: string;
  apiKey?: string;
}

export interface TestService {
  baseUrl: string;
  dataDir: string;
  service: Service;
  request<T = any>(method: string, url: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export async function makeTempDir(prefix = 'taskloom-test-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

/** Starts the real service (built-in modules) on a free port of 127.0.0.1 with a fresh DATA_DIR. */
export async function startService(
  env: Record<string, string> = {},
  dataDir?: string,
  options: Partial<CreateServiceOptions> = {},
): Promise<TestService> {
  const dir = dataDir ?? (await makeTempDir());
  const config = loadConfig({ LOG_LEVEL: 'silent', ...env, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1' });
  const service = await createService(config, options);
  const address = await service.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = address.replace('localhost', '127.0.0.1');
  return {
    baseUrl,
    dataDir: dir,
    service,
    request: (method, url, options) => request(baseUrl, method, url, options),
    async close() {
      await service.close();
      if (!dataDir) await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

export async function request<T = any>(baseUrl: string, method: string, url: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.cookie) headers.cookie = options.cookie;
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  const response = await fetch(baseUrl + url, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown = text;
  if (response.headers.get('content-type')?.includes('application/json') && text !== '') parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export const ADMIN = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse battery' };

/** Runs first-time setup; resolves to the session cookie and a freshly generated API key. */
export async function setupAdmin(svc: TestService): Promise<{ cookie: string; apiKey: string }> {
  const setup = await svc.request('POST', '/api/auth/setup', { body: ADMIN });
  if (setup.status !== 200) throw new Error(`setup failed: ${setup.status} ${setup.text}`);
  const cookie = sessionCookie(setup.headers);
  const key = await svc.request('POST', '/api/settings/api-key', { cookie });
  if (key.status !== 200) throw new Error(`api key failed: ${key.status} ${key.text}`);
  return { cookie, apiKey: key.body.apiKey };
}

/** The `name=value` part of the session cookie a response set. */
export function sessionCookie(headers: Headers): string {
  const setCookie = headers.getSetCookie().find((c) => c.startsWith('taskloom_session='));
  if (!setCookie) throw new Error('no session cookie was set');
  return setCookie.split(';')[0]!;
}
