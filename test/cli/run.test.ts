// `taskloom run` and `taskloom executions list` as real processes against a real service running real Chromium
// on the local fixture pages: the live progress on stderr, the result JSON on stdout, and the exit codes.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { runTaskloom } from './cli-process.js';
import { startInterceptingProxy } from './intercepting-proxy.js';

const chromium = chromiumOrSkip();

describe('taskloom run and executions list', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  let env: Record<string, string>;
  let greetId: string;
  let failingId: string;

  const createTask = async (task: Record<string, unknown>): Promise<string> => {
    const res = await svc.request('POST', '/api/tasks', { apiKey, body: { mode: 'agent', ...task } });
    assert.equal(res.status, 200, res.text);
    return res.body.id;
  };

  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
    env = { TASKLOOM_URL: svc.baseUrl, TASKLOOM_API_KEY: apiKey };
    greetId = await createTask({
      name: 'Greet someone',
      url: `${pages.origin}/`,
      variables: { who: 'Ada' },
      actions: [
        { type: 'click', selector: '#increment' },
        { type: 'type', selector: '#name', value: '{$who}' },
        { type: 'click', selector: '#greet' },
      ],
      extractionScript: 'return { count: document.querySelector("#count").textContent, name: document.querySelector("#name").value }',
    });
    failingId = await createTask({
      name: 'Click what is not there',
      url: `${pages.origin}/`,
      actions: [{ type: 'click', selector: '#increment' }, { type: 'click', selector: '#not-on-the-page', timeoutMs: 500 }],
    });
  });
  after(async () => {
    await svc?.close();
    await pages?.close();
  });

  it('run <name> --wait --var shows one progress line per log event on stderr, prints the result JSON and exits 0', async () => {
    const { code, stdout, stderr } = await runTaskloom(['run', 'Greet someone', '--wait', '--var', 'who=Grace'], env);
    assert.equal(code, 0, stderr);
    const answer = JSON.parse(stdout);
    assert.equal(answer.status, 'success');
    assert.equal(answer.taskId, greetId);
    assert.deepEqual(answer.result.data, { count: '1', name: 'Grace' });

    const record = (await svc.request('GET', `/api/executions/${answer.executionId}`, { apiKey })).body;
    const progress = stderr.split('\n').filter((line) => /^\s+\d+\.\ds (info|warn|error|debug)\s/.test(line));
    assert.deepEqual(progress.map((line) => line.replace(/^\s+\d+\.\ds \w+\s+/, '')), record.logs.map((l: { message: string }) => l.message),
      'every stored log line, in order');
    assert.ok(progress.some((line) => line.includes('action 1 (click): #increment')), stderr);
    assert.ok(!stderr.includes('\x1b['), 'plain lines when stderr is not a terminal');
  });

  it('a run that fails at its 2nd action prints its result and exits 1; every line a person reads says action 2', async () => {
    const { code, stdout, stderr } = await runTaskloom(['run', failingId, '--wait'], env);
    assert.equal(code, 1, stderr);
    const answer = JSON.parse(stdout);
    assert.equal(answer.status, 'error');
    assert.equal(answer.result.error.actionIndex, 1, 'the API field counts from 0');
    assert.match(stderr, /^run ended with status error: Action 2 \(click\): .*#not-on-the-page[^\n]*$/m);
    assert.match(stderr, /\serror\s+Action 2 \(click\): .*#not-on-the-page/, 'the log line of the failure');
    assert.match(stderr, /\sinfo\s+action 2 \(click\): #not-on-the-page$/m);
    assert.doesNotMatch(stderr, /action #|[Aa]ction 1 \(click\): .*not-on-the-page/);
  });

  it('run without --wait prints the execution id at once and the run goes on in the service', async () => {
    const { code, stdout, stderr } = await runTaskloom(['run', greetId, '--json'], env);
    assert.equal(code, 0, stderr);
    const { executionId, taskId } = JSON.parse(stdout);
    assert.equal(taskId, greetId);
    let record;
    for (let i = 0; i < 200; i++) {
      record = (await svc.request('GET', `/api/executions/${executionId}`, { apiKey })).body;
      if (record.status !== 'queued' && record.status !== 'running') break;
      await sleep(100);
    }
    assert.equal(record.status, 'success', 'the run finished although the CLI left');
    assert.equal(record.trigger, 'api');

    const bare = await runTaskloom(['run', 'Greet someone'], env);
    assert.equal(bare.code, 0, bare.stderr);
    assert.match(bare.stdout, /^exec_[\w-]+\n$/);
  });

  it('run --wait follows its own run, even when another run of the same task starts right after it', async () => {
    const waitId = await createTask({ name: 'Wait a while', url: `${pages.origin}/`, variables: { ms: '50' }, actions: [{ type: 'wait', value: '{$ms}' }] });
    let startedOurs = false;
    let other: Promise<string> | undefined;
    // Once the CLI has asked for its run, another caller starts one of the same task before the CLI's next request.
    const proxy = await startInterceptingProxy(svc.baseUrl, async (method, path) => {
      if (method === 'POST' && path === `/api/tasks/${waitId}/api`) startedOurs = true;
      else if (startedOurs && !other) {
        await sleep(200); // our record is stored by now
        other = svc.request('POST', `/api/tasks/${waitId}/api`, { apiKey, headers: { prefer: 'respond-async' } }).then((res) => res.body.executionId);
        await other;
      }
    });
    try {
      const { code, stdout, stderr } = await runTaskloom(['run', waitId, '--wait', '--var', 'ms=1000'], { ...env, TASKLOOM_URL: proxy.url });
      assert.equal(code, 0, stderr);
      assert.ok(other, 'another run started while the CLI followed its own');
      const answer = JSON.parse(stdout);
      assert.notEqual(answer.executionId, await other);
      const waits = stderr.split('\n').filter((line) => /\(wait\): \d+ ms$/.test(line)).map((line) => line.replace(/^.*\(wait\): /, ''));
      assert.deepEqual(waits, ['1000 ms'], `only the lines of its own run: ${stderr}`);
    } finally {
      await proxy.close();
    }
  });

  it('run --wait opens the event stream again when it breaks, and shows each line once', async () => {
    const waitId = await createTask({ name: 'Wait in steps', url: `${pages.origin}/`, actions: [{ type: 'wait', value: '1200' }, { type: 'wait', value: '300' }] });
    let streams = 0;
    const proxy = await startInterceptingProxy(svc.baseUrl, (method, path) => {
      if (path.endsWith('/events') && ++streams === 1) return 600; // cut during the first wait
    });
    try {
      const { code, stdout, stderr } = await runTaskloom(['run', waitId, '--wait'], { ...env, TASKLOOM_URL: proxy.url });
      assert.equal(code, 0, stderr);
      assert.equal(streams, 2, 'the stream was opened again once');
      const answer = JSON.parse(stdout);
      assert.equal(answer.status, 'success');
      const record = (await svc.request('GET', `/api/executions/${answer.executionId}`, { apiKey })).body;
      const progress = stderr.split('\n').filter((line) => /^\s+\d+\.\ds (info|warn|error|debug)\s/.test(line));
      assert.deepEqual(progress.map((line) => line.replace(/^\s+\d+\.\ds \w+\s+/, '')), record.logs.map((l: { message: string }) => l.message));
    } finally {
      await proxy.close();
    }
  });

  it('executions list shows the runs newest first; --task, --status, --limit and --json filter and shape it', async () => {
    const [table, failed, limited] = await Promise.all([
      runTaskloom(['executions', 'list'], env),
      runTaskloom(['executions', 'list', '--json', '--task', failingId, '--status', 'error'], env),
      runTaskloom(['executions', 'list', '--json', '--limit', '1'], env),
    ]);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.trimEnd().split('\n');
    assert.match(lines[0]!, /^ID\s+TASK\s+STATUS\s+TRIGGER\s+STARTED\s+DURATION\s+OUTCOME\s+CHANGED$/);
    assert.ok(lines.length >= 5, table.stdout);
    assert.ok(lines.some((line) => /^exec_\S+\s+Click what is not there\s+error\s+api\s.*\serror$/.test(line)), table.stdout);

    const errors = JSON.parse(failed.stdout) as { taskId: string; status: string }[];
    assert.equal(errors.length, 1);
    assert.deepEqual([errors[0]!.taskId, errors[0]!.status], [failingId, 'error']);
    assert.equal(JSON.parse(limited.stdout).length, 1);
  });

  it('run --wait says the outcome when it differs from the status (a stop action: success, outcome stopped)', async () => {
    const stopId = await createTask({ name: 'Stop early', url: `${pages.origin}/`, actions: [{ type: 'stop' }, { type: 'click', selector: '#not-on-the-page' }] });
    const { code, stdout, stderr } = await runTaskloom(['run', stopId, '--wait'], env);
    assert.equal(code, 0, stderr);
    const answer = JSON.parse(stdout);
    assert.equal(answer.status, 'success');
    assert.equal(answer.outcome, undefined, 'stdout keeps the shape of the API\'s run answer');
    assert.equal((await svc.request('GET', `/api/executions/${answer.executionId}`, { apiKey })).body.outcome, 'stopped');
    assert.match(stderr, /^run ended with status success \(outcome stopped\)$/m);
    const same = await runTaskloom(['run', greetId, '--wait'], env);
    assert.equal(same.code, 0, same.stderr);
    assert.doesNotMatch(same.stderr, /outcome|run ended/, 'an outcome that is the status is not repeated');
  });
});
