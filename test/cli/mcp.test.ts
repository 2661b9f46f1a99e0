// `taskloom mcp` spawned by the MCP SDK's own client over stdio, against a real service running real Chromium:
// one tool per task with its variables as the input schema, a task tool that runs for real, the execution tools,
// and the tool list following the stored tasks.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { chromiumOrSkip } from '../../testing/browser.contract.js';
import { startPagesServer, type PagesServer } from '../support/pages-server.js';
import { setupAdmin, startService, type TestService } from '../support/service.js';
import { CLI, cliEnv } from './cli-process.js';

const chromium = chromiumOrSkip();
const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('taskloom mcp', { skip: chromium.skip }, () => {
  let svc: TestService;
  let pages: PagesServer;
  let apiKey: string;
  let client: Client;
  let greetId: string;
  let waitId: string;
  let listChanged: () => void = () => {};
  let stderr = '';

  const createTask = async (task: Record<string, unknown>): Promise<string> => {
    const res = await svc.request('POST', '/api/tasks', { apiKey, body: { mode: 'agent', url: `${pages.origin}/`, actions: [], ...task } });
    assert.equal(res.status, 200, res.text);
    return res.body.id;
  };

  before(async () => {
    pages = await startPagesServer();
    svc = await startService({ ALLOW_PRIVATE_NETWORKS: 'true' });
    ({ apiKey } = await setupAdmin(svc));
    greetId = await createTask({
      name: 'Greet someone',
      description: 'Types a name into the greeting form and reads it back.',
      variables: { who: 'Ada', times: 2 },
      actions: [{ type: 'type', selector: '#name', value: '{$who}' }, { type: 'click', selector: '#greet' }],
      extractionScript: 'return { name: document.querySelector("#name").value, times: args.vars.times }',
    });
    await createTask({ name: 'Click what is not there', actions: [{ type: 'click', selector: '#nowhere', timeoutMs: 500 }] });
    waitId = await createTask({ name: 'Wait a while', variables: { ms: '50' }, actions: [{ type: 'wait', value: '{$ms}' }] });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', CLI, 'mcp', '--watch', '1'],
      env: cliEnv({ TASKLOOM_URL: svc.baseUrl, TASKLOOM_API_KEY: apiKey }) as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    client = new Client({ name: 'taskloom-test', version: '1.0.0' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => listChanged());
    await client.connect(transport);
  });
  after(async () => {
    await client?.close();
    await svc?.close();
    await pages?.close();
  });

  it('lists one tool per task, with its description and its variables as string properties with defaults', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['get_execution', 'list_executions', 'run_click_what_is_not_there', 'run_greet_someone', 'run_wait_a_while']);
    const greet = tools.find((t) => t.name === 'run_greet_someone')!;
    assert.match(greet.description ?? '', /^Types a name into the greeting form and reads it back\./);
    assert.equal(greet.inputSchema.type, 'object');
    assert.deepEqual(Object.keys(greet.inputSchema.properties ?? {}).sort(), ['times', 'who']);
    const { who, times } = greet.inputSchema.properties as Record<string, { type: string; default: string; description: string }>;
    assert.deepEqual([who!.type, who!.default], ['string', 'Ada']);
    assert.deepEqual([times!.type, times!.default], ['string', '2'], 'a number default as its JSON text');
    assert.match(times!.description, /JSON/);
    for (const tool of tools) assert.match(tool.name, /^[A-Za-z0-9_-]{1,64}$/);
  });

  it('calling a task tool runs it in Chromium and answers the result JSON', async () => {
    const result = await client.callTool({ name: 'run_greet_someone', arguments: { who: 'Grace', times: '3' } });
    assert.notEqual(result.isError, true, textOf(result));
    const answer = JSON.parse(textOf(result));
    assert.equal(answer.status, 'success');
    assert.equal(answer.taskId, greetId);
    assert.deepEqual(answer.result.data, { name: 'Grace', times: 3 }, 'a number variable takes the JSON the string holds');

    const read = await client.callTool({ name: 'get_execution', arguments: { executionId: answer.executionId } });
    const record = JSON.parse(textOf(read));
    assert.equal(record.executionId, answer.executionId);
    assert.ok(record.logs.length > 0);
    assert.deepEqual(record.result.data, answer.result.data);
  });

  it('a failing run is a tool result with isError, and shows in list_executions', async () => {
    const result = await client.callTool({ name: 'run_click_what_is_not_there', arguments: {} });
    assert.equal(result.isError, true);
    const answer = JSON.parse(textOf(result));
    assert.equal(answer.status, 'error');
    assert.match(answer.result.error.message, /#nowhere/);

    const listed = JSON.parse(textOf(await client.callTool({ name: 'list_executions', arguments: { status: 'error' } })));
    assert.deepEqual(listed.map((e: { executionId: string }) => e.executionId), [answer.executionId]);
  });

  it('sends each log line of its own run as a progress notification when the client asks for progress', async () => {
    const messages: string[] = [];
    const result = await client.callTool({ name: 'run_greet_someone', arguments: { who: 'Lin' } }, undefined, {
      onprogress: (progress) => { messages.push(progress.message ?? ''); },
    });
    const answer = JSON.parse(textOf(result));
    assert.equal(answer.status, 'success', textOf(result));
    const record = (await svc.request('GET', `/api/executions/${answer.executionId}`, { apiKey })).body;
    assert.deepEqual(messages, record.logs.map((l: { message: string }) => l.message));
  });

  it('cancelling the tool call cancels its run', async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'run_wait_a_while', arguments: { ms: '30000' } }, undefined, { signal: controller.signal, timeout: 60_000 });
    const stateOf = async () => (await svc.request('GET', `/api/executions?taskId=${waitId}`, { apiKey })).body[0] as { executionId: string; status: string } | undefined;
    const deadline = Date.now() + 20_000;
    while ((await stateOf())?.status !== 'running') {
      assert.ok(Date.now() < deadline, 'the run never started');
      await sleep(50);
    }
    controller.abort();
    await assert.rejects(call);
    let state = await stateOf();
    while (state?.status === 'running' && Date.now() < deadline) {
      await sleep(50);
      state = await stateOf();
    }
    assert.equal(state?.status, 'cancelled');
  });

  it('an unknown execution is a tool error naming the service\'s code', async () => {
    const result = await client.callTool({ name: 'get_execution', arguments: { executionId: 'exec_nope' } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /EXECUTION_NOT_FOUND/);
  });

  it('a new task becomes a tool: the client is told the list changed, and the next tools/list has it', async () => {
    const told = new Promise<void>((resolve) => { listChanged = resolve; });
    await createTask({ name: 'Read the heading', variables: { selector: 'h1' } });
    await told;
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'run_read_the_heading'), tools.map((t) => t.name).join(', '));
    assert.ok(!stderr.includes(apiKey), 'the key is never logged');
  });
});
