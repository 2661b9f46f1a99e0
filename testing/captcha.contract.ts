// The bar every captcha provider meets. A provider's test calls `captchaContract('my-service', factory)` with a
// factory that builds a fresh solver around its own stand-in of the solving service; taskloom's
// test/providers/captcha/task-api.test.ts is the worked example.
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { after, afterEach, describe, it } from 'node:test';
import type { CaptchaResult, CaptchaSolver, CaptchaTask } from '../kernel/contracts/captcha.js';
import { Errors } from '../kernel/errors.js';

export interface CaptchaFixture {
  solver: CaptchaSolver;
  /** The account key the stand-in takes: no error may carry it. */
  key: string;
  /** The same provider with a key the stand-in refuses. */
  wrongKey(): Promise<CaptchaSolver>;
  /** The same provider, its outbound rule refusing private addresses (the stand-in's included). */
  privateRefused(): Promise<CaptchaSolver>;
  /** The token the stand-in solves every task with from now on. */
  solveWith(token: string): void;
  /** The tasks the stand-in received, as the service names them. */
  tasks(): Array<{ websiteURL: string; websiteKey: string }>;
  close(): Promise<void>;
}

/** Polls until the task is ready or failed (the stand-in answers within a few polls). */
export async function solveOnce(solver: CaptchaSolver, task: CaptchaTask, polls = 20): Promise<CaptchaResult> {
  const id = await solver.createTask(task);
  for (let i = 0; i < polls; i++) {
    const result = await solver.getResult(id);
    if (result.status !== 'processing') return result;
  }
  return { status: 'processing' };
}

async function upstream(promise: Promise<unknown>, key: string): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(Errors.UPSTREAM_ERROR.is(error), `expected UPSTREAM_ERROR, got ${inspect(error)}`);
  assert.ok(!inspect(error, { depth: 8 }).includes(key), `the error carries the key: ${error.message}`);
  return error.message;
}

export function captchaContract(name: string, factory: () => Promise<CaptchaFixture>): void {
  describe(`captcha contract: ${name}`, () => {
    let fixture: CaptchaFixture | undefined;
    const open = async () => (fixture = await factory());
    afterEach(async () => { await fixture?.close(); fixture = undefined; });
    after(async () => { await fixture?.close(); });

    it('solves each widget kind: a task id, processing, then ready with the token', async () => {
      const { solver } = await open();
      for (const kind of ['recaptcha', 'hcaptcha', 'turnstile'] as const) {
        fixture!.solveWith(`token-for-${kind}`);
        const id = await solver.createTask({ kind, siteKey: `key-${kind}`, pageUrl: 'https://shop.example/login' });
        assert.equal(typeof id, 'string');
        const states: string[] = [];
        let result: CaptchaResult = { status: 'processing' };
        for (let i = 0; i < 20 && result.status === 'processing'; i++) {
          result = await solver.getResult(id);
          states.push(result.status);
        }
        assert.deepEqual(result, { status: 'ready', token: `token-for-${kind}` });
        assert.ok(states.length >= 1, kind);
      }
      assert.deepEqual(fixture!.tasks().map((t) => [t.websiteURL, t.websiteKey]), [
        ['https://shop.example/login', 'key-recaptcha'], ['https://shop.example/login', 'key-hcaptcha'], ['https://shop.example/login', 'key-turnstile'],
      ]);
    });

    it('a key the service refuses rejects with UPSTREAM_ERROR that never shows the key', async () => {
      await open();
      const refused = await fixture!.wrongKey();
      const message = await upstream(refused.createTask({ kind: 'recaptcha', siteKey: 'k', pageUrl: 'https://shop.example/' }), 'wrong-key-PLANTED');
      assert.match(message, /refused/);
    });

    it('an unknown task id rejects with UPSTREAM_ERROR or answers failed', async () => {
      const { solver, key } = await open();
      const outcome = await solver.getResult('999999').then((result) => result, (error: unknown) => error);
      if (outcome && typeof outcome === 'object' && 'status' in outcome) assert.equal((outcome as CaptchaResult).status, 'failed');
      else await upstream(Promise.reject(outcome), key);
    });

    it('a service address the outbound rule refuses is never called', async () => {
      await open();
      const attempt = fixture!.privateRefused().then((solver) => solver.createTask({ kind: 'recaptcha', siteKey: 'k', pageUrl: 'https://shop.example/' }));
      await assert.rejects(attempt, (error: Error) => /refused|private|loopback|not allowed/i.test(error.message));
      assert.equal(fixture!.tasks().length, 0);
    });
  });
}
