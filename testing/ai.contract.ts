// The bar every AI provider meets. A provider's test (ours or a third party's) calls
// `aiContract('my-product', factory)` with a factory that builds the provider, as the kernel does, around a
// fresh stand-in of its wire protocol; taskloom's test/providers/ai/*.test.ts are the worked examples.
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { inspect } from 'node:util';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { AiCallFailure, AiFailureKind, AiProvider, CompletionRequest } from '../kernel/contracts/ai.js';
import { Errors } from '../kernel/errors.js';

/**
 * How the product's stand-in answers one request: a proper answer with this text; an HTTP error status in the
 * protocol's error shape (the 401 quoting the key, as some products do); `garbage`: a 200 whose body is not JSON
 * (and echoes the credential); `malformed`: valid JSON of the wrong shape; `empty`: the right shape with no text;
 * `hang`: never answers; `drop`: closes the connection without an answer.
 */
export type ChatBehaviour =
  | { text: string }
  | 400 | 401 | 403 | 404 | 429 | 500 | 503
  | 'garbage' | 'malformed' | 'empty' | 'hang' | 'drop';

/** One request as the stand-in received it. */
export interface RecordedChat {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The key as the protocol carries it (the Bearer token, `x-api-key`); undefined when none was sent. */
  key: string | undefined;
  model: unknown;
  body: Record<string, any>;
}

/** A provider talking to a fresh stand-in. */
export interface AiFixture {
  provider: AiProvider;
  /** A request the stand-in answers, carrying `key`; `overrides` replace its fields. */
  request(overrides?: Partial<CompletionRequest>): CompletionRequest;
  /** The same request aimed at an address where nothing listens. */
  unreachable(): CompletionRequest;
  /** The secret the request carries, which no error may show. */
  key: string;
  standIn: {
    requests: RecordedChat[];
    /** The next requests take these behaviours, one each. */
    answer(...behaviours: ChatBehaviour[]): void;
    reset(): void;
  };
  close(): Promise<void>;
}

export type AiFixtureFactory = () => Promise<AiFixture>;

/** Resolves to what `promise` rejects with, after checking it is an AiCallFailure that does not show `key`. */
export async function aiFailureOf(promise: Promise<unknown>, key: string): Promise<AiCallFailure> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(Errors.UPSTREAM_ERROR.is(error), `expected UPSTREAM_ERROR, got ${inspect(error)}`);
  const failure = error as unknown as AiCallFailure;
  assert.equal(typeof failure.retryable, 'boolean');
  assert.equal(typeof failure.kind, 'string');
  assert.ok(!inspect(error, { depth: 8 }).includes(key), `the error shows the key: ${failure.message}`);
  assert.ok(!JSON.stringify(error).includes(key), 'the serialised error shows the key');
  return failure;
}

/**
 * Resolves once the stand-in has recorded `count` requests (or after 2 s). A test that ends with a request in
 * flight waits for it, so a late arrival cannot take the behaviour queued for the next test.
 */
export async function arrived(standIn: AiFixture['standIn'], count: number): Promise<void> {
  for (const until = Date.now() + 2000; standIn.requests.length < count && Date.now() < until;) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const FAILOVER: { status: 401 | 403 | 429 | 500 | 503; kind: AiFailureKind }[] = [
  { status: 401, kind: 'auth' },
  { status: 403, kind: 'auth' },
  { status: 429, kind: 'rate-limit' },
  { status: 500, kind: 'server' },
  { status: 503, kind: 'server' },
];

export function aiContract(name: string, factory: AiFixtureFactory): void {
  describe(`ai contract: ${name}`, () => {
    let f: AiFixture;
    before(async () => { f = await factory(); });
    after(async () => { await f.close(); });
    beforeEach(() => f.standIn.reset());

    it('answers the completion text, trimmed, having sent the model, system prompt and user content', async () => {
      f.standIn.answer({ text: '  return document.title;\n' });
      const request = f.request({ system: 'SYSTEM-PROMPT-7', user: 'USER-CONTENT-9' });
      assert.equal(await f.provider.complete(request), 'return document.title;');
      assert.equal(f.standIn.requests.length, 1);
      const [sent] = f.standIn.requests;
      assert.equal(sent!.model, request.model);
      const body = JSON.stringify(sent!.body);
      assert.ok(body.includes('SYSTEM-PROMPT-7') && body.includes('USER-CONTENT-9'), body);
    });

    for (const { status, kind } of FAILOVER) {
      it(`reports ${status} as a retryable ${kind} failure, after one request`, async () => {
        f.standIn.answer(status);
        const failure = await aiFailureOf(f.provider.complete(f.request()), f.key);
        assert.deepEqual([failure.retryable, failure.kind, failure.status, failure.provider], [true, kind, status, f.provider.id]);
        assert.match(failure.message, new RegExp(String(status)));
        assert.equal(f.standIn.requests.length, 1, 'the client must not retry on its own: the chain fails over');
      });
    }

    for (const status of [400, 404] as const) {
      it(`reports ${status} as a request failure that is not retryable`, async () => {
        f.standIn.answer(status);
        const failure = await aiFailureOf(f.provider.complete(f.request()), f.key);
        assert.deepEqual([failure.retryable, failure.kind, failure.status], [false, 'request', status]);
      });
    }

    it('gives up after timeoutMs with a retryable timeout failure', async () => {
      f.standIn.answer('hang');
      const started = Date.now();
      const failure = await aiFailureOf(f.provider.complete(f.request({ timeoutMs: 300 })), f.key);
      assert.deepEqual([failure.retryable, failure.kind], [true, 'timeout']);
      assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
      await arrived(f.standIn, 1);
    });

    it('stops when the caller aborts, as a cancelled failure that is not retryable', async () => {
      f.standIn.answer('hang');
      const controller = new AbortController();
      const pending = f.provider.complete(f.request({ signal: controller.signal }));
      await arrived(f.standIn, 1);
      controller.abort();
      const failure = await aiFailureOf(pending, f.key);
      assert.deepEqual([failure.retryable, failure.kind], [false, 'cancelled']);
    });

    it('reports a dropped connection and an address where nothing listens as retryable network failures', async () => {
      f.standIn.answer('drop');
      const dropped = await aiFailureOf(f.provider.complete(f.request()), f.key);
      assert.deepEqual([dropped.retryable, dropped.kind], [true, 'network']);
      const refused = await aiFailureOf(f.provider.complete(f.unreachable()), f.key);
      assert.deepEqual([refused.retryable, refused.kind], [true, 'network']);
    });

    for (const behaviour of ['garbage', 'malformed', 'empty'] as const) {
      it(`reports a ${behaviour} 200 answer as a retryable malformed failure`, async () => {
        f.standIn.answer(behaviour);
        const failure = await aiFailureOf(f.provider.complete(f.request()), f.key);
        assert.deepEqual([failure.retryable, failure.kind], [true, 'malformed']);
      });
    }

    it('keeps the key out of the message even when the product quotes it back', async () => {
      f.standIn.answer(401);
      const failure = await aiFailureOf(f.provider.complete(f.request()), f.key);
      assert.match(failure.message, /\[redacted\]|key/i);
    });
  });
}
